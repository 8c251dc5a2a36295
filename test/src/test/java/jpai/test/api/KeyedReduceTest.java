package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * {@code AF.reduceByKey} against Java's meaning, the sequential loop ({@code acc[key(x)] =
 * op(acc[key(x)], value(x))}, Java's {@code ArrayIndexOutOfBoundsException} at the first key out of
 * range), on every executor: integer values exactly (atomics on the device), float and double values
 * and a K-Means tuple of sums and a count with the same bits on every executor (one fixed combining
 * order) and equal to the loop where every partial sum is exact, and an associative operator that
 * is not commutative equal to the loop exactly (the order is the elements' order). On the device the
 * apply must have launched kernels and not fallen back ({@code JPAI_EXPECT_OPENCL=1}).
 */
class KeyedReduceTest {

    private static final int[] LENGTHS = {0, 1, 1025, (1 << 20) + 3};
    private static final int[] KEY_COUNTS = {1, 2, 256, 65_536};

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    /** Java's meaning: the sequential loop. */
    @SuppressWarnings("unchecked")
    private static <T, V> Object[] loop(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> op, V identity, int keys, PArray<T> input) {
        Object[] acc = new Object[keys];
        java.util.Arrays.fill(acc, identity);
        for (long i = 0; i < input.length(); i++) {
            T x = input.get(i);
            int k = key.apply(x);
            acc[k] = op.apply((V) acc[k], value.apply(x)); // Java's own exception for a bad k
        }
        return acc;
    }

    /** Applies on {@code executor}; on the accelerator, demands that kernels ran and nothing fell back. */
    private static <T, V> PArray<V> run(ArrayFunction<T, V> function, Executor executor, PArray<T> input, String what) {
        long launches = KernelLaunches.count();
        PArray<V> out = ExecutorCase.apply(function, executor, input);
        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected() && input.length() > 0) {
            ApplyProfile profile = AF.lastProfile();
            assertTrue(!profile.fellBack() && profile.kernelCount() > 0 && KernelLaunches.count() > launches, what + ": the device ran: " + profile);
        }
        return out;
    }

    private static int[] ints(Random random, int n, int bound) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(bound);
        }
        return values;
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void histogramsOfIntsAreExact(Executor executor) {
        Random random = new Random(21);
        for (int n : LENGTHS) {
            for (int keys : KEY_COUNTS) {
                try (PArray<Integer> input = PArray.of(ints(random, n, Integer.MAX_VALUE))) {
                    int bins = keys;
                    Function<Integer, Integer> bin = x -> x % bins;
                    Function<Integer, Integer> one = x -> 1;
                    ArrayFunction<Integer, Integer> histogram = AF.reduceByKey(bin, one, Integer::sum, 0, keys);
                    try (PArray<Integer> out = run(histogram, executor, input, n + " ints into " + keys + " bins")) {
                        ExecutorCase.assertSameAsJava(loop(bin, one, Integer::sum, 0, keys, input), out, n + " ints into " + keys + " bins on " + executor);
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void intOperatorsWithAtomicsAndLongSumsAreExact(Executor executor) {
        Random random = new Random(22);
        for (int n : new int[] {1, 1025, 100_003}) {
            try (PArray<Integer> input = PArray.of(ints(random, n, Integer.MAX_VALUE))) {
                Function<Integer, Integer> key = x -> (x >>> 3) & 255;
                Function<Integer, Integer> value = x -> x * 31 - 7;
                String what = n + " ints";
                checkInts(executor, input, key, value, Integer::sum, 0, true, what + ", sum");
                checkInts(executor, input, key, value, Math::min, Integer.MAX_VALUE, true, what + ", min");
                checkInts(executor, input, key, value, Math::max, Integer.MIN_VALUE, true, what + ", max");
                checkInts(executor, input, key, value, (a, b) -> a & b, -1, true, what + ", and");
                checkInts(executor, input, key, value, (a, b) -> b | a, 0, true, what + ", or");
                checkInts(executor, input, key, value, (a, b) -> a ^ b, 0, true, what + ", xor");
                // associative, not commutative: the first nonzero value per key, which only the elements' order gives
                checkInts(executor, input, key, x -> x % 7 == 0 ? x : 0, (a, b) -> a != 0 ? a : b, 0, false, what + ", first nonzero");
                Function<Integer, Long> wide = x -> (long) x * x - (1L << 61);
                checkLongs(executor, input, key, wide, Long::sum, 0L, true, what + ", long sums");
                checkLongs(executor, input, key, wide, Math::min, Long.MAX_VALUE, false, what + ", long min");
                checkLongs(executor, input, key, wide, (a, b) -> a ^ b, 0L, false, what + ", long xor");
            }
        }
    }

    /**
     * {@code atomics}: the operator is one the device combines with atomics, in one kernel that also
     * computes the keys and values; else two kernels keep the elements' order.
     */
    /**
     * As {@link #checkInts}: {@code long} values take atomics where the device lists the 64-bit
     * atomics extension the operator needs ({@code base}: {@code cl_khr_int64_base_atomics} for a
     * sum; else {@code cl_khr_int64_extended_atomics} too), else the two ordered kernels.
     */
    private static void checkLongs(Executor executor, PArray<Integer> input, Function<Integer, Integer> key, Function<Integer, Long> value, BinaryOperator<Long> op, long identity,
                    boolean base, String what) {
        long launches = KernelLaunches.count();
        try (PArray<Long> out = run(AF.reduceByKey(key, value, op, identity, 256), executor, input, what)) {
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                DeviceContext context = OpenCLRuntime.context((DeviceChoice.OpenCL) OpenCLRuntime.choice());
                boolean atomics = context.hasExtension("cl_khr_int64_base_atomics") && (base || context.hasExtension("cl_khr_int64_extended_atomics"));
                assertEquals(atomics ? 1 : 2, KernelLaunches.count() - launches, what + ": " + (atomics ? "the atomic kernel" : "the two ordered kernels"));
            }
            ExecutorCase.assertSameAsJava(loop(key, value, op, identity, 256, input), out, what + " on " + executor);
        }
    }

    private static void checkInts(Executor executor, PArray<Integer> input, Function<Integer, Integer> key, Function<Integer, Integer> value, BinaryOperator<Integer> op, int identity,
                    boolean atomics, String what) {
        long launches = KernelLaunches.count();
        try (PArray<Integer> out = run(AF.reduceByKey(key, value, op, identity, 256), executor, input, what)) {
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                assertEquals(atomics ? 1 : 2, KernelLaunches.count() - launches, what + ": " + (atomics ? "the atomic kernel" : "the two ordered kernels"));
            }
            ExecutorCase.assertSameAsJava(loop(key, value, op, identity, 256, input), out, what + " on " + executor);
        }
    }

    @Test
    void floatAndDoubleSumsHaveTheSameBitsOnEveryExecutor() {
        Random random = new Random(23);
        for (int n : LENGTHS) {
            for (int keys : new int[] {1, 256, 65_536}) {
                float[] values = new float[n];
                for (int i = 0; i < n; i++) {
                    values[i] = (random.nextFloat() - 0.5f) * (float) Math.pow(2, random.nextInt(20) - 10);
                }
                try (PArray<Float> input = PArray.of(values)) {
                    int bins = keys;
                    Function<Float, Integer> key = x -> (Float.floatToRawIntBits(x) >>> 7) % bins;
                    Function<Float, Float> same = x -> x;
                    Function<Float, Double> wide = x -> (double) x * x;
                    ArrayFunction<Float, Float> floats = AF.reduceByKey(key, same, Float::sum, 0f, keys);
                    ArrayFunction<Float, Double> doubles = AF.reduceByKey(key, wide, Double::sum, 0d, keys);
                    String what = n + " floats into " + keys + " keys";
                    try (PArray<Float> java = run(floats, Executor.SEQUENTIAL, input, what); PArray<Float> threads = run(floats, Executor.THREADS, input, what);
                                    PArray<Float> device = run(floats, Executor.ACCELERATOR, input, what);
                                    PArray<Double> javaD = run(doubles, Executor.SEQUENTIAL, input, what); PArray<Double> deviceD = run(doubles, Executor.ACCELERATOR, input, what)) {
                        Object[] javaBits = javaLoopOf(java);
                        ExecutorCase.assertSameAsJava(javaBits, threads, what + " on THREADS");
                        ExecutorCase.assertSameAsJava(javaBits, device, what + " on ACCELERATOR");
                        ExecutorCase.assertSameAsJava(javaLoopOf(javaD), deviceD, what + " (double squares) on ACCELERATOR");
                        // within the bound of any summation order: count * 2^-23 * the sum of magnitudes
                        Object[] sequential = loop(key, same, Float::sum, 0f, keys, input);
                        Object[] magnitudes = loop(key, v -> (double) Math.abs(v), Double::sum, 0d, keys, input);
                        Object[] counts = loop(key, v -> 1, Integer::sum, 0, keys, input);
                        for (int k = 0; k < keys; k++) {
                            double bound = (Integer) counts[k] * 0x1p-23 * (Double) magnitudes[k];
                            assertEquals((Float) sequential[k], java.get(k), bound + 1e-30, what + ": key " + k + " near the sequential loop's sum");
                        }
                    }
                }
            }
        }
    }

    /**
     * The ordered strategy's two per-chunk kernels, a work-item per chunk and a work-group per chunk
     * ({@code -Djpai.keyed.sharedChunks}), give the Java executor's bits: float sums into few and many
     * keys, K-Means-like tuples of sums and counts, and a key out of range still throws Java's
     * exception at Java's element.
     */
    @Test
    void bothPerChunkKernelsGiveTheJavaExecutorsBits() {
        Random random = new Random(28);
        int n = (1 << 20) + 3;
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (random.nextFloat() - 0.5f) * (float) Math.pow(2, random.nextInt(20) - 10);
        }
        String previous = System.getProperty("jpai.keyed.sharedChunks");
        try (PArray<Float> input = PArray.of(values); PArray<Float> ys = PArray.of(values.clone()); PArray<Tuple2<Float, Float>> points = PArray.zip(input, ys)) {
            for (String shared : new String[] {"true", "false"}) {
                System.setProperty("jpai.keyed.sharedChunks", shared);
                for (int keys : new int[] {3, 300, 5000}) {
                    int bins = keys;
                    Function<Float, Integer> key = x -> (Float.floatToRawIntBits(x) >>> 7) % bins;
                    ArrayFunction<Float, Float> sums = AF.reduceByKey(key, x -> x, Float::sum, 0f, keys);
                    String what = n + " floats into " + keys + " keys, shared chunks " + shared;
                    try (PArray<Float> java = run(sums, Executor.SEQUENTIAL, input, what); PArray<Float> device = run(sums, Executor.ACCELERATOR, input, what)) {
                        ExecutorCase.assertSameAsJava(javaLoopOf(java), device, what);
                    }
                }
                Function<Tuple2<Float, Float>, Integer> quadrant = p -> (p._1() < 0 ? 0 : 1) + (p._2() < 0.1f ? 0 : 2);
                ArrayFunction<Tuple2<Float, Float>, Tuple3<Float, Float, Integer>> centres = AF.reduceByKey(quadrant, p -> new Tuple3<>(p._1(), p._2(), 1),
                                (a, b) -> new Tuple3<>(a._1() + b._1(), a._2() + b._2(), a._3() + b._3()), new Tuple3<>(0f, 0f, 0), 4);
                try (PArray<Tuple3<Float, Float, Integer>> java = run(centres, Executor.SEQUENTIAL, points, "quadrants");
                                PArray<Tuple3<Float, Float, Integer>> device = run(centres, Executor.ACCELERATOR, points, "quadrants, shared chunks " + shared)) {
                    ExecutorCase.assertSameAsJava(javaLoopOf(java), device, "sums and counts per quadrant, shared chunks " + shared);
                }
                int[] ints = ints(new Random(29), 100_003, 256);
                ints[70_001] = 256;
                Function<Integer, Integer> identityKey = x -> x;
                Function<Integer, Float> half = x -> x / 2f;
                try (PArray<Integer> bad = PArray.of(ints)) {
                    assertOutOfRange(AF.reduceByKey(identityKey, half, Float::sum, 0f, 256), bad, () -> loop(identityKey, half, Float::sum, 0f, 256, bad), 256,
                                    "float sums, shared chunks " + shared);
                }
            }
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.keyed.sharedChunks");
            } else {
                System.setProperty("jpai.keyed.sharedChunks", previous);
            }
        }
    }

    private static Object[] javaLoopOf(PArray<?> array) {
        Object[] values = new Object[(int) array.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i);
        }
        return values;
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void kMeansSumsAndCountsPerCentreEqualTheLoop(Executor executor) {
        Random random = new Random(24);
        float[] centresX = {0.1f, 0.5f, 0.9f, 0.3f};
        float[] centresY = {0.2f, 0.8f, 0.4f, 0.6f};
        for (int n : new int[] {0, 1, 1025, 100_003}) {
            // coordinates that are multiples of 2^-10 below 1: every partial sum of up to 2^13 of them is exact
            float[] xs = new float[n];
            float[] ys = new float[n];
            for (int i = 0; i < n; i++) {
                xs[i] = random.nextInt(1024) / 1024f;
                ys[i] = random.nextInt(1024) / 1024f;
            }
            try (PArray<Float> x = PArray.of(xs); PArray<Float> y = PArray.of(ys); PArray<Tuple2<Float, Float>> points = PArray.zip(x, y)) {
                Function<Tuple2<Float, Float>, Integer> nearest = p -> {
                    int best = 0;
                    float bestDistance = Float.MAX_VALUE;
                    for (int c = 0; c < centresX.length; c++) {
                        float dx = p._1() - centresX[c];
                        float dy = p._2() - centresY[c];
                        float distance = dx * dx + dy * dy;
                        if (distance < bestDistance) {
                            bestDistance = distance;
                            best = c;
                        }
                    }
                    return best;
                };
                Function<Tuple2<Float, Float>, Tuple3<Float, Float, Integer>> point = p -> new Tuple3<>(p._1(), p._2(), 1);
                BinaryOperator<Tuple3<Float, Float, Integer>> add = (a, b) -> new Tuple3<>(a._1() + b._1(), a._2() + b._2(), a._3() + b._3());
                Tuple3<Float, Float, Integer> zero = new Tuple3<>(0f, 0f, 0);
                ArrayFunction<Tuple2<Float, Float>, Tuple3<Float, Float, Integer>> update = AF.reduceByKey(nearest, point, add, zero, centresX.length);
                try (PArray<Tuple3<Float, Float, Integer>> out = run(update, executor, points, n + " points")) {
                    if (n < 8192) {
                        ExecutorCase.assertSameAsJava(loop(nearest, point, add, zero, centresX.length, points), out, n + " points on " + executor);
                    } else {
                        try (PArray<Tuple3<Float, Float, Integer>> java = run(update, Executor.SEQUENTIAL, points, n + " points")) {
                            ExecutorCase.assertSameAsJava(javaLoopOf(java), out, n + " points on " + executor + ", bits of the Java executor");
                        }
                        Object[] sequential = loop(nearest, point, add, zero, centresX.length, points);
                        for (int c = 0; c < centresX.length; c++) {
                            assertEquals(((Tuple3<?, ?, ?>) sequential[c])._3(), out.get(c)._3(), "the count of centre " + c);
                        }
                    }
                }
            }
        }
    }

    @Test
    void moreKeysThanElements() {
        int keys = 65_536;
        try (PArray<Integer> input = PArray.of(ints(new Random(25), 1025, Integer.MAX_VALUE))) {
            Function<Integer, Integer> key = x -> x & (keys - 1);
            Function<Integer, Float> value = x -> (x & 1023) / 8f;
            for (Executor executor : ExecutorCase.ALL) {
                try (PArray<Float> out = run(AF.reduceByKey(key, value, Float::sum, 0f, keys), executor, input, "1025 floats into 65536 keys");
                                PArray<Integer> counts = run(AF.reduceByKey(key, x -> 1, Integer::sum, 0, keys), executor, input, "1025 ints into 65536 keys")) {
                    ExecutorCase.assertSameAsJava(loop(key, value, Float::sum, 0f, keys, input), out, "floats on " + executor);
                    ExecutorCase.assertSameAsJava(loop(key, x -> 1, Integer::sum, 0, keys, input), counts, "counts on " + executor);
                }
            }
        }
    }

    /** A key out of range (negative, or equal to the number of keys) throws Java's exception at Java's element, after the kernel met it. */
    @Test
    void keysOutOfRangeThrowJavasExceptionAtJavasElement() {
        int n = 100_003;
        int[] values = ints(new Random(26), n, 256); // every key in range but these:
        values[70_001] = 256; // == keys: the first bad key
        values[90_000] = -3;  // negative, later
        Function<Integer, Integer> key = x -> x;
        Function<Integer, Integer> one = x -> 1;
        Function<Integer, Float> half = x -> x / 2f;
        try (PArray<Integer> input = PArray.of(values)) {
            assertOutOfRange(AF.reduceByKey(key, one, Integer::sum, 0, 256), input, () -> loop(key, one, Integer::sum, 0, 256, input), 256, "int sums (atomics)");
            assertOutOfRange(AF.reduceByKey(key, half, Float::sum, 0f, 256), input, () -> loop(key, half, Float::sum, 0f, 256, input), 256, "float sums (ordered)");
        }
        values[70_001] = 7;
        try (PArray<Integer> input = PArray.of(values)) {
            assertOutOfRange(AF.reduceByKey(key, one, Integer::sum, 0, 256), input, () -> loop(key, one, Integer::sum, 0, 256, input), -3, "a negative key (atomics)");
            assertOutOfRange(AF.reduceByKey(key, half, Float::sum, 0f, 256), input, () -> loop(key, half, Float::sum, 0f, 256, input), -3, "a negative key (ordered)");
        }
    }

    /**
     * {@code java} (the loop) throws, and so does {@code function} on every executor, with Java's
     * message for {@code acc[badKey]}; the message is written out because HotSpot drops it from an
     * exception thrown often at one place in compiled code (OmitStackTraceInFastThrow).
     */
    private static <V> void assertOutOfRange(ArrayFunction<Integer, V> function, PArray<Integer> input, org.junit.jupiter.api.function.Executable java, int badKey, String what) {
        assertThrows(ArrayIndexOutOfBoundsException.class, java, what + ": Java throws");
        ArrayIndexOutOfBoundsException expected = new ArrayIndexOutOfBoundsException("Index " + badKey + " out of bounds for length 256");
        for (Executor executor : ExecutorCase.ALL) {
            long launches = KernelLaunches.count();
            ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, () -> ExecutorCase.apply(function, executor, input).close(), what + " on " + executor);
            assertEquals(expected.getMessage(), thrown.getMessage(), what + " on " + executor + ": Java's message");
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                assertTrue(KernelLaunches.count() > launches, what + ": the kernel ran first and met the key");
            }
        }
    }

    /** An exception of the value function and a key out of range: whichever element comes first decides, as in the loop. */
    @Test
    void theLambdasExceptionsComeInJavasOrder() {
        int[] values = ints(new Random(27), 10_000, 1000);
        for (int i = 0; i < values.length; i++) {
            values[i] += 1; // no zero
        }
        Function<Integer, Integer> key = x -> x == 5000 ? 256 : x % 256;
        Function<Integer, Integer> inverse = x -> 1_000_000 / (x - 3000);
        values[4000] = 3000; // the value divides by zero here
        values[6000] = 5000; // a key out of range here, later
        try (PArray<Integer> input = PArray.of(values)) {
            ArrayFunction<Integer, Integer> sums = AF.reduceByKey(key, inverse, Integer::sum, 0, 256);
            for (Executor executor : ExecutorCase.ALL) {
                assertThrows(ArithmeticException.class, () -> ExecutorCase.apply(sums, executor, input).close(), "division first, on " + executor);
            }
        }
        values[2000] = 5000; // now the key out of range comes first
        try (PArray<Integer> input = PArray.of(values)) {
            ArrayFunction<Integer, Integer> sums = AF.reduceByKey(key, inverse, Integer::sum, 0, 256);
            for (Executor executor : ExecutorCase.ALL) {
                ArrayIndexOutOfBoundsException thrown = assertThrows(ArrayIndexOutOfBoundsException.class, () -> ExecutorCase.apply(sums, executor, input).close(), "key first, on " + executor);
                assertEquals("Index 256 out of bounds for length 256", thrown.getMessage());
            }
        }
    }

    /** A map then a keyed reduction, composed: the map's result is the keyed reduction's input, on the device. */
    @Test
    void composesAfterAMap() {
        try (PArray<Integer> input = PArray.of(ints(new Random(28), 100_003, 1 << 20))) {
            Function<Integer, Integer> triple = x -> x * 3;
            ArrayFunction<Integer, Integer> histogram = AF.map(triple).reduceByKey(x -> x & 1023, x -> 1, Integer::sum, 0, 1024);
            int[] expected = new int[1024];
            for (int x : input.toIntArray()) {
                expected[(x * 3) & 1023]++;
            }
            for (Executor executor : ExecutorCase.ALL) {
                try (PArray<Integer> out = run(histogram, executor, input, "map then histogram")) {
                    org.junit.jupiter.api.Assertions.assertArrayEquals(expected, out.toIntArray(), "map then histogram on " + executor);
                }
            }
        }
    }

    @Test
    void badArguments() {
        assertThrows(IllegalArgumentException.class, () -> AF.reduceByKey((Integer x) -> x, x -> 1, Integer::sum, 0, -1));
        assertThrows(NullPointerException.class, () -> AF.reduceByKey((Integer x) -> x, x -> 1, Integer::sum, null, 4));
        try (PArray<Integer> input = PArray.of(new int[] {1, 2}); PArray<Integer> none = AF.reduceByKey((Integer x) -> 0, x -> 1, Integer::sum, 0, 0).apply(PArray.of(new int[0]))) {
            assertEquals(0, none.length());
            assertThrows(ArrayIndexOutOfBoundsException.class, () -> AF.reduceByKey((Integer x) -> 0, x -> 1, Integer::sum, 0, 0).apply(input));
        }
    }
}
