package jpai.compiler.nodes;

import static jdk.graal.compiler.nodeinfo.NodeCycles.CYCLES_UNKNOWN;
import static jdk.graal.compiler.nodeinfo.NodeSize.SIZE_UNKNOWN;

import java.util.List;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.graph.NodeClass;
import jdk.graal.compiler.graph.NodeInputList;
import jdk.graal.compiler.nodeinfo.NodeInfo;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.FloatingNode;
import jdk.vm.ci.meta.JavaKind;

/**
 * A call of a {@code java.lang.Math} function of {@code double}s that Graal
 * has no intrinsic for ({@code hypot}, {@code atan2}, {@code sinh}, ...), kept as the function's
 * name and arguments instead of its Java implementation. A backend maps it to the device's
 * built-in of the same name, whose accuracy is the device's (see {@code docs/java-semantics.md}).
 */
@NodeInfo(cycles = CYCLES_UNKNOWN, size = SIZE_UNKNOWN, nameTemplate = "Math.{p#function}")
public final class MathCallNode extends FloatingNode {

    public static final NodeClass<MathCallNode> TYPE = NodeClass.create(MathCallNode.class);

    @Input NodeInputList<ValueNode> arguments;
    private final String function;

    public MathCallNode(String function, List<ValueNode> arguments) {
        this(function, arguments, JavaKind.Double);
    }

    /**
     * A call computed in {@code kind} ({@code Double}, or {@code Float} for the single-precision
     * built-in of the same name: see {@code FloatTranscendentalsPhase}); the arguments are of that kind.
     */
    public MathCallNode(String function, List<ValueNode> arguments, JavaKind kind) {
        super(TYPE, StampFactory.forKind(kind));
        this.function = function;
        this.arguments = new NodeInputList<>(this, arguments);
    }

    /** The Java method's name, e.g. {@code "hypot"}. */
    public String function() {
        return function;
    }

    public List<ValueNode> arguments() {
        return arguments;
    }
}
