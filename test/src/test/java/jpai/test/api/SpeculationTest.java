package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * Deoptimisation that learns: a kernel whose speculation fails (a check hoisted out of a loop that
 * Java leaves earlier) exits once, the function's kernel is recompiled without that speculation, and
 * later applies stay on the device; recompiles are bounded by {@code jpai.speculation.maxRecompiles}.
 * Every result is compared with Java's loop; the profile proves where each apply ran.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class SpeculationTest {

    private static final String MAX_RECOMPILES = "jpai.speculation.maxRecompiles";
    private static final int SIZE = 20_000;

    @AfterEach
    void restoreTheBound() {
        System.clearProperty(MAX_RECOMPILES);
    }

    /** A captured object whose array field the test changes between applies (read at each apply). */
    static final class Table {
        int[] values;

        Table(int[] values) {
            this.values = values;
        }
    }

    /**
     * Sums {@code table.values[0..n)} until {@code j == k & 3}: the compiler hoists the bounds check of
     * {@code values[j]} out of the loop (a failed speculation where {@code n > values.length}) and the
     * null check of {@code values} (a failed speculation where it is null and every element breaks at once).
     */
    private static Function<Integer, Integer> earlyBreakingSum(Table table, int n) {
        return k -> {
            int sum = 0;
            for (int j = 0; j < n; j++) {
                if (j == (k & 3)) {
                    break;
                }
                sum += table.values[j];
            }
            return sum;
        };
    }

    private static PArray<Integer> randomInts(long seed, int mask) {
        Random random = new Random(seed);
        int[] values = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            values[i] = random.nextInt() & mask;
        }
        return PArray.of(values);
    }

    /** Applies {@code map} on the accelerator, checks Java's result, and returns the apply's profile. */
    private static ApplyProfile applyAsJava(Function<Integer, Integer> lambda, ArrayFunction<Integer, Integer> map, PArray<Integer> input, String what) {
        try (PArray<Integer> output = map.on(Executor.ACCELERATOR).apply(input)) {
            ApplyProfile profile = AF.lastProfile();
            assertSameAsJava(javaLoop(lambda, input), output, what);
            return profile;
        }
    }

    private static void assertExitedOnAFailedSpeculation(ApplyProfile profile, String what) {
        assertTrue(profile.kernelCount() == 1 && profile.kernelExits() == 1 && profile.failedSpeculations() == 1 && profile.fellBack(), what + ": " + profile);
    }

    private static void assertOnTheDevice(ApplyProfile profile, int recompiles, String what) {
        assertTrue(profile.kernelCount() == 1 && profile.kernelExits() == 0 && !profile.fellBack(), what + ": ran on the device: " + profile);
        assertEquals(recompiles, profile.recompiles(), what + ": recompiles: " + profile);
    }

    @Test
    void anEarlyBreakingLoopExitsOnceRecompilesWithoutHoistingAndThenStaysOnTheDevice() {
        Function<Integer, Integer> sum = earlyBreakingSum(new Table(new int[] {5, 7, 11, 13}), 100);
        ArrayFunction<Integer, Integer> map = AF.map(sum);
        try (PArray<Integer> input = randomInts(1, -1)) {
            ApplyProfile first = applyAsJava(sum, map, input, "first apply");
            assertExitedOnAFailedSpeculation(first, "first apply: the hoisted bounds check failed");
            assertTrue(first.fallbackReason().contains("a loop's index range reaches beyond an array")
                            && first.fallbackReason().contains("it is recompiled without it (recompile 1 of at most 4"), first.fallbackReason());
            assertEquals(SIZE, first.reexecutedElements(), "the whole map re-ran in Java");
            ApplyProfile second = applyAsJava(sum, map, input, "second apply");
            assertOnTheDevice(second, 1, "second apply, recompiled without hoisting");
            assertTrue(second.graalNanos() > 0, "the second apply compiled: " + second);
        }
        for (int round = 0; round < 3; round++) {
            try (PArray<Integer> input = randomInts(10 + round, -1)) {
                ApplyProfile later = applyAsJava(sum, map, input, "later apply " + round);
                assertOnTheDevice(later, 0, "later apply " + round);
                assertEquals(0, later.graalNanos(), "no compilation in later apply " + round);
            }
        }
    }

    @Test
    void eachFailedSpeculationIsLeftOutInTurn() {
        Table table = new Table(new int[] {5, 7, 11, 13});
        Function<Integer, Integer> sum = earlyBreakingSum(table, 100);
        ArrayFunction<Integer, Integer> map = AF.map(sum);
        try (PArray<Integer> any = randomInts(2, -1); PArray<Integer> multiplesOfFour = randomInts(3, ~3)) {
            assertExitedOnAFailedSpeculation(applyAsJava(sum, map, any, "hoisted bounds check"), "hoisted bounds check");
            table.values = null; // every element of multiplesOfFour breaks before reading it: Java throws nothing
            ApplyProfile nullArray = applyAsJava(sum, map, multiplesOfFour, "null array");
            assertExitedOnAFailedSpeculation(nullArray, "the null check hoisted out of the loop's body");
            assertEquals(1, nullArray.recompiles(), "recompiled without hoisted bounds checks: " + nullArray);
            assertTrue(nullArray.fallbackReason().contains("a test moved out of a loop's body failed") && nullArray.fallbackReason().contains("recompile 2 of at most 4"),
                            nullArray.fallbackReason());
            assertOnTheDevice(applyAsJava(sum, map, multiplesOfFour, "null array again"), 1, "null array again");
            table.values = new int[] {1, 2, 3};
            assertOnTheDevice(applyAsJava(sum, map, any, "short array"), 0, "short array");
        }
    }

    @Test
    void recompilesStopAtTheBoundWithNoSpeculationLeft() {
        System.setProperty(MAX_RECOMPILES, "1");
        Table table = new Table(new int[] {5, 7, 11, 13});
        Function<Integer, Integer> sum = earlyBreakingSum(table, 100);
        ArrayFunction<Integer, Integer> map = AF.map(sum);
        try (PArray<Integer> any = randomInts(4, -1); PArray<Integer> multiplesOfFour = randomInts(5, ~3)) {
            ApplyProfile first = applyAsJava(sum, map, any, "hoisted bounds check");
            assertExitedOnAFailedSpeculation(first, "hoisted bounds check");
            assertTrue(first.fallbackReason().contains("recompile 1 reaches the bound (-Djpai.speculation.maxRecompiles=1), so its kernels are compiled with no speculation"),
                            first.fallbackReason());
            table.values = null;
            // the null check would have been hoisted too; the kernel compiled at the bound hoists nothing
            assertOnTheDevice(applyAsJava(sum, map, multiplesOfFour, "null array"), 1, "null array, no speculation");
            table.values = new int[] {1, 2, 3};
            assertOnTheDevice(applyAsJava(sum, map, any, "short array"), 0, "short array");
        }
    }

    @Test
    void withNoRecompileAllowedASpeculationKeepsFailingAndJavaKeepsItsResults() {
        System.setProperty(MAX_RECOMPILES, "0");
        Function<Integer, Integer> sum = earlyBreakingSum(new Table(new int[] {5, 7, 11, 13}), 100);
        ArrayFunction<Integer, Integer> map = AF.map(sum);
        for (int round = 0; round < 3; round++) {
            try (PArray<Integer> input = randomInts(20 + round, -1)) {
                ApplyProfile profile = applyAsJava(sum, map, input, "round " + round);
                assertExitedOnAFailedSpeculation(profile, "round " + round);
                assertEquals(0, profile.recompiles(), "never recompiled: " + profile);
                assertTrue(profile.fallbackReason().contains("it is not recompiled (-Djpai.speculation.maxRecompiles=0"), profile.fallbackReason());
            }
        }
    }

    @Test
    void aJavaExceptionPathTeachesNothing() {
        Function<Integer, Integer> divide = x -> 1_000 / x;
        ArrayFunction<Integer, Integer> map = AF.map(divide);
        int[] values = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            values[i] = i == SIZE / 2 ? 0 : i + 1;
        }
        try (PArray<Integer> withZero = PArray.of(values)) {
            org.junit.jupiter.api.Assertions.assertThrows(ArithmeticException.class, () -> map.on(Executor.ACCELERATOR).apply(withZero));
            ApplyProfile profile = AF.lastProfile();
            assertTrue(profile.kernelExits() == 1 && profile.failedSpeculations() == 0 && profile.recompiles() == 0, profile.toString());
            assertFalse(profile.fallbackReason().contains("recompile"), profile.fallbackReason());
        }
    }
}
