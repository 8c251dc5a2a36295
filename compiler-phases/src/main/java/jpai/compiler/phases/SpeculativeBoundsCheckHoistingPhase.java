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
import jdk.graal.compiler.nodes.calc.IntegerConvertNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.LeftShiftNode;
import jdk.graal.compiler.nodes.calc.MulNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.calc.SubNode;
import jdk.graal.compiler.nodes.calc.ZeroExtendNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;
import jdk.vm.ci.meta.DeoptimizationAction;
import jdk.vm.ci.meta.DeoptimizationReason;

/**
 * Replaces the per-iteration bounds checks of a counted loop by checks before the loop. In a
 * {@link CountedLoop} {@code for (i = a; i < b; i++)}, an index {@code i * s + c} ({@code s} and
 * {@code c} loop-invariant {@code int}s: {@code s} is 1 for {@code i + c}, a constant, or say the
 * {@code n} of {@code k * n + col}; {@code c} say a constant or {@code row * n}) is, in {@code long},
 * an affine function of {@code i}: over {@code a <= i <= b - 1} it takes values between those at the
 * two ends, {@code first = a * s + c} and {@code last = (b - 1) * s + c}. So if both ends lie in
 * {@code [0, length)} (computed in {@code long}, where nothing overflows), every check
 * {@code i * s + c |<| length} in the body passes, and the {@code int} index equals the {@code long}
 * one (it is the same value modulo 2^32 and lies in {@code [0, 2^31)}). A Java exception path is an
 * exit after which the runtime re-runs the whole operation in Java, so a check may move earlier and
 * become stronger: a loop that would have left (by {@code break}) before going out of bounds now
 * exits before the loop, which costs speed, never a wrong result. Where stamps already prove the range
 * (typically {@code for (i = 0; i < a.length; i++) a[i]}) no check is added at all.
 *
 * <p>Expects: bounds checks as the parser's explicit checks, after
 * {@link ExceptionPathsToDeoptimizationPhase} ({@code If (index |<| length)} with a
 * {@link DeoptimizeNode} of {@link DeoptimizationReason#BoundsCheckException} on the failing side)
 * or as {@link FixedGuardNode}s (element readers, possibly on {@code long} values widened from {@code int}s: a
 * captured {@code PArray}'s {@code get((long) j)}), and captured
 * array lengths already parameters. Does: for each {@link CountedLoop} and each distinct
 * {@code (length, s, c)} of a check in its body with a loop-invariant length, inserts before the loop
 * (when stamps do not prove it) guards that exit when the loop runs ({@code a < b}) and
 * {@code first < 0} or {@code last >= length} (for a stride that may be negative also
 * {@code last < 0} or {@code first >= length}), and makes the checks in the body always pass (the
 * canonicaliser then removes them). The guards exit with {@link DeoptimizationReason#LoopLimitCheck}
 * (the backend's {@code HOISTED_BOUNDS_CHECK}), not {@code BoundsCheckException}: when one fails,
 * Java need not throw, and the explanation says so.
 */
public final class SpeculativeBoundsCheckHoistingPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public SpeculativeBoundsCheckHoistingPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    /**
     * One bounds check in a loop body: {@code counter * stride + offset |<| length}, stride, offset
     * and length loop-invariant; stride null for 1.
     */
    private record Check(FixedNode node, ValueNode stride, ValueNode offset, ValueNode length) {
    }

    /** The checks one set of guards covers. */
    private record Range(ValueNode stride, ValueNode offset, ValueNode length) {
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
                    checks.computeIfAbsent(new Range(check.stride(), check.offset(), check.length()), r -> new ArrayList<>()).add(check);
                }
            }
            for (Map.Entry<Range, List<Check>> entry : checks.entrySet()) {
                hoist(graph, counted, entry.getKey(), entry.getValue());
            }
        }
    }

    private static void hoist(StructuredGraph graph, CountedLoop counted, Range range, List<Check> checks) {
        Guards guards = new Guards(graph, counted, range, checks.get(0).node().getNodeSourcePosition());
        IntegerStamp startStamp = (IntegerStamp) counted.start().stamp(NodeView.DEFAULT);
        IntegerStamp endStamp = (IntegerStamp) counted.end().stamp(NodeView.DEFAULT);
        IntegerStamp lengthStamp = (IntegerStamp) range.length().stamp(NodeView.DEFAULT);
        IntegerStamp offsetStamp = (IntegerStamp) range.offset().stamp(NodeView.DEFAULT);
        ValueNode start = widen(graph, counted.start());
        ValueNode end = widen(graph, counted.end());
        ValueNode offset = widen(graph, range.offset());
        if (range.stride() == null) {
            // i + c: first = a + c, last + 1 = b + c.
            if (startStamp.lowerBound() + offsetStamp.lowerBound() < 0) {
                guards.exitIfNegative(add(graph, start, offset));
            }
            if (!(counted.end() == range.length() && offsetStamp.upperBound() <= 0) && endStamp.upperBound() + offsetStamp.upperBound() > lengthStamp.lowerBound()) {
                guards.exitIfBeyond(add(graph, end, offset));
            }
        } else {
            IntegerStamp strideStamp = (IntegerStamp) range.stride().stamp(NodeView.DEFAULT);
            ValueNode stride = widen(graph, range.stride());
            ValueNode first = add(graph, graph.addOrUniqueWithInputs(MulNode.create(start, stride, NodeView.DEFAULT)), offset);
            ValueNode lastIndex = graph.addOrUniqueWithInputs(SubNode.create(end, ConstantNode.forLong(1, graph), NodeView.DEFAULT));
            ValueNode last = add(graph, graph.addOrUniqueWithInputs(MulNode.create(lastIndex, stride, NodeView.DEFAULT)), offset);
            ValueNode one = ConstantNode.forLong(1, graph);
            // The loop k < n of k * n + c runs only when n > k >= 0: then its stride is positive.
            boolean strideNotNegative = strideStamp.lowerBound() >= 0 || (range.stride() == counted.end() && startStamp.lowerBound() >= 0);
            if (startStamp.lowerBound() < 0 || !strideNotNegative || offsetStamp.lowerBound() < 0) {
                guards.exitIfNegative(first);
            }
            guards.exitIfBeyond(add(graph, last, one));
            if (!strideNotNegative) {
                // A negative stride runs the range backwards: check the other ends too.
                guards.exitIfNegative(last);
                guards.exitIfBeyond(add(graph, first, one));
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

    private static ValueNode add(StructuredGraph graph, ValueNode x, ValueNode y) {
        return graph.addOrUniqueWithInputs(AddNode.create(x, y, NodeView.DEFAULT));
    }

    /** Adds the guards of one {@link Range} before its loop; each tests only when the loop runs. */
    private static final class Guards {
        private final StructuredGraph graph;
        private final FixedNode before;
        private final LogicNode runs;
        private final ValueNode length;
        private final NodeSourcePosition position;

        Guards(StructuredGraph graph, CountedLoop counted, Range range, NodeSourcePosition position) {
            this.graph = graph;
            this.before = counted.loop().forwardEnd();
            // An empty loop checks nothing.
            this.runs = graph.addOrUniqueWithInputs(IntegerLessThanNode.create(counted.start(), counted.end(), NodeView.DEFAULT));
            this.length = widen(graph, range.length());
            this.position = position;
        }

        /** Exits when the loop runs and the {@code long} index {@code value} is negative. */
        void exitIfNegative(ValueNode value) {
            ValueNode zero = ConstantNode.forLong(0, graph);
            ValueNode ifRuns = graph.addOrUniqueWithInputs(ConditionalNode.create(runs, value, zero, NodeView.DEFAULT));
            addGuard(graph.addOrUniqueWithInputs(IntegerLessThanNode.create(ifRuns, zero, NodeView.DEFAULT)));
        }

        /** Exits when the loop runs and {@code valuePlusOne - 1} is not below the length. */
        void exitIfBeyond(ValueNode valuePlusOne) {
            ValueNode zero = ConstantNode.forLong(0, graph);
            ValueNode ifRuns = graph.addOrUniqueWithInputs(ConditionalNode.create(runs, valuePlusOne, zero, NodeView.DEFAULT));
            addGuard(graph.addOrUniqueWithInputs(IntegerLessThanNode.create(length, ifRuns, NodeView.DEFAULT)));
        }

        /** A guard that exits with {@code LoopLimitCheck} when {@code fails} holds. */
        private void addGuard(LogicNode fails) {
            if (fails instanceof LogicConstantNode constant && !constant.getValue()) {
                return;
            }
            FixedGuardNode guard = graph.add(new FixedGuardNode(fails, DeoptimizationReason.LoopLimitCheck, DeoptimizationAction.None, true));
            guard.setNodeSourcePosition(position);
            graph.addBeforeFixed(before, guard);
        }
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
        if (isWidenedInt(index) && isWidenedInt(length) && ((IntegerStamp) ((IntegerConvertNode<?>) length).getValue().stamp(NodeView.DEFAULT)).lowerBound() >= 0) {
            // An element reader's check (long) index |<| (long) length, the length's widening a
            // zero extension once its stamp is known not negative: with 0 <= length < 2^31 it holds
            // exactly when the int check index |<| length does, whichever way index was widened.
            index = ((IntegerConvertNode<?>) index).getValue();
            length = ((IntegerConvertNode<?>) length).getValue();
        }
        if (((IntegerStamp) length.stamp(NodeView.DEFAULT)).getBits() != 32 || ((IntegerStamp) length.stamp(NodeView.DEFAULT)).lowerBound() < 0
                        || !CountedLoop.isInvariant(length, counted.loop())) {
            return null;
        }
        Affine affine = affine(index, counted);
        if (affine == null) {
            return null;
        }
        return new Check(node, affine.stride() == UNIT ? null : affine.stride(), affine.offset(), length);
    }

    /** An {@code int} sign- or zero-extended to {@code long}. */
    private static boolean isWidenedInt(ValueNode value) {
        return (value instanceof SignExtendNode || value instanceof ZeroExtendNode) && ((IntegerConvertNode<?>) value).getInputBits() == 32
                        && ((IntegerConvertNode<?>) value).getResultBits() == 64;
    }

    /** {@code counter * stride + offset}. */
    private record Affine(ValueNode stride, ValueNode offset) {
    }

    /**
     * {@code index} as {@code counter * stride + offset} with a loop-invariant stride and offset
     * ({@code int} sums of loop-invariant values and one counter term, in any order), or null.
     */
    private static Affine affine(ValueNode index, CountedLoop counted) {
        StructuredGraph graph = counted.loop().graph();
        ValueNode stride = strideOf(index, counted);
        if (stride != null) {
            return new Affine(stride, ConstantNode.forInt(0, graph));
        }
        if (!(index instanceof AddNode add)) {
            return null;
        }
        for (int side = 0; side < 2; side++) {
            ValueNode term = side == 0 ? add.getX() : add.getY();
            ValueNode rest = side == 0 ? add.getY() : add.getX();
            if (CountedLoop.isInvariant(rest, counted.loop())) {
                Affine inner = affine(term, counted);
                if (inner != null) {
                    ValueNode offset = CountedLoop.isConstant(inner.offset(), 0) ? rest : graph.addOrUniqueWithInputs(AddNode.create(inner.offset(), rest, NodeView.DEFAULT));
                    return new Affine(inner.stride(), offset);
                }
            }
        }
        return null;
    }

    /** Marks the stride 1 in {@link #strideOf}. */
    private static final ValueNode UNIT = ConstantNode.forInt(1);

    /**
     * The stride {@code s} if {@code term} is the counter times a loop-invariant {@code s}
     * ({@code i}, {@code i * s}, {@code s * i}, {@code i << k}), {@link #UNIT} for the counter itself,
     * else null.
     */
    private static ValueNode strideOf(ValueNode term, CountedLoop counted) {
        if (term == counted.index()) {
            return UNIT;
        }
        if (term instanceof MulNode mul) {
            if (mul.getX() == counted.index() && CountedLoop.isInvariant(mul.getY(), counted.loop())) {
                return mul.getY();
            }
            if (mul.getY() == counted.index() && CountedLoop.isInvariant(mul.getX(), counted.loop())) {
                return mul.getX();
            }
        }
        if (term instanceof LeftShiftNode shift && shift.getX() == counted.index() && shift.getY().isJavaConstant()) {
            int bits = shift.getY().asJavaConstant().asInt();
            if (bits >= 0 && bits <= 30) {
                return ConstantNode.forInt(1 << bits, counted.loop().graph());
            }
        }
        return null;
    }

    private static boolean isBoundsExit(AbstractBeginNode successor) {
        return successor.next() instanceof DeoptimizeNode deoptimize && deoptimize.getReason() == DeoptimizationReason.BoundsCheckException;
    }
}
