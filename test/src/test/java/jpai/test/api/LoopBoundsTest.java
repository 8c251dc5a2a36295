package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;

/**
 * Loops over captured arrays, whose bounds checks the compiler hoists out of the loop
 * (SpeculativeBoundsCheckHoistingPhase), and float math computed in float: Java's results on every
 * executor, also where the hoisted check exits although Java would not have thrown, and Java's
 * exception where Java throws one.
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

    private static float[] randomFloats(int length, long seed) {
        Random random = new Random(seed);
        float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextFloat() * 2f - 1f;
        }
        return values;
    }

    /** Inputs 0 .. size - 1, as a map over element indices uses. */
    private static PArray<Integer> indices(int size) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) {
            values[i] = i;
        }
        return PArray.of(values);
    }

    /** On a device, the last apply ran a kernel whose hoisted bounds check failed, then re-ran in Java. */
    private static void assertHoistedCheckFellBack(String what) {
        if (ExecutorCase.openCLExpected()) {
            var profile = AF.lastProfile();
            assertTrue(profile.kernelCount() == 1 && profile.fellBack() && profile.fallbackReason() != null
                            && profile.fallbackReason().contains("the bounds check hoisted out of the loop failed"), what + ": " + profile);
        }
    }

    /** On a device, the last apply's kernel computed every element: no hoisted check failed. */
    private static void assertRanOnTheDevice(Executor executor, String what) {
        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
            var profile = AF.lastProfile();
            assertTrue(profile.kernelCount() == 1 && !profile.fellBack(), what + ": " + profile);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void stridedLoopsOverCapturedArraysGiveJavasResults(Executor executor) {
        int n = 48;
        float[] a = randomFloats(n * n, 11);
        float[] b = randomFloats(n * n + 3, 12);
        // Matrix multiply (a row of a times a column of b) plus a constant stride and an offset.
        Function<Integer, Float> f = index -> {
            int row = index / n;
            int col = index % n;
            float sum = 0f;
            for (int k = 0; k < n; k++) {
                sum += a[row * n + k] * b[k * n + col];
            }
            for (int k = 1; k < n / 4; k++) {
                sum += b[4 * k + 3 + col] - a[k * 8];
            }
            return sum;
        };
        try (PArray<Integer> input = indices(n * n); PArray<Float> output = ExecutorCase.apply(AF.map(f), executor, input)) {
            assertSameAsJava(javaLoop(f, input), output, "strided loops on " + executor);
            assertRanOnTheDevice(executor, "strided loops");
        }
    }

    @Test
    void aCapturedArrayShorterThanTheLoopThrowsJavasException() {
        float[] x = randomFloats(1000, 13);
        float[] m = randomFloats(999, 14); // one element short: m[999] throws in Java
        Function<Integer, Float> f = i -> {
            float sum = 0f;
            for (int j = 0; j < x.length; j++) {
                sum += (x[j] - x[i]) * m[j];
            }
            return sum;
        };
        // The output type given: else finding it runs f on element 0 in Java, which throws first.
        ArrayFunction<Integer, Float> map = AF.map(f, Float.class).on(Executor.ACCELERATOR);
        try (PArray<Integer> input = indices(x.length)) {
            ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, () -> map.apply(input).close());
            assertTrue(thrown.getMessage().contains("999"), thrown.getMessage());
            assertHoistedCheckFellBack("an array shorter than the loop");
        }
    }

    @Test
    void aStridedLoopThatLeavesBeforeTheEndOfTheArrayGivesJavasResult() {
        int n = 32;
        float[] a = randomFloats(n * n - 1, 15); // the last column is one element short
        Function<Integer, Float> f = col -> {
            float sum = 0f;
            for (int k = 0; k < n; k++) {
                if (k * n + col >= a.length) {
                    break; // Java never goes out of bounds; the hoisted check still fails for col = n - 1
                }
                sum += a[k * n + col];
            }
            return sum;
        };
        ArrayFunction<Integer, Float> map = AF.map(f).on(Executor.ACCELERATOR);
        try (PArray<Integer> input = indices(n); PArray<Float> output = map.apply(input)) {
            assertHoistedCheckFellBack("a strided loop that breaks early");
            assertSameAsJava(javaLoop(f, input), output, "a strided loop that breaks early");
        }
        // Without the short column the kernel computes every element itself.
        try (PArray<Integer> input = indices(n - 1); PArray<Float> output = ExecutorCase.apply(map, Executor.ACCELERATOR, input)) {
            assertSameAsJava(javaLoop(f, input), output, "the same loop, in bounds");
            assertRanOnTheDevice(Executor.ACCELERATOR, "the same loop, in bounds");
        }
    }
}
