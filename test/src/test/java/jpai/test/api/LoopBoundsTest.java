package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;

import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;

/**
 * Loops over captured arrays, whose bounds checks the compiler hoists out of the loop
 * (SpeculativeBoundsCheckHoistingPhase), and float math computed in float: Java's results on every
 * executor, also where the hoisted check exits although Java would not have thrown.
 */
class LoopBoundsTest {

    private static final int SIZE = 10_000;

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void loopsOverCapturedArrays(Executor executor) {
        float[] a = new float[64];
        float[] b = new float[70];
        for (int i = 0; i < b.length; i++) {
            b[i] = i * 0.25f - 3f;
            if (i < a.length) {
                a[i] = (float) Math.sqrt(i);
            }
        }
        int n = 8;
        Function<Integer, Float> f = k -> {
            int row = (k & 0x7fffffff) % n;
            float sum = 0f;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * b[j];
            }
            for (int j = 1; j < n; j++) {
                sum += a[row * n + j] - b[j - 1] + (j * k) % a.length;
            }
            return sum + (float) Math.sqrt(Math.abs(sum));
        };
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 5)); PArray<Float> output = ExecutorCase.apply(AF.map(f), executor, input)) {
            assertSameAsJava(javaLoop(f, input), output, "loops over captured arrays on " + executor);
        }
    }

    @Test
    void aLoopThatBreaksBeforeTheEndOfTheArrayGivesJavasResult() {
        float[] a = {1f, 2f, 3f, 4f};
        int n = 100; // beyond a.length: the hoisted check exits, Java then runs the operation
        Function<Integer, Float> f = k -> {
            float sum = 0f;
            for (int j = 0; j < n; j++) {
                if (j == (k & 3)) {
                    break;
                }
                sum += a[j];
            }
            return sum;
        };
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 6)); PArray<Float> output = AF.map(f).on(Executor.AUTO).apply(input)) {
            assertSameAsJava(javaLoop(f, input), output, "a loop that breaks early");
        }
    }
}
