package jpai.test.plugins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.compiler.PhaseTimings;
import jpai.runtime.KernelCompilation;
import jpai.ApplyProfile;

/**
 * docs/phase-plugins.md's worked example, {@link PowerOfTwoRemaindersAsMasksPhase} named in
 * {@code -Djpai.phases}: its effect reaches the generated OpenCL (no {@code %} left, a mask
 * instead), it is timed under its name, and the kernels give Java's results, bit for bit, on edge
 * and random data, for positive and negative powers of two up to {@code MIN_VALUE}.
 */
class PhasePluginExampleTest {

    static final String EXAMPLE = "after-high-tier:" + PowerOfTwoRemaindersAsMasksPhase.class.getName();

    static final int[] INT_EDGES = {0, 1, -1, 2, -2, 7, -7, 8, -8, 9, -9, 15, -15, 16, -16, 17, -17, 1023, -1023, 1024, -1024, 1 << 30, -(1 << 30), (1 << 30) + 5,
                    Integer.MAX_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE, Integer.MIN_VALUE + 1, Integer.MIN_VALUE + 7, Integer.MIN_VALUE + 8};
    static final long[] LONG_EDGES = {0, 1, -1, 7, -7, 8, -8, 9, -9, 1023, -1023, 1024, -1024, 1L << 32, -(1L << 32), (1L << 32) + 3, 1L << 62, -(1L << 62), (1L << 62) + 9,
                    Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE + 1023, Long.MIN_VALUE + 1024, Integer.MIN_VALUE, Integer.MAX_VALUE};

    @AfterEach
    void noPlugins() {
        System.clearProperty("jpai.phases");
    }

    static boolean openCLExpected() {
        return "1".equals(System.getenv("JPAI_EXPECT_OPENCL"));
    }

    /** The element function of a generated program: what the lambda became, without the kernel around it. */
    static String elementFunction(String program) {
        int start = program.indexOf("static int jpai_");
        return program.substring(start, program.indexOf("\n}", start) + 2);
    }

    @Test
    void itsEffectReachesTheGeneratedOpenCL() {
        Function<Integer, Integer> f = x -> x % 8;
        String without = KernelCompilation.map(f, ElementType.INT, ElementType.INT).kernel().text();
        assertTrue(elementFunction(without).contains("% 8"), "Graal leaves x % 8 as it is, so what follows is the plugin's doing: " + without);
        assertFalse(without.contains("phase plugins"), without);

        System.setProperty("jpai.phases", EXAMPLE);
        KernelCompilation.Result with = KernelCompilation.map(f, ElementType.INT, ElementType.INT);
        String function = elementFunction(with.kernel().text());
        assertFalse(function.contains("%"), function);
        assertTrue(function.contains("& (-8)"), function);
        assertTrue(with.kernel().text().contains("// With the phase plugins " + PowerOfTwoRemaindersAsMasksPhase.class.getName() + " (after Graal high tier)\n"),
                        with.kernel().text());
        assertTrue(with.phases().steps().stream().map(PhaseTimings.Step::name).anyMatch(PowerOfTwoRemaindersAsMasksPhase.class.getName()::equals), with.phases().toString());
    }

    @Test
    void intRemaindersGiveJavasResults() {
        System.setProperty("jpai.phases", EXAMPLE);
        int[] data = withRandom(INT_EDGES, 4096);
        assertInts(x -> x % 8, data);
        assertInts(x -> x % -8, data);
        assertInts(x -> x % 2, data);
        assertInts(x -> x % 1024, data);
        assertInts(x -> x % (1 << 30), data);
        assertInts(x -> x % Integer.MIN_VALUE, data);
        assertInts(x -> (x * 31 + 7) % 16 - x % -4, data);
    }

    @Test
    void longRemaindersGiveJavasResults() {
        System.setProperty("jpai.phases", EXAMPLE);
        long[] data = withRandom(LONG_EDGES, 4096);
        assertLongs(x -> x % 8L, data);
        assertLongs(x -> x % -1024L, data);
        assertLongs(x -> x % 4294967296L, data);
        assertLongs(x -> x % (1L << 62), data);
        assertLongs(x -> x % Long.MIN_VALUE, data);
        assertLongs(x -> (x ^ (x >>> 7)) % -2L, data);
    }

    static int[] withRandom(int[] edges, int count) {
        SplittableRandom random = new SplittableRandom(13);
        int[] data = Arrays.copyOf(edges, edges.length + count);
        for (int i = edges.length; i < data.length; i++) {
            data[i] = i % 2 == 0 ? random.nextInt() : random.nextInt(-100_000, 100_000);
        }
        return data;
    }

    static long[] withRandom(long[] edges, int count) {
        SplittableRandom random = new SplittableRandom(17);
        long[] data = Arrays.copyOf(edges, edges.length + count);
        for (int i = edges.length; i < data.length; i++) {
            data[i] = i % 2 == 0 ? random.nextLong() : random.nextLong(-100_000, 100_000);
        }
        return data;
    }

    /** The plugin rewrote every remainder of {@code f}, and the device gives Java's results. */
    static void assertInts(Function<Integer, Integer> f, int[] data) {
        assertFalse(elementFunction(KernelCompilation.map(f, ElementType.INT, ElementType.INT).kernel().text()).contains("%"), "every remainder became a mask");
        int[] java = Arrays.stream(data).map(f::apply).toArray();
        try (PArray<Integer> in = PArray.of(data); PArray<Integer> out = onDevice(() -> AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in))) {
            assertArrayEquals(java, out.toIntArray());
        }
    }

    static void assertLongs(Function<Long, Long> f, long[] data) {
        assertFalse(elementFunction(KernelCompilation.map(f, ElementType.LONG, ElementType.LONG).kernel().text()).contains("%"), "every remainder became a mask");
        long[] java = Arrays.stream(data).map(f::apply).toArray();
        try (PArray<Long> in = PArray.of(data); PArray<Long> out = onDevice(() -> AF.map(f, Long.class).on(Executor.ACCELERATOR).apply(in))) {
            assertArrayEquals(java, out.toLongArray());
        }
    }

    /** Runs {@code apply}, which must run on the device where one is promised (a fallback is an exception then). */
    static <R> PArray<R> onDevice(java.util.function.Supplier<PArray<R>> apply) {
        if (!openCLExpected()) {
            return apply.get();
        }
        System.setProperty("jpai.fallback", "error");
        try {
            PArray<R> out = apply.get();
            ApplyProfile profile = AF.lastProfile();
            assertTrue(!profile.fellBack() && profile.kernelCount() > 0, profile.toString());
            return out;
        } finally {
            System.clearProperty("jpai.fallback");
        }
    }

    @Test
    void shortRemaindersComputedInIntAreRewrittenToo() {
        System.setProperty("jpai.phases", EXAMPLE);
        Function<Short, Short> f = s -> (short) (s % -32);
        short[] data = {0, 1, -1, 31, -31, 32, -32, 33, -33, Short.MAX_VALUE, Short.MIN_VALUE, Short.MIN_VALUE + 1, 12345, -12345};
        assertFalse(elementFunction(KernelCompilation.map(f, ElementType.SHORT, ElementType.SHORT).kernel().text()).contains("%"));
        try (PArray<Short> in = PArray.of(data); PArray<Short> out = onDevice(() -> AF.map(f, Short.class).on(Executor.ACCELERATOR).apply(in))) {
            for (int i = 0; i < data.length; i++) {
                assertEquals(f.apply(data[i]), out.get(i), "element " + i + ": " + data[i]);
            }
        }
    }
}
