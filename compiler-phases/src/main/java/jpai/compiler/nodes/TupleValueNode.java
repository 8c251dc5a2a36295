package jpai.compiler.nodes;

import static jdk.graal.compiler.nodeinfo.NodeCycles.CYCLES_0;
import static jdk.graal.compiler.nodeinfo.NodeSize.SIZE_0;

import java.util.List;

import jdk.graal.compiler.core.common.type.Stamp;
import jdk.graal.compiler.graph.NodeClass;
import jdk.graal.compiler.graph.NodeInputList;
import jdk.graal.compiler.nodeinfo.NodeInfo;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.FloatingNode;

/**
 * A tuple given by its component values, and nothing else: no allocation, no identity. It is what a
 * kernel function with a {@link jpai.compiler.ValueShape.Tuple} result returns; a backend writes
 * each component to its own result slot. Only {@code ReturnNode}s use it.
 */
@NodeInfo(cycles = CYCLES_0, size = SIZE_0, nameTemplate = "Tuple")
public final class TupleValueNode extends FloatingNode {

    public static final NodeClass<TupleValueNode> TYPE = NodeClass.create(TupleValueNode.class);

    @Input NodeInputList<ValueNode> components;

    public TupleValueNode(Stamp stamp, List<ValueNode> components) {
        super(TYPE, stamp);
        this.components = new NodeInputList<>(this, components);
    }

    /** The component values, in the tuple's field order. */
    public List<ValueNode> components() {
        return components;
    }
}
