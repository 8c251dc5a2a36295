package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.ConditionalNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;
import jdk.vm.ci.meta.DeoptimizationAction;
import jdk.vm.ci.meta.DeoptimizationReason;

/**
 * Replaces the per-iteration bounds checks of a counted loop by one check before the loop. In a
 * {@link CountedLoop} {@code for (i = a; i < b; i++)}, an index {@code i + c} ({@code c} a
 * loop-invariant {@code int}, say a constant or {@code row * n}) takes, in {@code long}, exactly the
 * values {@code a + c ... b - 1 + c}; so if {@code a < b} implies {@code a + c >= 0} and
 * {@code b + c <= length} (computed in {@code long}: no overflow, hence the {@code int} sum
 * {@code i + c} does not wrap either), every check {@code i + c |<| length} in the body passes. A Java exception path is an exit after which the
 * runtime re-runs the whole operation in Java, so a check may move earlier and become stronger: a
 * loop that would have left (by {@code break}) before going out of bounds now exits at the loop,
 * which costs speed, never a wrong result. Where stamps already prove the range (typically
 * {@code for (i = 0; i < a.length; i++) a[i]}) no check is added at all.
 *
 * <p>Expects: bounds checks as the parser's explicit checks, after
 * {@link ExceptionPathsToDeoptimizationPhase} ({@code If (index |<| length)} with a
 * {@link DeoptimizeNode} of {@link DeoptimizationReason#BoundsCheckException} on the failing side)
 * or as {@link FixedGuardNode}s (element readers, possibly on sign-extended values), and captured
 * array lengths already parameters. Does: for each {@link CountedLoop} and each distinct
 * {@code (length, c)} of a check in its body with a loop-invariant length, inserts before the loop
 * (when stamps do not prove it) guards {@code (a < b ? a + c : 0) >= 0} and
 * {@code (a < b ? b + c : 0) <= length} exiting with {@code BoundsCheckException}, and makes the
 * checks in the body always pass (the canonicaliser then removes them).
 */
public final class SpeculativeBoundsCheckHoistingPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public SpeculativeBoundsCheckHoistingPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    /** One bounds check in a loop body: {@code counter + offset |<| length}, offset loop-invariant. */
    private record Check(FixedNode node, ValueNode offset, ValueNode length) {
    }

    private record Range(ValueNode offset, ValueNode length) {
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (LoopBeginNode loop : graph.getNodes(LoopBeginNode.TYPE).snapshot()) {
            if (!loop.isAlive()) {
                continue;
            }
            CountedLoop counted = CountedLoop.match(loop);
            if (counted == null) {
                continue;
            }
            Map<Range, List<Check>> checks = new LinkedHashMap<>();
            for (FixedNode node : counted.bodyFixedNodes()) {
                Check check = asCheck(node, counted);
                if (check != null) {
                    checks.computeIfAbsent(new Range(check.offset(), check.length()), r -> new ArrayList<>()).add(check);
                }
            }
            for (Map.Entry<Range, List<Check>> entry : checks.entrySet()) {
                hoist(graph, counted, entry.getKey(), entry.getValue());
            }
        }
    }

    private static void hoist(StructuredGraph graph, CountedLoop counted, Range range, List<Check> checks) {
        NodeSourcePosition position = checks.get(0).node().getNodeSourcePosition();
        IntegerStamp startStamp = (IntegerStamp) counted.start().stamp(NodeView.DEFAULT);
        IntegerStamp endStamp = (IntegerStamp) counted.end().stamp(NodeView.DEFAULT);
        IntegerStamp lengthStamp = (IntegerStamp) range.length().stamp(NodeView.DEFAULT);
        IntegerStamp offsetStamp = (IntegerStamp) range.offset().stamp(NodeView.DEFAULT);
        boolean lowProven = startStamp.lowerBound() + offsetStamp.lowerBound() >= 0;
        boolean highProven = (counted.end() == range.length() && offsetStamp.upperBound() <= 0) || endStamp.upperBound() + offsetStamp.upperBound() <= lengthStamp.lowerBound();
        if (!lowProven || !highProven) {
            // Only when the loop runs at all: an empty loop checks nothing.
            LogicNode runs = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(counted.start(), counted.end(), NodeView.DEFAULT));
            ValueNode zero = ConstantNode.forLong(0, graph);
            ValueNode offset = widen(graph, range.offset());
            FixedNode before = counted.loop().forwardEnd();
            if (!lowProven) {
                ValueNode low = graph.addOrUniqueWithInputs(AddNode.create(widen(graph, counted.start()), offset, NodeView.DEFAULT));
                ValueNode lowIfRuns = graph.addOrUniqueWithInputs(ConditionalNode.create(runs, low, zero, NodeView.DEFAULT));
                LogicNode negative = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(lowIfRuns, zero, NodeView.DEFAULT));
                addGuard(graph, before, negative, position);
            }
            if (!highProven) {
                ValueNode high = graph.addOrUniqueWithInputs(AddNode.create(widen(graph, counted.end()), offset, NodeView.DEFAULT));
                ValueNode highIfRuns = graph.addOrUniqueWithInputs(ConditionalNode.create(runs, high, zero, NodeView.DEFAULT));
                LogicNode beyond = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(widen(graph, range.length()), highIfRuns, NodeView.DEFAULT));
                addGuard(graph, before, beyond, position);
            }
        }
        for (Check check : checks) {
            if (check.node() instanceof IfNode test) {
                boolean inBoundsIsTrue = !isBoundsExit(test.trueSuccessor());
                test.setCondition(LogicConstantNode.forBoolean(inBoundsIsTrue, graph));
            } else if (check.node() instanceof FixedGuardNode guard) {
                guard.setCondition(LogicConstantNode.forBoolean(!guard.isNegated(), graph), guard.isNegated());
            }
        }
    }

    /** A guard that exits with {@code BoundsCheckException} when {@code fails} holds. */
    private static void addGuard(StructuredGraph graph, FixedNode before, LogicNode fails, NodeSourcePosition position) {
        if (fails instanceof LogicConstantNode constant && !constant.getValue()) {
            return;
        }
        FixedGuardNode guard = graph.add(new FixedGuardNode(fails, DeoptimizationReason.BoundsCheckException, DeoptimizationAction.None, true));
        guard.setNodeSourcePosition(position);
        graph.addBeforeFixed(before, guard);
    }

    private static ValueNode widen(StructuredGraph graph, ValueNode value) {
        if (((IntegerStamp) value.stamp(NodeView.DEFAULT)).getBits() == 64) {
            return value;
        }
        return graph.addOrUniqueWithInputs(SignExtendNode.create(value, 64, NodeView.DEFAULT));
    }

    /** The bounds check {@code node} is, on the counter of {@code counted} (plus a constant), or null. */
    private static Check asCheck(FixedNode node, CountedLoop counted) {
        LogicNode condition;
        if (node instanceof IfNode test && (isBoundsExit(test.trueSuccessor()) != isBoundsExit(test.falseSuccessor()))) {
            condition = test.condition();
        } else if (node instanceof FixedGuardNode guard && guard.getReason() == DeoptimizationReason.BoundsCheckException && !guard.isNegated()) {
            condition = guard.getCondition();
        } else {
            return null;
        }
        if (!(condition instanceof IntegerBelowNode below)) {
            return null;
        }
        ValueNode index = below.getX();
        ValueNode length = below.getY();
        if (index instanceof SignExtendNode extendIndex && length instanceof SignExtendNode extendLength && extendIndex.getInputBits() == 32 && extendLength.getInputBits() == 32) {
            index = extendIndex.getValue();
            length = extendLength.getValue();
        }
        if (((IntegerStamp) length.stamp(NodeView.DEFAULT)).getBits() != 32 || ((IntegerStamp) length.stamp(NodeView.DEFAULT)).lowerBound() < 0
                        || !CountedLoop.isInvariant(length, counted.loop())) {
            return null;
        }
        ValueNode offset;
        if (index == counted.index()) {
            offset = ConstantNode.forInt(0, counted.loop().graph());
        } else if (index instanceof AddNode add && add.getX() == counted.index() && CountedLoop.isInvariant(add.getY(), counted.loop())) {
            offset = add.getY();
        } else if (index instanceof AddNode add && add.getY() == counted.index() && CountedLoop.isInvariant(add.getX(), counted.loop())) {
            offset = add.getX();
        } else {
            return null;
        }
        return new Check(node, offset, length);
    }

    private static boolean isBoundsExit(AbstractBeginNode successor) {
        return successor.next() instanceof DeoptimizeNode deoptimize && deoptimize.getReason() == DeoptimizationReason.BoundsCheckException;
    }
}
