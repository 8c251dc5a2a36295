package jpai.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;

import org.junit.jupiter.api.Test;

import jpai.compiler.loops.ReductionOperator;

/**
 * Which combiners a keyed reduction may apply with atomics: exactly the recognised operators of
 * the two arguments, in either order, and nothing that merely looks like one.
 */
class CombinerRecognitionTest {

    private static final Method APPLY = apply();

    private static Method apply() {
        try {
            return BiFunction.class.getMethod("apply", Object.class, Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static ReductionOperator of(BinaryOperator<?> combiner, Class<?> type) {
        ValueShape shape = ValueShape.ofBoxed(type);
        return CombinerRecognition.of(new KernelGraphCompiler().compile(combiner, APPLY, new KernelSignature(List.of(shape, shape), shape)));
    }

    @Test
    void intAndLongOperatorsAreRecognised() {
        assertEquals(ReductionOperator.SUM, of((BinaryOperator<Integer>) Integer::sum, Integer.class));
        assertEquals(ReductionOperator.SUM, of((BinaryOperator<Integer>) (a, b) -> b + a, Integer.class));
        assertEquals(ReductionOperator.MIN, of((BinaryOperator<Integer>) Math::min, Integer.class));
        assertEquals(ReductionOperator.MAX, of((BinaryOperator<Integer>) Math::max, Integer.class));
        assertEquals(ReductionOperator.MIN, of((BinaryOperator<Integer>) (a, b) -> a < b ? a : b, Integer.class));
        assertEquals(ReductionOperator.AND, of((BinaryOperator<Integer>) (a, b) -> a & b, Integer.class));
        assertEquals(ReductionOperator.OR, of((BinaryOperator<Integer>) (a, b) -> b | a, Integer.class));
        assertEquals(ReductionOperator.XOR, of((BinaryOperator<Integer>) (a, b) -> a ^ b, Integer.class));
        assertEquals(ReductionOperator.SUM, of((BinaryOperator<Long>) Long::sum, Long.class));
    }

    @Test
    void anythingElseIsNot() {
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a - b, Integer.class), "not associative");
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a + b + 1, Integer.class), "more than the operator");
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a + a, Integer.class), "not both arguments");
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a != 0 ? a : b, Integer.class), "a choice, not min or max");
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a / b, Integer.class), "an exit");
        assertNull(of((BinaryOperator<Integer>) (a, b) -> a * b, Integer.class), "no atomic multiply");
    }
}
