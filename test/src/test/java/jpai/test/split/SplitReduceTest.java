package jpai.test.split;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Devices;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.device.OpenCLPlatforms;

/**
 * Issue 22: reductions and fused maps then reductions split over two devices, with the bits of
 * sequential Java and of one device (the combining tree depends on the length only), checked at
 * every length the skeleton tests use, with a non-commutative operator among them.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class SplitReduceTest {

    private static final Devices TWO = Devices.of(System.getProperty("jpai.test.splitDevices", "0,1").split(","));
    private static final int[] LENGTHS = {0, 1, 2, 1023, 1025, (1 << 20) + 3};

    @BeforeAll
    static void twoDevices() {
        int devices = OpenCLPlatforms.discover().devices().size();
        assertTrue(devices >= 2, "these tests need two OpenCL devices (POCL_DEVICES=\"pthread pthread\" on PoCL); found " + devices);
    }

    /** Every apply split, however short its parts (the split's minimum work is SplitMapTest's subject). */
    @org.junit.jupiter.api.BeforeEach
    void alwaysSplit() {
        System.setProperty("jpai.split.minWorkMicros", "0");
    }

    @org.junit.jupiter.api.AfterEach
    void defaultMinimum() {
        System.clearProperty("jpai.split.minWorkMicros");
    }

    private static void assertSplit(ApplyProfile profile, int n) {
        assertTrue(!profile.fellBack() && profile.device().endsWith("(split)"), "a split apply: " + profile);
        if (n >= (1 << 20)) {
            assertTrue(profile.device().contains(" + "), "a part on each device: " + profile.device());
        }
    }

    private static <T> void check(ArrayFunction<T, T> reduce, PArray<T> input, int n) {
        try (input; PArray<T> sequential = reduce.on(Executor.SEQUENTIAL).apply(input); PArray<T> one = reduce.on(Executor.ACCELERATOR).apply(input);
                        PArray<T> split = reduce.on(TWO).apply(input)) {
            if (n > 0) {
                assertSplit(AF.lastProfile(), n);
            }
            assertEquals(sequential.get(0), split.get(0), reduce + " of " + n + ": sequential Java's bits");
            assertEquals(one.get(0), split.get(0), reduce + " of " + n + ": one device's bits");
        }
    }

    /** A split reduction too short to pay for its parts runs whole on one device of the set, with the same bits. */
    @Test
    void aReductionTooShortToSplitRunsOnOneDeviceWithTheSameBits() {
        System.setProperty("jpai.split.minWorkMicros", "100000000"); // 100 s: every split is too short
        Random random = new Random(23);
        float[] f = new float[(1 << 20) + 5];
        for (int k = 0; k < f.length; k++) {
            f[k] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(8)));
        }
        ArrayFunction<Float, Float> sum = AF.reduce((Float a, Float b) -> a + b, 0f);
        ArrayFunction<Float, Float> split = sum.on(TWO);
        try (PArray<Float> input = PArray.of(f); PArray<Float> sequential = sum.on(Executor.SEQUENTIAL).apply(input)) {
            boolean alone = false;
            for (int apply = 0; apply < 6; apply++) {
                try (PArray<Float> result = split.apply(input)) {
                    assertEquals(sequential.get(0), result.get(0), "apply " + apply + ": sequential Java's bits");
                }
                alone |= !AF.lastProfile().device().contains(" + ");
            }
            assertTrue(alone, "within a few applies one device runs it whole: " + AF.lastProfile().device());
        }
    }

    @Test
    void sumsOfEveryTypeHaveTheBitsOfJavaAndOfOneDevice() {
        Random random = new Random(17);
        for (int n : LENGTHS) {
            float[] f = new float[n];
            double[] d = new double[n];
            int[] i = new int[n];
            long[] l = new long[n];
            for (int k = 0; k < n; k++) {
                f[k] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(8)));
                d[k] = random.nextGaussian() * Math.pow(10, random.nextInt(12));
                i[k] = random.nextInt();
                l[k] = random.nextLong();
            }
            check(AF.reduce((Float a, Float b) -> a + b, 0f), PArray.of(f), n);
            check(AF.reduce((Double a, Double b) -> a + b, 0.0), PArray.of(d), n);
            check(AF.reduce((Integer a, Integer b) -> a + b, 0), PArray.of(i), n);
            check(AF.reduce((Long a, Long b) -> Math.max(a, b), Long.MIN_VALUE), PArray.of(l), n);
        }
    }

    /** Affine maps composed in order: associative, not commutative; a tuple reduction. */
    @Test
    void aNonCommutativeTupleReductionKeepsTheOrder() {
        Random random = new Random(5);
        for (int n : LENGTHS) {
            long[] a = new long[n];
            long[] b = new long[n];
            for (int k = 0; k < n; k++) {
                a[k] = random.nextLong() | 1;
                b[k] = random.nextLong();
            }
            ArrayFunction<Tuple2<Long, Long>, Tuple2<Long, Long>> compose = AF.reduce((Tuple2<Long, Long> x, Tuple2<Long, Long> y) -> new Tuple2<>(x._1() * y._1(), x._2() * y._1() + y._2()),
                            new Tuple2<>(1L, 0L));
            check(compose, PArray.zip(PArray.of(a), PArray.of(b)), n);
        }
    }

    /** A fused map then reduce whose mapper loops (its first pass maps one element per work-item): the bits of Java. */
    @Test
    void aFusedMapThenReduceSplitsToo() {
        int n = (1 << 20) + 3;
        int[] seeds = new int[n];
        for (int k = 0; k < n; k++) {
            seeds[k] = k * 2654435761L > 0 ? k * 7 + 1 : k;
        }
        ArrayFunction<Integer, Float> f = AF.map((Integer s) -> {
            float x = s;
            for (int k = 0; k < 16; k++) {
                x = x * 0.5f + 1f;
            }
            return x;
        }).reduce((a, b) -> a + b, 0f);
        try (PArray<Integer> input = PArray.of(seeds); PArray<Float> sequential = f.on(Executor.SEQUENTIAL).apply(input); PArray<Float> split = f.on(TWO).apply(input)) {
            assertSplit(AF.lastProfile(), n);
            assertEquals(Float.floatToRawIntBits(sequential.get(0)), Float.floatToRawIntBits(split.get(0)), "the bits of sequential Java");
        }
    }

    /** An exception in the combiner: Java's, as the sequential fold throws it. */
    @Test
    void anExceptionIsTheSequentialFolds() {
        int n = 1 << 20;
        int[] values = new int[n];
        for (int k = 0; k < n; k++) {
            values[k] = 1 + k % 5;
        }
        values[777_777] = 0;
        ArrayFunction<Integer, Integer> f = AF.reduce((Integer a, Integer b) -> 1_000_000 / b + a % 7, 1).on(TWO);
        try (PArray<Integer> input = PArray.of(values)) {
            ArithmeticException e = assertThrows(ArithmeticException.class, () -> f.apply(input).close());
            assertEquals("/ by zero", e.getMessage());
        }
    }
}
