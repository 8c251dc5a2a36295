package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.JpaiOptions;
import jpai.runtime.opencl.KernelLaunches;

/**
 * Tiering (issue 21, {@code -Djpai.tiering=true}): under {@code AUTO}, a map (or a reduction) whose kernel is not
 * compiled yet runs on Java threads, with Java's results, while the kernel compiles in the
 * background, and a later apply runs on the device; the profile says so apart from fallbacks.
 * {@code ACCELERATOR} never tiers, and without the property nothing tiers.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class TieringTest {

    private static final int N = 50_000;
    private final float[] values = new float[N];
    private final float[] expected = new float[N];

    @BeforeEach
    void tiering() {
        for (int i = 0; i < N; i++) {
            values[i] = i * 0.125f - 1000f;
            expected[i] = values[i] * 3f - 7f;
        }
        System.setProperty(JpaiOptions.TIERING, "true");
    }

    @AfterEach
    void noTiering() {
        System.clearProperty(JpaiOptions.TIERING);
    }

    @Test
    void aFirstApplyRunsInJavaWhileTheKernelCompilesThenTheDeviceTakesOver() throws InterruptedException {
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                ApplyProfile first = AF.lastProfile();
                assertArrayEquals(expected, out.toFloatArray(), "the tiered apply's results");
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + first);
                assertTrue(first.tiered() && !first.fellBack(), "tiered, not a fallback: " + first);
            }
            long launched = untilTheDeviceRuns("the map", () -> {
                try (PArray<Float> out = f.apply(input)) {
                    assertArrayEquals(expected, out.toFloatArray(), "each apply's results");
                }
            });
            assertFalse(AF.lastProfile().tiered(), "the apply that launched is not tiered: " + AF.lastProfile());
            assertEquals(1, launched, "one kernel");
        }
    }

    /** Composed maps (one fused kernel on the device) tier as one: the first apply runs each map on Java threads in turn. */
    @Test
    void composedMapsTierAsOne() throws InterruptedException {
        ArrayFunction<Float, Float> composed = AF.<Float, Float> map(x -> x * 3f).andThen(AF.map(x -> x - 7f));
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = composed.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray(), "the tiered apply's results");
                assertEquals(launches, KernelLaunches.count(), "no kernel ran for the first apply: " + AF.lastProfile());
                assertTrue(AF.lastProfile().tiered(), "tiered: " + AF.lastProfile());
            }
            long launched = untilTheDeviceRuns("the composed maps", () -> {
                try (PArray<Float> out = composed.apply(input)) {
                    assertArrayEquals(expected, out.toFloatArray(), "each apply's results");
                }
            });
            assertEquals(1, launched, "the maps ran as one fused kernel");
        }
    }

    /**
     * A float sum and a map fused with one tier alike: the first apply on Java threads, later ones on
     * the device, every one with the bits of the one combining tree (docs/java-semantics.md, "Reductions").
     */
    @Test
    void reductionsTierWithTheSameBitsOnEitherSide() throws InterruptedException {
        java.util.function.BinaryOperator<Float> plus = (a, b) -> a + b;
        try (PArray<Float> input = PArray.of(values); PArray<Float> tripled = AF.map((Float x) -> x * 3f - 7f).on(Executor.SEQUENTIAL).apply(input)) {
            int sumBits = Float.floatToRawIntBits(CombiningOrder.fold(plus, 0f, input));
            int mappedSumBits = Float.floatToRawIntBits(CombiningOrder.fold(plus, 0f, tripled));
            ArrayFunction<Float, Float> sum = AF.reduce((Float a, Float b) -> a + b, 0f);
            ArrayFunction<Float, Float> mapThenSum = AF.map((Float x) -> x * 3f - 7f).reduce((Float a, Float b) -> a + b, 0f);
            assertTiersThenRunsOnDevice(sum, input, sumBits, "a sum");
            assertTiersThenRunsOnDevice(mapThenSum, input, mappedSumBits, "a map then a sum");
        }
    }

    private static void assertTiersThenRunsOnDevice(ArrayFunction<Float, Float> f, PArray<Float> input, int bits, String what) throws InterruptedException {
        long launches = KernelLaunches.count();
        try (PArray<Float> out = f.apply(input)) {
            assertEquals(bits, Float.floatToRawIntBits(out.get(0)), what + ": the tiered apply's bits");
            assertEquals(launches, KernelLaunches.count(), what + ": no kernel ran for the first apply: " + AF.lastProfile());
            assertTrue(AF.lastProfile().tiered() && !AF.lastProfile().fellBack(), what + ": tiered, not a fallback: " + AF.lastProfile());
        }
        untilTheDeviceRuns(what, () -> {
            try (PArray<Float> out = f.apply(input)) {
                assertEquals(bits, Float.floatToRawIntBits(out.get(0)), what + ": each apply's bits");
            }
        });
    }

    /**
     * Runs {@code apply} (an apply and its checks) until one run launches kernels, at most two minutes:
     * the background compilation ends meanwhile. Returns the kernels that run launched.
     */
    private static long untilTheDeviceRuns(String what, Runnable apply) throws InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            long before = KernelLaunches.count();
            apply.run();
            long launched = KernelLaunches.count() - before;
            if (launched > 0) {
                return launched;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(what + ": not on the device two minutes after its first apply, though compiled in the background");
    }

    @Test
    void theAcceleratorNeverTiers() {
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f).on(Executor.ACCELERATOR);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray());
                assertTrue(KernelLaunches.count() > launches && !AF.lastProfile().tiered(), "the first apply ran on the device: " + AF.lastProfile());
            }
        }
    }

    @Test
    void withoutThePropertyNothingTiers() {
        System.clearProperty(JpaiOptions.TIERING);
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 3f - 7f);
        try (PArray<Float> input = PArray.of(values)) {
            long launches = KernelLaunches.count();
            try (PArray<Float> out = f.apply(input)) {
                assertArrayEquals(expected, out.toFloatArray());
                assertTrue(KernelLaunches.count() > launches && !AF.lastProfile().tiered(), "the first apply ran on the device: " + AF.lastProfile());
            }
        }
    }
}
