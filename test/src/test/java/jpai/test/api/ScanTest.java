package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;
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
import jpai.Tuple4;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code AF.scan} and {@code AF.scanExclusive} against Java (issue 22): every length that matters
 * (empty, one leaf, one work-group, several levels), int, long, float, double and tuples, operators
 * that are associative but not commutative (any reordering of operands shows), the same bits of a
 * float sum on every executor and work-group size (the documented scan order, {@link ScanOrder}),
 * and Java's exception when the operator throws. On the accelerator, with
 * {@code JPAI_EXPECT_OPENCL=1}, the device must have run (fallbacks are errors, kernels launched).
 */
class ScanTest {

    private static final int[] LENGTHS = {0, 1, 2, 1023, 1025, (1 << 20) + 3};

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    /** Java's answer: the sequential left fold from the identity, every prefix. */
    private static <T> List<T> loop(BinaryOperator<T> op, T identity, PArray<T> input, boolean exclusive) {
        List<T> out = new ArrayList<>();
        T accumulator = identity;
        for (long i = 0; i < input.length(); i++) {
            if (exclusive) {
                out.add(accumulator);
            }
            accumulator = op.apply(accumulator, input.get(i));
            if (!exclusive) {
                out.add(accumulator);
            }
        }
        return out;
    }

