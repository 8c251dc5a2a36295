package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.StaticDeoptimizingNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ProfileData.BranchProbabilityData;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;
import jpai.compiler.GraalSpeculations;
import jpai.compiler.Speculation;

/**
 * Moves exits whose condition does not change in a counted loop to before the loop. A kernel that
 * exits re-runs the whole operation in Java, so an exit may come earlier than Java's exception
 * (never later, never missing): testing once before the loop what the body would test on every
 * iteration keeps the result and saves the test. The case it is for: the null check of a captured
 * array ({@code CapturedValuesToParametersPhase} makes it a test of the array's length argument),
 * repeated at each access in a loop.
 *
 * <p>Expects: exits as {@link DeoptimizeNode}s right after an {@link IfNode}'s successor, or
 * {@link FixedGuardNode}s, and counted loops ({@link CountedLoop}). Does: first, for any loop, each
 * such exit tested at the top of the loop, before anything can leave it, with an invariant condition,
 * becomes a guard before the loop (it runs on entry anyway); then, for each such exit in the
 * body of a counted loop whose condition uses no value computed in the loop, adds a guard before
 * the loop that exits for the same reason when the loop runs ({@code start < end}) and the condition
 * says exit, and makes the test in the body take its other branch. Inner loops first, so that a
 * test moved out of an inner loop can move out of the outer one as well.
 */
