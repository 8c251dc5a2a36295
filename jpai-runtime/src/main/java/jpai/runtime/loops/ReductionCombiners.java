package jpai.runtime.loops;

import java.util.function.BinaryOperator;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.loops.ReductionOperator;

/**
 * The combining functions of {@code @Reduce} variables, as {@code AF.reduce} takes them, and the
 * same operation on the host for the variable's initial value. {@code int} and {@code long}: their
 * operators are associative and commutative, so every combining order gives the loop's bits; and
 * {@code float} and {@code double} sums and products, which the compiler only lets through for a
 * variable marked {@code @Reduce(reassociate = true)}: {@code AF.reduce} combines them by JPAI's one
 * combining tree, whose bits do not depend on the device.
 */
final class ReductionCombiners {

    private ReductionCombiners() {
    }

    /** Whether a {@code @Reduce} variable of {@code kind} runs on the device. */
    static boolean supports(JavaKind kind) {
        return kind == JavaKind.Int || kind == JavaKind.Long || kind == JavaKind.Float || kind == JavaKind.Double;
    }

    static BinaryOperator<Float> ofFloat(ReductionOperator operator) {
        return switch (operator) {
            case SUM -> (a, b) -> a + b;
            case PRODUCT -> (a, b) -> a * b;
            default -> throw new IllegalArgumentException("a float @Reduce variable is a sum or a product, not a " + operator.description());
        };
    }

    static BinaryOperator<Double> ofDouble(ReductionOperator operator) {
        return switch (operator) {
            case SUM -> (a, b) -> a + b;
            case PRODUCT -> (a, b) -> a * b;
            default -> throw new IllegalArgumentException("a double @Reduce variable is a sum or a product, not a " + operator.description());
        };
    }

    static BinaryOperator<Integer> ofInt(ReductionOperator operator) {
        return switch (operator) {
            case SUM -> (a, b) -> a + b;
            case PRODUCT -> (a, b) -> a * b;
            case AND -> (a, b) -> a & b;
            case OR -> (a, b) -> a | b;
            case XOR -> (a, b) -> a ^ b;
            case MIN -> (a, b) -> Math.min(a, b);
            case MAX -> (a, b) -> Math.max(a, b);
        };
    }

    static BinaryOperator<Long> ofLong(ReductionOperator operator) {
        return switch (operator) {
            case SUM -> (a, b) -> a + b;
            case PRODUCT -> (a, b) -> a * b;
            case AND -> (a, b) -> a & b;
            case OR -> (a, b) -> a | b;
            case XOR -> (a, b) -> a ^ b;
            case MIN -> (a, b) -> Math.min(a, b);
            case MAX -> (a, b) -> Math.max(a, b);
        };
    }

    /** The operator's neutral element for {@code kind}. */
    static Object identity(ReductionOperator operator, JavaKind kind) {
        if (kind == JavaKind.Float) {
            return operator == ReductionOperator.PRODUCT ? 1f : -0f; // -0 is the sum's neutral element: -0 + -0 is -0
        }
        if (kind == JavaKind.Double) {
            return operator == ReductionOperator.PRODUCT ? 1d : -0d;
        }
        long value = switch (operator) {
            case SUM, OR, XOR -> 0L;
            case PRODUCT -> 1L;
            case AND -> -1L;
            case MIN -> kind == JavaKind.Int ? Integer.MAX_VALUE : Long.MAX_VALUE;
            case MAX -> kind == JavaKind.Int ? Integer.MIN_VALUE : Long.MIN_VALUE;
        };
        return kind == JavaKind.Int ? (Object) (int) value : (Object) value;
    }
}
