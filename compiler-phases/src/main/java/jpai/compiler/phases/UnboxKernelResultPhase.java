package jpai.compiler.phases;


import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * Makes the kernel function return a bare primitive where Java returns a wrapper. The runtime
 * stores results in a {@code PArray} of primitives, so the wrapper's identity is never observed.
 *
 * <p>Expects: a function whose result shape is {@link ValueShape.BoxedPrimitive}. Does: puts an
 * {@link UnboxNode} in front of every {@link ReturnNode} and returns its value. The canonicalizer that
 * runs after it folds {@code unbox(box(x))} to {@code x} and deletes the now unused box (the
 * allocation, or the {@code Integer.valueOf} cache lookup). Where the function returns its argument
 * unchanged, the unbox stays and {@link UnboxKernelArgumentsPhase} removes it.
 */
public final class UnboxKernelResultPhase extends KernelBoundaryPhase {


    public UnboxKernelResultPhase(CanonicalizerPhase canonicalizer, KernelSignature signature) {
        super(canonicalizer, signature);
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        if (!(signature.result() instanceof ValueShape.BoxedPrimitive boxed)) {
            return;
        }
        for (ReturnNode returnNode : graph.getNodes(ReturnNode.TYPE).snapshot()) {
            ValueNode result = returnNode.result();
            if (result == null || result.getStackKind().isPrimitive()) {
                continue;
            }
            UnboxNode unbox = graph.add(new UnboxNode(result, boxed.kind(), context.getMetaAccess()));
            graph.addBeforeFixed(returnNode, unbox);
            returnNode.replaceFirstInput(result, unbox);
        }
    }
}
