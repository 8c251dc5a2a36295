package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * After a map kernel exits, Java runs only the elements from the lowest one that exited on; the
 * kernel's results before it are kept. The caller sees the sequential loop's results, and its
 * exception, with its message, at the sequential loop's element.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ReexecutionTest {

    private static final int MILLION = 1 << 20;

    @Test
    void anExceptionAtRandomElementsOfAMillionElementMapIsJavasAtTheFirstOfThem() {
        int[] table = new int[MILLION];
        for (int i = 0; i < MILLION; i++) {
            table[i] = i * 3 + 1;
        }
        // an exception the lambda throws itself: HotSpot drops the message of an implicit one it throws
        // often (OmitStackTraceInFastThrow), in the test's own loop as much as in JPAI's
        Function<Integer, Integer> lookUp = x -> {
            if (x < 0) {
                throw new IllegalArgumentException("index " + x + " is negative");
            }
            return table[x] - x;
        };
        ArrayFunction<Integer, Integer> map = AF.map(lookUp).on(Executor.ACCELERATOR);
        Random random = new Random(21);
        for (int round = 0; round < 4; round++) {
            int[] indices = new int[MILLION];
            Arrays.setAll(indices, i -> i);
            int first = random.nextInt(MILLION);
            // the first bad index, and a few after it: each negative index names its element in the message
            int[] bad = {first, first + random.nextInt(MILLION - first), first + random.nextInt(MILLION - first)};
            for (int element : bad) {
                indices[element] = -1 - element;
            }
            try (PArray<Integer> input = PArray.of(indices)) {
                String what = "round " + round + ", first bad element " + first;
                IllegalArgumentException java = assertThrows(IllegalArgumentException.class, () -> ExecutorCase.javaLoop(lookUp, input), what);
                assertEquals("index " + (-1 - first) + " is negative", java.getMessage(), what + ": Java's exception names the element");
                IllegalArgumentException device = assertThrows(IllegalArgumentException.class, () -> map.apply(input).close(), what);
                assertEquals(java.getMessage(), device.getMessage(), what + ": the same exception");
                ApplyProfile profile = AF.lastProfile();
                assertTrue(profile.kernelCount() == 1 && profile.kernelExits() == 1 && profile.failedSpeculations() == 0 && profile.recompiles() == 0, what + ": " + profile);
                assertEquals(MILLION - first, profile.reexecutedElements(), what + ": Java ran the elements from the first exit on only: " + profile);
            }
        }
        int[] indices = new int[MILLION];
        Arrays.setAll(indices, i -> MILLION - 1 - i);
        try (PArray<Integer> input = PArray.of(indices)) {
            DeviceRun.assertOnDeviceAsJava(lookUp, map, input, "no bad element");
        }
    }

    /** Over a 2-D index space the lowest exiting element is the row-major first: Java runs from it, and throws there. */
    @Test
    void anExceptionInA2DRangeMapIsJavasAtTheFirstIndexInRowMajorOrder() {
        int rows = 300;
        int columns = 700;
        int[] table = new int[rows * columns];
        Random random = new Random(33);
        for (int k = 0; k < table.length; k++) {
            table[k] = random.nextInt(1000);
        }
        int first = rows * columns / 3 + random.nextInt(rows * columns / 2);
        table[first] = -1;
        table[first + 1 + random.nextInt(rows * columns - first - 1)] = -2;
        Function<Tuple2<Integer, Integer>, Integer> f = ij -> {
            int value = table[ij._1() * columns + ij._2()];
            if (value < 0) {
                throw new IllegalStateException("negative at (" + ij._1() + ", " + ij._2() + ")");
            }
            return value * 2 + ij._2();
        };
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(rows, columns)) {
            IllegalStateException device = DeviceRun.assertThrowsAsJava(IllegalStateException.class, f, AF.map(f), grid, true, "2-D range");
            assertEquals("negative at (" + first / columns + ", " + first % columns + ")", device.getMessage());
            ApplyProfile profile = AF.lastProfile();
            assertTrue(profile.kernelExits() == 1, profile.toString());
            assertEquals(rows * columns - first, profile.reexecutedElements(), "Java ran from the first exiting element on: " + profile);
        }
    }

    /**
     * {@code Math.sin} is allowed any result within 1 ulp: the device gives StrictMath's, HotSpot
     * its intrinsic's, and they differ for about 3% of arguments. A huge angle, which kernels leave
     * to Java, exits at a random element: the results before it are the device's (StrictMath's
     * bits), those from it on the JVM's: Java did not run the elements before it.
     */
    @Test
    void resultsBeforeTheFirstExitAreTheKernelsAndJavasFromItOn() {
        int length = 200_000;
        Random random = new Random(7);
        double[] angles = new double[length];
        for (int i = 0; i < length; i++) {
            angles[i] = random.nextDouble() * 20 - 10;
        }
        int first = length / 4 + random.nextInt(length / 2);
        for (int element = first; element < length; element += 1 + random.nextInt(5000)) {
            angles[element] = 1e7 + element; // needs the argument reduction kernels leave to Java
        }
        Function<Double, Double> sine = Math::sin;
        try (PArray<Double> input = PArray.of(angles); PArray<Double> output = AF.map(sine).on(Executor.ACCELERATOR).apply(input)) {
            ApplyProfile profile = AF.lastProfile();
            assertTrue(profile.kernelCount() == 1 && profile.kernelExits() == 1 && profile.fellBack(), profile.toString());
            assertEquals(length - first, profile.reexecutedElements(), profile.toString());
            assertTrue(profile.fallbackReason().contains("at element " + first + ",") && profile.fallbackReason().contains("elements " + first + " to " + (length - 1) + " re-ran in Java"),
                            profile.fallbackReason());
            double[] result = output.toDoubleArray();
            int differentBefore = 0;
            int differentAfter = 0;
            for (int i = 0; i < length; i++) {
                double strict = StrictMath.sin(angles[i]);
                double jvm = sine.apply(angles[i]);
                boolean differ = Double.doubleToRawLongBits(strict) != Double.doubleToRawLongBits(jvm);
                double expected = i < first ? strict : jvm;
                if (Double.doubleToRawLongBits(expected) != Double.doubleToRawLongBits(result[i])) {
                    throw new AssertionError("element " + i + " (first exit " + first + "): " + result[i] + ", expected " + (i < first ? "the device's " : "Java's ") + expected);
                }
                if (differ && i < first) {
                    differentBefore++;
                } else if (differ) {
                    differentAfter++;
                }
            }
            // without elements where the two differ on both sides, this test could not tell who computed what
            assertTrue(differentBefore > 100 && differentAfter > 100, differentBefore + " and " + differentAfter + " elements where Math.sin and StrictMath.sin differ");
        }
    }
}
