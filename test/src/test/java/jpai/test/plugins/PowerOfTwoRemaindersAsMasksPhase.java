package jpai.test.plugins;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.nodeinfo.InputType;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.AndNode;
import jdk.graal.compiler.nodes.calc.RightShiftNode;
import jdk.graal.compiler.nodes.calc.SignedFloatingIntegerRemNode;
import jdk.graal.compiler.nodes.calc.SignedRemNode;
import jdk.graal.compiler.nodes.calc.SubNode;
import jdk.graal.compiler.nodes.calc.UnsignedRightShiftNode;
import jdk.graal.compiler.phases.Phase;
import jdk.vm.ci.meta.JavaConstant;

/**
 * The worked example of docs/phase-plugins.md: a strength reduction Graal's high tier does not do.
 * Computes Java's {@code x % c} of an {@code int} or {@code long} {@code x} and a constant
 * {@code c = ±2^k} ({@code k >= 1}) with a mask instead of a division:
 *
 * <pre>
 * x % c == x - ((x + bias) &amp; -2^k),   bias = (x &gt;&gt; (n - 1)) &gt;&gt;&gt; (n - k),   n = 32 or 64
 * </pre>
 *
 * Why it is exact: Java's {@code %} leaves the sign of {@code x}, and {@code x % c == x % -c}, so
 * only {@code 2^k} matters. {@code x - (x % 2^k)} is {@code x} rounded toward zero to a multiple of
 * {@code 2^k}. For {@code x >= 0}, {@code bias} is 0 and the mask rounds down, which is toward zero.
 * For {@code x < 0}, {@code bias} is {@code 2^k - 1}, and rounding {@code x + 2^k - 1} down is
 * rounding {@code x} up, toward zero. The addition cannot overflow ({@code x} is negative when
 * {@code bias} is not 0), so every step is exact also at {@code MIN_VALUE}, and also for
 * {@code c = MIN_VALUE} ({@code k = n - 1}: {@code x % MIN_VALUE} is 0 for {@code MIN_VALUE} and
 * {@code x} otherwise).
 *
 * <p>Graal already turns multiplications and divisions by powers of two into shifts when it
 * creates them (MulNode and SignedDivNode canonicalise so), so a phase for those would change no
 * kernel; remainders of a value that may be negative it leaves as they are.
 *
 * <p>Expects: Graal's remainder nodes of the bytecodes {@code irem} and {@code lrem}
 * ({@link SignedFloatingIntegerRemNode}, or {@link SignedRemNode} where the divisor became constant
 * after parsing); any point of JPAI's pipeline. Does: replaces each whose divisor is a constant
 * {@code ±2^k} with {@code k >= 1} by the floating nodes above; remainders by other values, and
 * fixed ones that other nodes use as a guard, are left alone.
 */
public final class PowerOfTwoRemaindersAsMasksPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        // The parser makes a remainder by a constant other than 0 a floating node; one whose divisor
        // became constant later (after inlining) is still the fixed node, with its zero check.
        for (SignedFloatingIntegerRemNode remainder : graph.getNodes().filter(SignedFloatingIntegerRemNode.class).snapshot()) {
            int k = powerOfTwoExponent(remainder.getY());
            if (k >= 1) {
                remainder.replaceAtUsagesAndDelete(masked(graph, remainder.getX(), k, remainder));
            }
        }
        for (SignedRemNode remainder : graph.getNodes().filter(SignedRemNode.class).snapshot()) {
            int k = powerOfTwoExponent(remainder.getY());
            if (k >= 1 && !remainder.hasUsagesOfType(InputType.Guard)) {
                graph.replaceFixedWithFloating(remainder, masked(graph, remainder.getX(), k, remainder));
            }
        }
    }

    /** {@code x - ((x + bias) & -2^k)} in {@code remainder}'s width, added to {@code graph}. */
    private static ValueNode masked(StructuredGraph graph, ValueNode x, int k, ValueNode remainder) {
        int bits = ((IntegerStamp) remainder.stamp(NodeView.DEFAULT)).getBits();
        ValueNode sign = new RightShiftNode(x, ConstantNode.forInt(bits - 1));
        ValueNode bias = new UnsignedRightShiftNode(sign, ConstantNode.forInt(bits - k));
        ValueNode roundedTowardZero = new AndNode(new AddNode(x, bias), ConstantNode.forIntegerBits(bits, -1L << k));
        return graph.addOrUniqueWithInputs(new SubNode(x, roundedTowardZero));
    }

    /** {@code k} when {@code divisor} is the constant {@code 2^k} or {@code -2^k}, else -1. */
    private static int powerOfTwoExponent(ValueNode divisor) {
        if (!divisor.isJavaConstant()) {
            return -1;
        }
        JavaConstant constant = divisor.asJavaConstant();
        if (!constant.getJavaKind().isNumericInteger()) {
            return -1;
        }
        long value = constant.asLong(); // sign-extended from an int
        long magnitude = value < 0 ? -value : value; // Long.MIN_VALUE stays itself: one bit, 2^63
        return Long.bitCount(magnitude) == 1 ? Long.numberOfTrailingZeros(magnitude) : -1;
    }
}
