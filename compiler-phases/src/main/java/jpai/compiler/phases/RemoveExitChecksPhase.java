package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.DeadCodeEliminationPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;

/**
 * <b>Unsafe, for measuring only</b> ({@link jpai.compiler.UnsafeExitCheckRemoval}, issue 21): makes every
 * check that leaves the device path pass, so that a kernel can be timed without the cost of its
 * exits. A bounds check that would have failed then reads or writes outside the array: results,
 * exceptions and memory safety are no longer Java's. What it removes: each {@link FixedGuardNode}
 * (its condition made to hold) and each {@code If} with a {@link DeoptimizeNode} alone on one side
 * (the other side taken always). Exits the backend writes itself (a division's zero check where
 * the graph has none) stay.
 *
 * <p>Expects: the kernel graph after JPAI's kernel phases, exits as deoptimizations (after
 * {@link ExceptionPathsToDeoptimizationPhase} and the hoisting phases).
 */
public final class RemoveExitChecksPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public RemoveExitChecksPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        boolean changed = false;
        for (FixedGuardNode guard : graph.getNodes(FixedGuardNode.TYPE).snapshot()) {
            makePass(guard);
            changed = true;
        }
        for (DeoptimizeNode exit : graph.getNodes(DeoptimizeNode.TYPE).snapshot()) {
            changed |= neverTake(exit);
        }
        if (changed) {
            new DeadCodeEliminationPhase().apply(graph);
        }
    }

    /** Makes {@code guard} hold always (the canonicaliser then removes it). */
    public static void makePass(FixedGuardNode guard) {
        guard.setCondition(LogicConstantNode.tautology(guard.graph()), false);
    }

    /**
     * Makes the {@code If} whose one side is {@code exit} alone take the other side always; false
     * when {@code exit} is not so placed (after a merge, say), and stays.
     */
    public static boolean neverTake(DeoptimizeNode exit) {
        if (exit.predecessor() instanceof AbstractBeginNode begin && begin.predecessor() instanceof IfNode check) {
            check.setCondition(LogicConstantNode.forBoolean(check.falseSuccessor() == begin, exit.graph()));
            return true;
        }
        return false;
    }
}
