package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jdk.graal.compiler.core.common.type.StampFactory;
import jdk.graal.compiler.core.common.type.TypeReference;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.ResolvedJavaField;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;
import jpai.compiler.nodes.TupleValueNode;

/**
 * Makes a function with a tuple result return the tuple's components instead of the object. The
 * runtime stores each component in its own array, so the tuple's identity is never observed.
 *
 * <p>Expects: a function whose result shape is a {@link ValueShape.Tuple}, after inlining and before
 * partial escape analysis. Does: before every {@link ReturnNode}, reads each of the tuple's fields
 * ({@link LoadFieldNode}) and unboxes it ({@link UnboxNode}), and returns a {@link TupleValueNode} of
 * those values. Partial escape analysis, run afterwards, then sees the allocated tuple (and the
 * boxes in it) used only by these reads, replaces the reads by the stored values and removes the
 * allocations. Where it cannot (the tuple escapes elsewhere), the allocation stays and the backend
 * refuses it.
 */
public final class TupleResultComponentsPhase extends BasePhase<CoreProviders> {

    private final KernelSignature signature;

    public TupleResultComponentsPhase(KernelSignature signature) {
        this.signature = signature;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        if (!(signature.result() instanceof ValueShape.Tuple tuple)) {
            return;
        }
        ResolvedJavaType tupleType = context.getMetaAccess().lookupJavaType(tuple.type());
        for (ReturnNode returnNode : graph.getNodes(ReturnNode.TYPE).snapshot()) {
            ValueNode result = returnNode.result();
            List<ValueNode> components = new ArrayList<>();
            for (int i = 0; i < tuple.fields().size(); i++) {
                ResolvedJavaField field = context.getMetaAccess().lookupJavaField(tuple.fields().get(i));
                LoadFieldNode load = graph.add(LoadFieldNode.create(graph.getAssumptions(), result, field));
                graph.addBeforeFixed(returnNode, load);
                UnboxNode unbox = graph.add(new UnboxNode(load, tuple.kindAt(i), context.getMetaAccess()));
                graph.addBeforeFixed(returnNode, unbox);
                components.add(unbox);
            }
            TupleValueNode value = graph.addWithoutUnique(new TupleValueNode(StampFactory.objectNonNull(TypeReference.createExactTrusted(tupleType)), components));
            returnNode.replaceFirstInput(result, value);
        }
    }
}