    /** Applies the scan on {@code executor}, checks the device ran it where one is expected, and returns its elements. */
    private static <T> List<T> scanOn(ArrayFunction<T, T> scan, Executor executor, PArray<T> input) {
        long launches = KernelLaunches.count();
        try (PArray<T> out = ExecutorCase.apply(scan, executor, input)) {
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected() && input.length() > 0) {
                ApplyProfile profile = AF.lastProfile();
                assertTrue(!profile.fellBack() && KernelLaunches.count() > launches, "the device ran: " + profile);
            }
            assertEquals(input.length(), out.length(), "the scan's length");
            List<T> values = new ArrayList<>();
            for (long i = 0; i < out.length(); i++) {
                values.add(out.get(i));
            }
            return values;
        }
    }

    /** {@link #scanOn} on the accelerator, checking that the scan was the single pass: two launches, the words zeroed and the scan. */
    private static <T> List<T> singlePassScanOn(ArrayFunction<T, T> scan, PArray<T> input) {
        long launches = KernelLaunches.count();
        List<T> values = scanOn(scan, Executor.ACCELERATOR, input);
        if (ExecutorCase.openCLExpected() && input.length() > 0) {
            assertEquals(2, KernelLaunches.count() - launches, "kernel launches of the single-pass scan of " + input.length() + " elements");
        }
        return values;
    }

    private static <T> void assertSame(List<T> expected, List<T> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": length");
        for (int i = 0; i < expected.size(); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                throw new AssertionError(what + ": element " + i + " is " + actual.get(i) + ", expected " + expected.get(i));
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void intAndLongSumsWrapAsJava(Executor executor) {
        Random random = new Random(21);
        BinaryOperator<Integer> intSum = (a, b) -> a + b;
        BinaryOperator<Long> longSum = (a, b) -> a + b;
        for (int n : LENGTHS) {
            int[] ints = new int[n];
            long[] longs = new long[n];
            for (int i = 0; i < n; i++) {
                ints[i] = random.nextInt(); // overflows often: wrapping is associative
                longs[i] = random.nextLong();
            }
            try (PArray<Integer> a = PArray.of(ints); PArray<Long> b = PArray.of(longs)) {
                for (boolean exclusive : new boolean[] {false, true}) {
                    ArrayFunction<Integer, Integer> si = exclusive ? AF.scanExclusive(intSum, 0) : AF.scan(intSum, 0);
                    ArrayFunction<Long, Long> sl = exclusive ? AF.scanExclusive(longSum, 0L) : AF.scan(longSum, 0L);
                    assertSame(loop(intSum, 0, a, exclusive), scanOn(si, executor, a), n + " ints, exclusive " + exclusive);
                    assertSame(loop(longSum, 0L, b, exclusive), scanOn(sl, executor, b), n + " longs, exclusive " + exclusive);
                }
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void floatAndDoubleSumsHaveTheDocumentedBitsAndMaximaJavasOwn(Executor executor) {
        Random random = new Random(22);
        BinaryOperator<Float> floatSum = (a, b) -> a + b;
        BinaryOperator<Double> doubleSum = (a, b) -> a + b;
        BinaryOperator<Float> floatMax = (a, b) -> Math.max(a, b);
        BinaryOperator<Double> doubleMin = (a, b) -> Math.min(a, b);
        for (int n : LENGTHS) {
            float[] floats = new float[n];
            double[] doubles = new double[n];
            for (int i = 0; i < n; i++) {
                floats[i] = (random.nextFloat() - 0.3f) * (float) Math.pow(10, random.nextInt(7) - 3);
                doubles[i] = (random.nextDouble() - 0.6) * Math.pow(10, random.nextInt(15) - 7);
            }
            if (n > 5) {
                floats[3] = -0.0f;
                floats[4] = Float.NaN;
                doubles[5] = -0.0;
            }
            try (PArray<Float> f = PArray.of(floats); PArray<Double> d = PArray.of(doubles)) {
                for (boolean exclusive : new boolean[] {false, true}) {
                    String what = n + " elements, exclusive " + exclusive;
                    ArrayFunction<Float, Float> fs = exclusive ? AF.scanExclusive(floatSum, 0f) : AF.scan(floatSum, 0f);
                    ArrayFunction<Double, Double> ds = exclusive ? AF.scanExclusive(doubleSum, 0d) : AF.scan(doubleSum, 0d);
                    assertSame(ScanOrder.scan(floatSum, 0f, f, exclusive), scanOn(fs, executor, f), what + ": float sum, the documented order");
                    assertSame(ScanOrder.scan(doubleSum, 0d, d, exclusive), scanOn(ds, executor, d), what + ": double sum, the documented order");
                    ArrayFunction<Float, Float> fm = exclusive ? AF.scanExclusive(floatMax, Float.NEGATIVE_INFINITY) : AF.scan(floatMax, Float.NEGATIVE_INFINITY);
                    ArrayFunction<Double, Double> dm = exclusive ? AF.scanExclusive(doubleMin, Double.POSITIVE_INFINITY) : AF.scan(doubleMin, Double.POSITIVE_INFINITY);
                    assertSame(loop(floatMax, Float.NEGATIVE_INFINITY, f, exclusive), scanOn(fm, executor, f), what + ": float max, Java's loop");
                    assertSame(loop(doubleMin, Double.POSITIVE_INFINITY, d, exclusive), scanOn(dm, executor, d), what + ": double min, Java's loop");
                }
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void firstNonZeroIsNotCommutative(Executor executor) {
        BinaryOperator<Integer> firstNonZero = (p, q) -> p != 0 ? p : q;
        Random random = new Random(23);
        for (int n : LENGTHS) {
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(2000) == 0 ? random.nextInt(1000) + 1 : 0;
            }
            try (PArray<Integer> input = PArray.of(values)) {
                assertSame(loop(firstNonZero, 0, input, false), scanOn(AF.scan(firstNonZero, 0), executor, input), n + " ints");
                assertSame(loop(firstNonZero, 0, input, true), scanOn(AF.scanExclusive(firstNonZero, 0), executor, input), n + " ints, exclusive");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void productsOf2x2IntegerMatrices(Executor executor) {
        BinaryOperator<Tuple4<Integer, Integer, Integer, Integer>> product = (a, b) -> new Tuple4<>(a._1() * b._1() + a._2() * b._3(), a._1() * b._2() + a._2() * b._4(),
                        a._3() * b._1() + a._4() * b._3(), a._3() * b._2() + a._4() * b._4());
        Tuple4<Integer, Integer, Integer, Integer> identity = new Tuple4<>(1, 0, 0, 1);
        Random random = new Random(24);
        for (int n : LENGTHS) {
            try (PArray<Integer> a = PArray.of(ints(random, n, 5)); PArray<Integer> b = PArray.of(ints(random, n, 5)); PArray<Integer> c = PArray.of(ints(random, n, 5));
                            PArray<Integer> d = PArray.of(ints(random, n, 5)); PArray<Tuple4<Integer, Integer, Integer, Integer>> input = PArray.zip(a, b, c, d)) {
                assertSame(loop(product, identity, input, false), scanOn(AF.scan(product, identity), executor, input), n + " matrices");
                assertSame(loop(product, identity, input, true), scanOn(AF.scanExclusive(product, identity), executor, input), n + " matrices, exclusive");
            }
        }
    }

    /** A tuple of a float and an int: the running maximum and the first index where it was met. */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void runningArgmaxOfTuplesAfterAZip(Executor executor) {
        BinaryOperator<Tuple2<Float, Integer>> argmax = (a, b) -> b._1() > a._1() ? b : a;
        Tuple2<Float, Integer> identity = new Tuple2<>(Float.NEGATIVE_INFINITY, -1);
        Random random = new Random(25);
        for (int n : LENGTHS) {
            float[] values = new float[n];
            int[] indices = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(5000); // ties
                indices[i] = i;
            }
            try (PArray<Float> v = PArray.of(values); PArray<Integer> i = PArray.of(indices); PArray<Tuple2<Float, Integer>> input = PArray.zip(v, i)) {
                ArrayFunction<Tuple2<Float, Integer>, Tuple2<Float, Integer>> composed = AF.<Float, Integer>zip2().scan(argmax, identity);
                assertSame(loop(argmax, identity, input, false), scanOn(composed, executor, input), n + " pairs");
            }
        }
    }

    @Test
    void floatBitsDoNotDependOnTheWorkGroupSize() {
        Random random = new Random(26);
        int n = (1 << 20) + 3;
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (random.nextFloat() - 0.3f) * (float) Math.pow(10, random.nextInt(7) - 3);
        }
        BinaryOperator<Float> sum = (a, b) -> a + b;
        try (PArray<Float> input = PArray.of(values)) {
            List<Float> reference = scanOn(AF.scan(sum, 0f), Executor.SEQUENTIAL, input);
            assertSame(reference, scanOn(AF.scan(sum, 0f), Executor.THREADS, input), "threads");
            for (long workGroup : new long[] {2, 64, 1024}) {
                String previous = System.getProperty("jpai.scan.workGroup");
                System.setProperty("jpai.scan.workGroup", Long.toString(workGroup));
                try {
                    assertSame(reference, scanOn(AF.scan(sum, 0f), Executor.ACCELERATOR, input), "work-group " + workGroup);
                } finally {
                    if (previous == null) {
                        System.clearProperty("jpai.scan.workGroup");
                    } else {
                        System.setProperty("jpai.scan.workGroup", previous);
                    }
                }
            }
        }
    }

    /**
     * The single-pass scan (the default where the device has 64-bit atomics, forced here with
     * {@code -Djpai.scan.singlePass=true}: two launches) gives the same bits as the reduce-then-scan
     * ({@code -Djpai.scan.singlePass=false}) and Java: float sums in the documented order, 2x2 matrix
     * products (not commutative), inclusive and exclusive, at every length and at work-group sizes 2
     * and 256 (many groups waiting for earlier ones).
     */
    @Test
    void theSinglePassScanAndTheReduceThenScanGiveTheSameBits() {
        Random random = new Random(29);
        BinaryOperator<Float> sum = (a, b) -> a + b;
        BinaryOperator<Tuple4<Integer, Integer, Integer, Integer>> product = (a, b) -> new Tuple4<>(a._1() * b._1() + a._2() * b._3(), a._1() * b._2() + a._2() * b._4(),
                        a._3() * b._1() + a._4() * b._3(), a._3() * b._2() + a._4() * b._4());
        Tuple4<Integer, Integer, Integer, Integer> identity = new Tuple4<>(1, 0, 0, 1);
        String previousPass = System.getProperty("jpai.scan.singlePass");
        String previousGroup = System.getProperty("jpai.scan.workGroup");
        System.setProperty("jpai.scan.singlePass", "true");
        try {
            for (long workGroup : new long[] {256, 2}) {
                System.setProperty("jpai.scan.workGroup", Long.toString(workGroup));
                for (int n : LENGTHS) {
                    float[] values = new float[n];
                    for (int i = 0; i < n; i++) {
                        values[i] = (random.nextFloat() - 0.3f) * (float) Math.pow(10, random.nextInt(7) - 3);
                    }
                    int m = Math.min(n, 100_003);
                    try (PArray<Float> input = PArray.of(values); PArray<Integer> a = PArray.of(ints(random, m, 5)); PArray<Integer> b = PArray.of(ints(random, m, 5));
                                    PArray<Integer> c = PArray.of(ints(random, m, 5)); PArray<Integer> d = PArray.of(ints(random, m, 5));
                                    PArray<Tuple4<Integer, Integer, Integer, Integer>> matrices = PArray.zip(a, b, c, d)) {
                        String what = n + " elements, work-group " + workGroup;
                        assertSame(ScanOrder.scan(sum, 0f, input, false), singlePassScanOn(AF.scan(sum, 0f), input), what + ": float sum");
                        System.setProperty("jpai.scan.singlePass", "false");
                        assertSame(ScanOrder.scan(sum, 0f, input, false), scanOn(AF.scan(sum, 0f), Executor.ACCELERATOR, input), what + ": float sum, reduce then scan");
                        assertSame(loop(product, identity, matrices, true), scanOn(AF.scanExclusive(product, identity), Executor.ACCELERATOR, matrices),
                                        what + ": matrices, exclusive, reduce then scan");
                        System.setProperty("jpai.scan.singlePass", "true");
                        assertSame(ScanOrder.scan(sum, 0f, input, true), singlePassScanOn(AF.scanExclusive(sum, 0f), input), what + ": float sum, exclusive");
                        assertSame(loop(product, identity, matrices, false), singlePassScanOn(AF.scan(product, identity), matrices), what + ": matrices");
                    }
                }
            }
        } finally {
            restore("jpai.scan.singlePass", previousPass);
            restore("jpai.scan.workGroup", previousGroup);
        }
    }

    private static void restore(String property, String previous) {
        if (previous == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, previous);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void composesAfterAMapAndBeforeAReduce(Executor executor) {
        Random random = new Random(27);
        int n = 100_003;
        try (PArray<Integer> input = PArray.of(ints(random, n, 1000))) {
            BinaryOperator<Long> sum = (a, b) -> a + b;
            ArrayFunction<Integer, Long> squares = AF.map((Integer x) -> (long) x * x);
            try (PArray<Long> mapped = squares.on(Executor.SEQUENTIAL).apply(input)) {
                List<Long> expected = loop(sum, 0L, mapped, false);
                try (PArray<Long> out = squares.scan(sum, 0L).on(executor).apply(input)) {
                    assertEquals(expected.get(n - 1), out.get(n - 1));
                    assertEquals(expected.get(n / 2), out.get(n / 2));
                }
                try (PArray<Long> out = squares.scan(sum, 0L).reduce((a, b) -> Math.max(a, b), Long.MIN_VALUE).on(executor).apply(input)) {
                    assertEquals(expected.stream().mapToLong(Long::longValue).max().getAsLong(), out.get(0));
                }
            }
        }
    }

    /** An operator that throws: Java's exception and message, the kernel having run first on the device. */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void anOperatorThatThrowsThrowsJavasException(Executor executor) {
        BinaryOperator<Integer> exactSum = (a, b) -> Math.addExact(a, b);
        int n = 100_003;
        int[] values = new int[n];
        java.util.Arrays.fill(values, 1);
        values[70_001] = Integer.MAX_VALUE - 5; // every prefix from here on overflows
        try (PArray<Integer> input = PArray.of(values)) {
            ArithmeticException java = assertThrows(ArithmeticException.class, () -> loop(exactSum, 0, input, false));
            long launches = KernelLaunches.count();
            ArithmeticException thrown = assertThrows(ArithmeticException.class, () -> ExecutorCase.apply(AF.scan(exactSum, 0), executor, input).close());
            // Java's message, or none: once C2 has compiled the hot operator, HotSpot may throw its
            // preallocated ArithmeticException, which has no message (-XX:+OmitStackTraceInFastThrow)
            assertTrue(thrown.getMessage() == null || java.getMessage() == null || thrown.getMessage().equals(java.getMessage()), thrown.getMessage() + " vs " + java.getMessage());
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                assertTrue(KernelLaunches.count() > launches, "the kernel ran first");
            }
        }
        // the same operator where nothing overflows runs on the device
        try (PArray<Integer> input = PArray.of(ints(new Random(28), 5000, 1000))) {
            assertSame(loop(exactSum, 0, input, false), scanOn(AF.scan(exactSum, 0), executor, input), "no overflow");
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void aNullResultOfTheOperatorIsRefusedAsAScans(Executor executor) {
        BinaryOperator<Integer> nullAtFive = (a, b) -> b == 5 ? null : a + b;
        try (PArray<Integer> input = PArray.of(ints(new Random(30), 3000, 4))) {
            input.put(2500, 5);
            // the device refuses a lambda that may return null (a variable holding different objects
            // on different paths), so the accelerator falls back to Java, which meets the null
            NullPointerException e = assertThrows(NullPointerException.class, () -> AF.scan(nullAtFive, 0).on(executor).apply(input).close());
            assertEquals("the scan operator returned null; PArray elements cannot be null", e.getMessage());
        }
    }

    @Test
    void anIdentityOfAnotherTypeIsRefusedByName() {
        try (PArray<Float> input = PArray.of(1f, 2f)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AF.scan((Integer a, Integer b) -> a + b, 0).apply((PArray) input));
            assertTrue(e.getMessage().contains("scan of lambda at ScanTest.java") && e.getMessage().contains("PArray<Float>"), e.getMessage());
        }
    }

    private static int[] ints(Random random, int n, int bound) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(bound) - bound / 2;
        }
        return values;
    }
}
