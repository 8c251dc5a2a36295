package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import jpai.compiler.KernelGraphCompiler;

/**
 * Speculation from HotSpot's profile: once a lambda has run in Java, the branches its body never
 * took there are compiled as exits, so a lambda whose cold path holds what kernels cannot do runs on
 * the device until that path is taken, and a branch that flips after warm-up costs one exit and one
 * recompile. Every result is compared with Java's loop; the profile proves where each apply ran.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ProfileSpeculationTest {

    private static final String PROFILE = "jpai.speculation.profile";
    private static final int SIZE = 100_000;
    /** At most this long in Java for HotSpot to call the lambda's profile mature (it takes one or two applies). */
    private static final long WARM_UP_NANOS = 20_000_000_000L;

    @AfterEach
    void restore() {
        System.clearProperty(PROFILE);
    }

    private static PArray<Integer> ints(long seed, int mask, int special, int at) {
        Random random = new Random(seed);
        int[] values = new int[SIZE];
        for (int i = 0; i < SIZE; i++) {
            values[i] = (random.nextInt() & mask) | 1; // never 0, never Integer.MIN_VALUE
        }
        if (at >= 0) {
            values[at] = special;
        }
        return PArray.of(values);
    }

    private static ApplyProfile applyAsJava(Function<Integer, Integer> lambda, ArrayFunction<Integer, Integer> map, PArray<Integer> input, String what) {
        try (PArray<Integer> output = map.apply(input)) {
            ApplyProfile profile = AF.lastProfile();
            assertSameAsJava(javaLoop(lambda, input), output, what);
            return profile;
        }
    }

    /** Whether HotSpot calls {@code lambda}'s profile mature, as the runtime asks before compiling from it. */
    private static boolean matureProfile(Function<Integer, Integer> lambda) {
        try {
            return new KernelGraphCompiler().hasMatureProfile(lambda, Function.class.getMethod("apply", Object.class));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean onTheDevice(ApplyProfile profile) {
        return profile.kernelCount() == 1 && profile.kernelExits() == 0 && !profile.fellBack();
    }

    @Test
    void aLambdaWithAnAllocationOnANeverTakenPathRunsOnTheDeviceUntilThePathIsTaken() {
        Function<Integer, Integer> cold = x -> {
            if (x == Integer.MIN_VALUE) {
                return new StringBuilder("never taken: ").append(x).toString().length();
            }
            return x * 3 + 1;
        };
        ArrayFunction<Integer, Integer> map = AF.map(cold);
        try (PArray<Integer> plain = ints(1, -1, 0, -1)) {
            ApplyProfile first = applyAsJava(cold, map, plain, "first apply");
            assertTrue(first.fellBack() && first.kernelCount() == 0, "the kernel does not compile with the cold path in it: " + first);
            ApplyProfile later = first;
            long start = System.nanoTime();
            for (int apply = 1; !onTheDevice(later) && System.nanoTime() - start < WARM_UP_NANOS; apply++) {
                later = applyAsJava(cold, map, plain, "apply " + apply);
            }
            assertTrue(onTheDevice(later), "compiled from the profile of its Java runs, on the device: " + later);
            assertTrue(onTheDevice(applyAsJava(cold, map, plain, "again")), "stays on the device");
        }
        int at = new Random(2).nextInt(SIZE);
        try (PArray<Integer> taken = ints(3, -1, Integer.MIN_VALUE, at)) {
            ApplyProfile exit = applyAsJava(cold, map, taken, "the cold path taken at " + at);
            assertTrue(exit.kernelExits() == 1 && exit.failedSpeculations() == 1, exit.toString());
            assertEquals(SIZE - at, exit.reexecutedElements(), "Java ran from the element that took the path: " + exit);
            assertTrue(exit.fallbackReason().contains("never took while it ran in Java"), exit.fallbackReason());
            ApplyProfile after = applyAsJava(cold, map, taken, "after the cold path was taken");
            assertTrue(after.fellBack() && after.kernelCount() == 0, "compiled without the profile, the kernel does not compile again: " + after);
        }
    }

    @Test
    void aBranchThatFlipsAfterWarmUpCostsOneExitAndOneRecompile() {
        System.setProperty(PROFILE, "always");
        Function<Integer, Integer> flips = x -> x >= 0 ? x / 3 : x * 7 - 1;
        ArrayFunction<Integer, Integer> map = AF.map(flips);
        try (PArray<Integer> nonNegative = ints(4, Integer.MAX_VALUE, 0, -1)) {
            long start = System.nanoTime();
            do {
                applyAsJava(flips, map.on(Executor.THREADS), nonNegative, "warm-up");
            } while (!matureProfile(flips) && System.nanoTime() - start < WARM_UP_NANOS);
            assertTrue(onTheDevice(applyAsJava(flips, map, nonNegative, "first device apply")), AF.lastProfile().toString());
        }
        int at = new Random(5).nextInt(SIZE);
        try (PArray<Integer> negativeAt = ints(6, Integer.MAX_VALUE, -12345, at); PArray<Integer> mixed = ints(7, -1, 0, -1)) {
            ApplyProfile flip = applyAsJava(flips, map, negativeAt, "the branch flips at " + at);
            assertTrue(flip.kernelExits() == 1 && flip.failedSpeculations() == 1 && flip.recompiles() == 0, "one exit: " + flip);
            assertEquals(SIZE - at, flip.reexecutedElements(), flip.toString());
            ApplyProfile recompiled = applyAsJava(flips, map, mixed, "after the flip");
            assertTrue(onTheDevice(recompiled) && recompiled.recompiles() == 1, "one recompile, then on the device: " + recompiled);
            for (int round = 0; round < 2; round++) {
                ApplyProfile later = applyAsJava(flips, map, round == 0 ? negativeAt : mixed, "later " + round);
                assertTrue(onTheDevice(later) && later.recompiles() == 0 && later.graalNanos() == 0, "later applies on the device: " + later);
            }
        }
    }
}
