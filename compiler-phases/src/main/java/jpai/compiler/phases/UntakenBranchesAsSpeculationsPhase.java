package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.vm.ci.meta.DeoptimizationReason;
import jpai.compiler.GraalSpeculations;
import jpai.compiler.Speculation;

/**
 * Names the exits the parser made of branches HotSpot's profile says were never taken
 * ({@code UnreachedCode}, from never-executed code removal, which {@code KernelGraphCompiler} turns on
 * only for a compilation from the function body's profile) as {@link Speculation#UNTAKEN_BRANCHES}:
 * the backend then gives them their own exit code, and the runtime, when one fails, recompiles the
 * function without the profile instead of taking it for a Java exception.
 *
 * <p>Expects: the graph right after parsing and inlining. Does: attaches the speculation to every
 * {@link DeoptimizeNode} and {@link FixedGuardNode} of reason {@code UnreachedCode}.
 */
public final class UntakenBranchesAsSpeculationsPhase extends BasePhase<HighTierContext> {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, HighTierContext context) {
        for (DeoptimizeNode exit : graph.getNodes(DeoptimizeNode.TYPE)) {
            if (exit.getReason() == DeoptimizationReason.UnreachedCode) {
                exit.setSpeculation(GraalSpeculations.of(Speculation.UNTAKEN_BRANCHES));
            }
        }
        for (FixedGuardNode guard : graph.getNodes(FixedGuardNode.TYPE).snapshot()) {
            if (guard.getReason() == DeoptimizationReason.UnreachedCode) {
                FixedGuardNode named = graph.add(new FixedGuardNode(guard.getCondition(), guard.getReason(), guard.getAction(), GraalSpeculations.of(Speculation.UNTAKEN_BRANCHES),
                                guard.isNegated(), guard.getNodeSourcePosition()));
                graph.replaceFixedWithFixed(guard, named);
            }
        }
    }
}
