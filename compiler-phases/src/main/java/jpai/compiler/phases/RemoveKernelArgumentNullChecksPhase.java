package jpai.compiler.phases;


import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.KernelSignature;

/**
 * Removes null checks on kernel arguments. The runtime reads every argument from a
 * {@code PArray} of primitives, so an argument is never null; the checks the bytecode parser put
 * before each unboxing or field access can only ever pass.
 *
 * <p>Expects: argument parameters that are still objects (before {@link UnboxKernelArgumentsPhase}).
 * Does: marks each argument parameter non-null and replaces every {@link IsNullNode} on it (seen
 * through Pi nodes) with {@code false}. The canonicalizer that runs after it then deletes the guards
 * those tests fed. Null checks on anything else (a captured array, a field read) are not touched:
 * they are real checks, and a later phase turns them into deoptimisation exits.
 */
public final class RemoveKernelArgumentNullChecksPhase extends KernelBoundaryPhase {


    public RemoveKernelArgumentNullChecksPhase(CanonicalizerPhase canonicalizer, KernelSignature signature) {
        super(canonicalizer, signature);
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ParameterNode parameter : KernelArguments.of(graph, signature)) {
            Stamp stamp = parameter.stamp(jdk.graal.compiler.nodes.NodeView.DEFAULT);
            if (!(stamp instanceof ObjectStamp objectStamp)) {
                continue;
            }
            parameter.setStamp(objectStamp.asNonNull());
            for (IsNullNode isNull : graph.getNodes().filter(IsNullNode.class).snapshot()) {
                if (KernelArguments.isParameter(isNull.getValue(), parameter)) {
                    isNull.replaceAtUsagesAndDelete(LogicConstantNode.contradiction(graph));
                }
            }
        }
    }
}
