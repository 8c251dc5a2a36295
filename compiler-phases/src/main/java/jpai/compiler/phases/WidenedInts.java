package jpai.compiler.phases;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.CompareNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.calc.ZeroExtendNode;
import jdk.vm.ci.meta.JavaKind;

/**
 * {@code long}s made from {@code int}s, and comparisons of them made comparisons of the ints. A
 * captured array's {@code length()} is a {@code long}: a loop over it tests {@code (long) i < length},
 * where the canonicaliser writes the widening of a length it knows is not negative as a zero
 * extension. A zero extension of an int never negative is its sign extension, and the other way
 * round.
 */
final class WidenedInts {

    private WidenedInts() {
    }

    /** The {@code int} that {@code value} sign-extends to {@code long} (a zero extension of an int never negative is one), or null. */
    static ValueNode signExtendedInt(ValueNode value) {
        if (value instanceof SignExtendNode sign && sign.getInputBits() == 32 && sign.getResultBits() == 64) {
            return sign.getValue();
        }
        if (value instanceof ZeroExtendNode zero && zero.getInputBits() == 32 && zero.getResultBits() == 64 && neverNegative(zero.getValue())) {
            return zero.getValue();
        }
        return null;
    }

    /** The {@code int} that {@code value} zero-extends to {@code long} (a sign extension of an int never negative is one), or null. */
    static ValueNode zeroExtendedInt(ValueNode value) {
        if (value instanceof ZeroExtendNode zero && zero.getInputBits() == 32 && zero.getResultBits() == 64) {
            return zero.getValue();
        }
        if (value instanceof SignExtendNode sign && sign.getInputBits() == 32 && sign.getResultBits() == 64 && neverNegative(sign.getValue())) {
            return sign.getValue();
        }
        return null;
    }

    private static boolean neverNegative(ValueNode value) {
        return value.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && stamp.getBits() == 32 && stamp.lowerBound() >= 0;
    }

    /**
     * Replaces each comparison of two {@code long}s widened alike from {@code int}s by the same
     * comparison of the ints: signed {@code <}, unsigned {@code <} and {@code ==} of two sign
     * extensions (a constant in the {@code int} range is one), unsigned {@code <} and {@code ==} of
     * two zero extensions (a constant in {@code [0, 2^32)} is one). Each widening keeps both orders
     * it is used with and is one to one, so each test has the same answer on every input.
     */
    static void narrowComparisons(StructuredGraph graph) {
        for (CompareNode compare : graph.getNodes().filter(CompareNode.class).snapshot()) {
            if (!compare.isAlive() || !(compare instanceof IntegerLessThanNode || compare instanceof IntegerBelowNode || compare instanceof IntegerEqualsNode)) {
                continue;
            }
            ValueNode x = signExtended(compare.getX());
            ValueNode y = x == null ? null : signExtended(compare.getY());
            if (y == null && !(compare instanceof IntegerLessThanNode)) {
                x = zeroExtended(compare.getX());
                y = x == null ? null : zeroExtended(compare.getY());
            }
            if (y == null) {
                continue;
            }
            LogicNode narrowed = switch (compare) {
                case IntegerLessThanNode less -> IntegerLessThanNode.create(x, y, NodeView.DEFAULT);
                case IntegerBelowNode below -> IntegerBelowNode.create(x, y, NodeView.DEFAULT);
                default -> IntegerEqualsNode.create(x, y, NodeView.DEFAULT);
            };
            compare.replaceAtUsagesAndDelete(graph.addOrUniqueWithInputs(narrowed));
        }
    }

    /** {@link #signExtendedInt}, or the {@code int} of a {@code long} constant in its range (not yet in the graph). */
    private static ValueNode signExtended(ValueNode value) {
        ValueNode narrow = signExtendedInt(value);
        if (narrow == null && value.isJavaConstant() && value.asJavaConstant().getJavaKind() == JavaKind.Long) {
            long constant = value.asJavaConstant().asLong();
            narrow = constant == (int) constant ? ConstantNode.forInt((int) constant) : null;
        }
        return narrow;
    }

    /** {@link #zeroExtendedInt}, or the {@code int} bits of a {@code long} constant in {@code [0, 2^32)} (not yet in the graph). */
    private static ValueNode zeroExtended(ValueNode value) {
        ValueNode narrow = zeroExtendedInt(value);
        if (narrow == null && value.isJavaConstant() && value.asJavaConstant().getJavaKind() == JavaKind.Long) {
            long constant = value.asJavaConstant().asLong();
            narrow = constant >= 0 && constant <= 0xFFFF_FFFFL ? ConstantNode.forInt((int) constant) : null;
        }
        return narrow;
    }
}
