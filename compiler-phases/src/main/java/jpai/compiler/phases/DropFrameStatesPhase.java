package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.GraphState.FrameStateVerification;
import jdk.graal.compiler.nodes.StateSplit;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.util.GraphUtil;
import jdk.graal.compiler.phases.Phase;

/**
 * Removes the JVM frame states from a kernel graph. A kernel never resumes the interpreter in the
 * middle of a method: when it cannot give Java's answer it records a deoptimisation exit and the
 * runtime re-runs the whole operation in Java. The bytecode-level states are therefore dead weight,
 * and they keep alive values (the boxed arguments) that our phases replace.
 *
 * <p>Expects: inlining and partial escape analysis done (both need frame states). Does: clears the
 * state of every state split and deletes the frame states left unused; weakens the graph's frame
 * state verification accordingly.
 */
public final class DropFrameStatesPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        for (Node node : graph.getNodes()) {
            if (node instanceof StateSplit split && split.stateAfter() != null) {
                split.setStateAfter(null);
            }
        }
        for (FrameState state : graph.getNodes(FrameState.TYPE).snapshot()) {
            if (state.isAlive() && state.hasNoUsages()) {
                GraphUtil.killWithUnusedFloatingInputs(state);
            }
        }
    }

    @Override
    public void updateGraphState(GraphState graphState) {
        super.updateGraphState(graphState);
        graphState.weakenFrameStateVerification(FrameStateVerification.NONE);
    }
}
