package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * A kernel that meets a Java exception path at some element makes the operation re-run in Java,
 * which throws Java's exception; the next apply of the same function, on data with no such element,
 * runs on the device again (its status words were zeroed after the failure).
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class DeoptimizationTest {

    @Test
    void anExceptionInTheLambdaIsJavasAndTheNextApplyRunsOnTheDevice() {
        Function<Integer, Integer> divide = x -> 1_000_000 / x;
        ArrayFunction<Integer, Integer> map = AF.map(divide).on(Executor.ACCELERATOR);
        int[] values = new int[10_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i - 5000; // holds a zero
        }
        try (PArray<Integer> withZero = PArray.of(values)) {
            assertThrows(ArithmeticException.class, () -> map.apply(withZero));
            // The kernel ran, met the division by zero, and the map re-ran in Java, which threw.
            assertTrue(AF.lastProfile().kernelCount() == 1 && AF.lastProfile().fellBack(), AF.lastProfile().toString());
        }
        for (int round = 0; round < 3; round++) {
            int[] positive = new int[10_000];
            for (int i = 0; i < positive.length; i++) {
                positive[i] = i + 1 + round;
            }
            try (PArray<Integer> input = PArray.of(positive); PArray<Integer> result = map.apply(input)) {
                assertFalse(AF.lastProfile().fellBack(), "round " + round + ": " + AF.lastProfile());
                int[] expected = new int[positive.length];
                for (int i = 0; i < positive.length; i++) {
                    expected[i] = 1_000_000 / positive[i];
                }
                assertArrayEquals(expected, result.toIntArray());
            }
        }
    }
}
