package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.FallbackException;
import jpai.PArray;

/**
 * Issue 19 item 6: {@code ==} between boxes gives the JVM's answer on the device: two
 * {@code valueOf} boxes of one value are the same object only inside the box cache
 * ({@code -128..127}; {@code Character} {@code 0..127}; every {@code Byte} and {@code Boolean}; no
 * {@code Float} or {@code Double}). The device used to answer {@code true} for every equal value.
 */
class BoxIdentityTest {

    private static int[] ints() {
        int[] values = new int[700];
        for (int i = 0; i < values.length; i++) {
            values[i] = i - 350;
        }
        values[0] = Integer.MIN_VALUE;
        values[1] = Integer.MAX_VALUE;
        values[2] = 1 << 20;
        return values;
    }

    private static void assertJavas(Function<Integer, Boolean> f) {
        try (PArray<Integer> in = PArray.of(ints()); PArray<Boolean> out = ExecutorCase.apply(AF.map(f, Boolean.class), Executor.ACCELERATOR, in)) {
            Object[] expected = ExecutorCase.javaLoop(f, in);
            ExecutorCase.assertSameAsJava(expected, out, "box identity");
            boolean sawTrue = false;
            boolean sawFalse = false;
            for (Object e : expected) {
                sawTrue |= (Boolean) e;
                sawFalse |= !(Boolean) e;
            }
            assertTrue(sawTrue && sawFalse || f.apply(1000) == f.apply(5), "the inputs show both answers where the JVM gives both");
        }
    }

    @Test
    void twoBoxesOfOneValueAreOneObjectOnlyInTheCache() {
        assertJavas(x -> Integer.valueOf(x) == Integer.valueOf(x));
        assertJavas(x -> Long.valueOf(x) == Long.valueOf(x));
        assertJavas(x -> Short.valueOf((short) x.intValue()) == Short.valueOf((short) x.intValue()));
        assertJavas(x -> Character.valueOf((char) x.intValue()) == Character.valueOf((char) x.intValue()));
        assertJavas(x -> Byte.valueOf((byte) x.intValue()) == Byte.valueOf((byte) x.intValue()));
        assertJavas(x -> Boolean.valueOf(x > 0) == Boolean.valueOf(x > 3));
        assertJavas(x -> Float.valueOf(x) == Float.valueOf(x));
        assertJavas(x -> Double.valueOf(x) == Double.valueOf(x));
        assertJavas(x -> Integer.valueOf(x) != Integer.valueOf(x + 1 - 1));
        assertJavas(x -> Integer.valueOf(x) == Integer.valueOf(x & 127));
    }

    /** A box the lambda did not make (its argument): the JVM's answer depends on that object, so the operation runs in Java. */
    @Test
    void comparingAnArgumentBoxFallsBackToJava() {
        Function<Integer, Boolean> f = x -> x == Integer.valueOf(100);
        try (PArray<Integer> in = PArray.of(ints())) {
            if (ExecutorCase.openCLExpected()) {
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(f, Boolean.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("compared with =="), e.getMessage());
            }
            try (PArray<Boolean> out = AF.map(f, Boolean.class).on(Executor.ACCELERATOR).apply(in)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "an argument compared with a new box");
                assertEquals(f.apply(100), out.get(450));
            }
        }
    }
}