public final class LoopInvariantExitsPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    private final CanonicalizerPhase canonicalizer;
    /** Whether exits in counted loop bodies move too ({@link Speculation#HOISTED_LOOP_EXITS}); those at the top of a loop always do. */
    private final boolean hoistFromBodies;

    public LoopInvariantExitsPhase(CanonicalizerPhase canonicalizer) {
        this(canonicalizer, true);
    }

    /**
     * @param hoistFromBodies whether to move exits out of counted loop bodies as well, a speculation
     *            (they may not run at all in Java); false once the runtime saw one fail
     */
    public LoopInvariantExitsPhase(CanonicalizerPhase canonicalizer, boolean hoistFromBodies) {
        super(canonicalizer);
        this.canonicalizer = canonicalizer;
        this.hoistFromBodies = hoistFromBodies;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        boolean moved = true;
        for (int round = 0; moved && round < 8; round++) {
            moved = false;
            for (LoopBeginNode loop : graph.getNodes(LoopBeginNode.TYPE).snapshot()) {
                if (loop.isAlive()) {
                    moved |= hoistFromHeader(graph, loop);
                }
            }
            if (moved) {
                // folds the tests made constant, so that the loops they were in can be matched as counted
                canonicalizer.apply(graph, context);
            }
            for (LoopBeginNode loop : graph.getNodes(LoopBeginNode.TYPE).snapshot()) {
                if (hoistFromBodies && loop.isAlive()) {
                    moved |= hoistFromCountedBody(graph, loop);
                }
            }
        }
    }

    /**
     * The exits tested at the top of {@code loop}, before anything can leave it: they run on entry
     * whatever the loop does, so testing their invariant conditions before the loop changes
     * nothing but their count (the null check of an array whose length bounds the loop is one).
     */
    private static boolean hoistFromHeader(StructuredGraph graph, LoopBeginNode loop) {
        boolean moved = false;
        FixedNode node = loop.next();
        while (node != null) {
            ExitTest exit = node instanceof IfNode test ? ExitTest.of(test, loop) : null;
            if (exit != null) {
                guardBefore(graph, loop, exit.test().condition(), exit.exitWhen(), exit.exit(), exit.exit().getNodeSourcePosition(), false);
                node = exit.takeTheOtherBranch(graph).next();
                moved = true;
            } else if (node instanceof FixedWithNextNode withNext && !(node instanceof LoopExitNode) && !(node instanceof AbstractMergeNode) && !(node instanceof Invoke)) {
                node = withNext.next();
            } else {
                return moved;
            }
        }
        return moved;
    }

    private static boolean hoistFromCountedBody(StructuredGraph graph, LoopBeginNode loop) {
        CountedLoop counted = CountedLoop.match(loop);
        if (counted == null) {
            return false;
        }
        boolean moved = false;
        for (Node node : CountedLoop.bodyNodes(loop)) {
            ExitTest exit = node instanceof IfNode test ? ExitTest.of(test, loop) : null;
            if (exit != null) {
                guardBefore(graph, loop, whenRunning(graph, counted, exit.test().condition(), exit.exitWhen()), true, exit.exit(), exit.exit().getNodeSourcePosition(), true);
                exit.takeTheOtherBranch(graph);
                moved = true;
            } else if (node instanceof FixedGuardNode guard && !(guard.getCondition() instanceof LogicConstantNode) && CountedLoop.isInvariant(guard.getCondition(), loop)) {
                guardBefore(graph, loop, whenRunning(graph, counted, guard.getCondition(), guard.isNegated()), true, guard, guard.getNodeSourcePosition(), true);
                guard.setCondition(LogicConstantNode.forBoolean(!guard.isNegated(), graph), guard.isNegated());
                moved = true;
            }
        }
        return moved;
    }

    /**
     * An {@link IfNode} in {@code loop} with an invariant condition and an exit on exactly one side:
     * it exits when its condition is {@code exitWhen}.
     */
    private record ExitTest(IfNode test, DeoptimizeNode exit, boolean exitWhen) {

        static ExitTest of(IfNode test, LoopBeginNode loop) {
            if (test.condition() instanceof LogicConstantNode || !CountedLoop.isInvariant(test.condition(), loop)) {
                return null;
            }
            DeoptimizeNode exitOnTrue = exitOf(test.trueSuccessor());
            DeoptimizeNode exitOnFalse = exitOf(test.falseSuccessor());
            if ((exitOnTrue == null) == (exitOnFalse == null)) {
                return null;
            }
            return exitOnTrue != null ? new ExitTest(test, exitOnTrue, true) : new ExitTest(test, exitOnFalse, false);
        }

        /** Makes the test always take its branch that stays, which it returns; the canonicaliser removes the other. */
        AbstractBeginNode takeTheOtherBranch(StructuredGraph graph) {
            test.setCondition(LogicConstantNode.forBoolean(!exitWhen, graph));
            return exitWhen ? test.falseSuccessor() : test.trueSuccessor();
        }
    }

    /**
     * Before {@code loop}: a guard that exits with {@code exit}'s reason and action when
     * {@code condition} is {@code exitWhen}; {@code speculative}: the exit might not have run in
     * Java (it was in the body), so the guard carries {@link Speculation#HOISTED_LOOP_EXITS} and its
     * exit names that speculation, not Java's exception.
     */
    private static void guardBefore(StructuredGraph graph, LoopBeginNode loop, LogicNode condition, boolean exitWhen, StaticDeoptimizingNode exit, NodeSourcePosition position,
                    boolean speculative) {
        FixedGuardNode guard = graph.add(speculative ? new FixedGuardNode(condition, exit.getReason(), exit.getAction(), GraalSpeculations.of(Speculation.HOISTED_LOOP_EXITS), exitWhen)
                        : new FixedGuardNode(condition, exit.getReason(), exit.getAction(), exitWhen));
        guard.setNodeSourcePosition(position);
        graph.addBeforeFixed(loop.forwardEnd(), guard);
    }

    /** "The loop runs and {@code condition} is {@code exitWhen}". */
    private static LogicNode whenRunning(StructuredGraph graph, CountedLoop counted, LogicNode condition, boolean exitWhen) {
        LogicNode runs = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(counted.start(), counted.end(), NodeView.DEFAULT));
        return graph.addOrUniqueWithInputs(LogicNode.and(runs, false, condition, !exitWhen, BranchProbabilityData.unknown()));
    }

    private static DeoptimizeNode exitOf(AbstractBeginNode successor) {
        return successor.next() instanceof DeoptimizeNode deoptimize ? deoptimize : null;
    }
}
