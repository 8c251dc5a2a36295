package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code AF.filter} against Java (issue 22): the kept elements in their order, at every length that
 * matters, for int, long, float, double and a tuple, keeping all, none or some; composed after a
 * map and before a scan; Java's exception at Java's element when the predicate throws. On the
 * accelerator, with {@code JPAI_EXPECT_OPENCL=1}, the predicate must have run on the device.
 */
class FilterTest {

    private static final int[] LENGTHS = {0, 1, 2, 1023, 1025, (1 << 20) + 3};

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    private static <T> List<T> loop(Predicate<T> predicate, PArray<T> input) {
        List<T> kept = new ArrayList<>();
        for (long i = 0; i < input.length(); i++) {
            if (predicate.test(input.get(i))) {
                kept.add(input.get(i));
            }
        }
        return kept;
    }

    private static <T, R> void assertFilters(List<R> expected, ArrayFunction<T, R> filter, Executor executor, PArray<T> input, String what) {
        long launches = KernelLaunches.count();
        try (PArray<R> out = ExecutorCase.apply(filter, executor, input)) {
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected() && input.length() > 0) {
                ApplyProfile profile = AF.lastProfile();
                assertTrue(!profile.fellBack() && KernelLaunches.count() > launches, what + ": the device ran: " + profile);
            }
            assertEquals(expected.size(), out.length(), what + ": the number kept");
            for (int i = 0; i < expected.size(); i++) {
                if (!expected.get(i).equals(out.get(i))) {
                    throw new AssertionError(what + ": element " + i + " is " + out.get(i) + ", Java keeps " + expected.get(i));
                }
            }
        }
    }

    /**
     * On a device with 64-bit atomics a filter is one kernel after the node words are zeroed (two
     * launches), with work-groups of 256 and of 2 (many groups waiting for earlier ones); with
     * {@code -Djpai.filter.singlePass=false} the predicate's map to flags, then the count, offsets and
     * scatter kernels (four launches); both keep Java's elements, a tuple's too.
     */
    @org.junit.jupiter.api.Test
    void theSinglePassFilterAndTheCompactionKernelsKeepJavasElements() {
        Random random = new Random(37);
        int n = (1 << 20) + 3;
        float[] floats = new float[n];
        int[] ints = new int[n];
        for (int i = 0; i < n; i++) {
            floats[i] = random.nextFloat();
            ints[i] = random.nextInt(1000);
        }
        Predicate<Float> positive = x -> x > 0.5f;
        Predicate<Tuple2<Float, Integer>> both = t -> t._1() < 0.9f && t._2() % 3 == 0;
        try (PArray<Float> a = PArray.of(floats); PArray<Integer> b = PArray.of(ints); PArray<Tuple2<Float, Integer>> pairs = PArray.zip(a, b)) {
            List<Float> expected = loop(positive, a);
            List<Tuple2<Float, Integer>> expectedPairs = loop(both, pairs);
            for (String singlePass : new String[] {"true", "false"}) {
                for (String workGroup : singlePass.equals("true") ? new String[] {"256", "2"} : new String[] {"256"}) {
                    String previousPass = System.getProperty("jpai.filter.singlePass");
                    String previousGroup = System.getProperty("jpai.filter.workGroup");
                    System.setProperty("jpai.filter.singlePass", singlePass);
                    System.setProperty("jpai.filter.workGroup", workGroup);
                    try {
                        String what = "single pass " + singlePass + ", work-group " + workGroup;
                        long launches = KernelLaunches.count();
                        assertFilters(expected, AF.filter(positive), Executor.ACCELERATOR, a, what + ": floats");
                        if (ExecutorCase.openCLExpected()) {
                            assertEquals(singlePass.equals("true") ? 2 : 4, KernelLaunches.count() - launches, what + ": kernel launches");
                        }
                        assertFilters(expectedPairs, AF.filter(both), Executor.ACCELERATOR, pairs, what + ": pairs");
                    } finally {
                        restore("jpai.filter.singlePass", previousPass);
                        restore("jpai.filter.workGroup", previousGroup);
                    }
                }
            }
        }
    }

    /**
     * Maps before a filter run inside the single-pass filter's kernel (two launches: the status words
     * zeroed, the filter): the mapped elements that pass, Java's bits, for one and two maps and a map
     * to tuples; an exception in a map is Java's, stage by stage.
     */
    @org.junit.jupiter.api.Test
    void mapsBeforeAFilterRunInsideItsKernel() {
        Random random = new Random(41);
        int n = (1 << 20) + 3;
        float[] floats = new float[n];
        for (int i = 0; i < n; i++) {
            floats[i] = random.nextFloat() * 4 - 2;
        }
        java.util.function.Function<Float, Float> square = x -> x * x;
        java.util.function.Function<Float, Double> wide = x -> (double) x + 0.5;
        java.util.function.Function<Float, Tuple2<Float, Integer>> pair = x -> new Tuple2<>(x, (int) (x * 100));
        Predicate<Float> big = x -> x > 1f;
        Predicate<Double> positive = x -> x > 0;
        Predicate<Tuple2<Float, Integer>> even = t -> (t._2() & 1) == 0;
        try (PArray<Float> input = PArray.of(floats)) {
            List<Float> squares = new ArrayList<>();
            List<Double> wides = new ArrayList<>();
            List<Tuple2<Float, Integer>> pairs = new ArrayList<>();
            for (float x : floats) {
                if (big.test(square.apply(x))) {
                    squares.add(square.apply(x));
                }
                if (positive.test(wide.apply(square.apply(x)))) {
                    wides.add(wide.apply(square.apply(x)));
                }
                if (even.test(pair.apply(x))) {
                    pairs.add(pair.apply(x));
                }
            }
            long launches = KernelLaunches.count();
            assertFilters(squares, AF.map(square, Float.class).filter(big), Executor.ACCELERATOR, input, "a map then a filter");
            if (ExecutorCase.openCLExpected()) {
                assertEquals(2, KernelLaunches.count() - launches, "the map inside the filter's kernel");
            }
            assertFilters(wides, AF.map(square, Float.class).andThen(AF.map(wide, Double.class)).filter(positive), Executor.ACCELERATOR, input, "two maps then a filter");
            assertFilters(pairs, AF.map(pair).filter(even), Executor.ACCELERATOR, input, "a map to pairs then a filter");
        }
        int[] ints = new int[100_000];
        java.util.Arrays.setAll(ints, i -> i);
        java.util.function.Function<Integer, Integer> failing = x -> {
            if (x == 70_001) {
                throw new IllegalStateException("the map at " + x);
            }
            return x * 2;
        };
        try (PArray<Integer> input = PArray.of(ints)) {
            ArrayFunction<Integer, Integer> pipeline = AF.map(failing).filter((Integer x) -> x % 3 == 0).on(Executor.ACCELERATOR);
            assertEquals("the map at 70001", assertThrows(IllegalStateException.class, () -> pipeline.apply(input).close()).getMessage());
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
    void scalarsKeepingAllNoneOrSome(Executor executor) {
        Random random = new Random(31);
        for (int n : LENGTHS) {
            int[] ints = new int[n];
            long[] longs = new long[n];
            float[] floats = new float[n];
            double[] doubles = new double[n];
            for (int i = 0; i < n; i++) {
                ints[i] = random.nextInt();
                longs[i] = random.nextLong();
                floats[i] = random.nextFloat() * 2 - 1;
                doubles[i] = random.nextGaussian();
            }
            if (n > 3) {
                floats[1] = Float.NaN;
                doubles[2] = -0.0;
            }
            try (PArray<Integer> a = PArray.of(ints); PArray<Long> b = PArray.of(longs); PArray<Float> c = PArray.of(floats); PArray<Double> d = PArray.of(doubles)) {
                Predicate<Integer> odd = x -> (x & 1) != 0;
                Predicate<Integer> all = x -> x == x;
                Predicate<Integer> none = x -> x != x;
                Predicate<Long> rare = x -> x % 97 == 0;
                Predicate<Float> positive = x -> x > 0.5f;
                Predicate<Double> notPositive = x -> !(x > 0);
                assertFilters(loop(odd, a), AF.filter(odd), executor, a, n + " ints, odd");
                assertFilters(loop(all, a), AF.filter(all), executor, a, n + " ints, all");
                assertFilters(List.of(), AF.filter(none), executor, a, n + " ints, none");
                assertFilters(loop(rare, b), AF.filter(rare), executor, b, n + " longs, rare");
                assertFilters(loop(positive, c), AF.filter(positive), executor, c, n + " floats");
                assertFilters(loop(notPositive, d), AF.filter(notPositive), executor, d, n + " doubles, NaN and -0.0 kept");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void tuplesAfterAZip(Executor executor) {
        Random random = new Random(32);
        for (int n : LENGTHS) {
            float[] values = new float[n];
            int[] indices = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextFloat();
                indices[i] = i;
            }
            try (PArray<Float> v = PArray.of(values); PArray<Integer> i = PArray.of(indices); PArray<Tuple2<Float, Integer>> input = PArray.zip(v, i)) {
                Predicate<Tuple2<Float, Integer>> above = t -> t._1() > 0.25f && t._2() % 3 != 0;
                assertFilters(loop(above, input), AF.<Float, Integer>zip2().filter(above), executor, input, n + " pairs");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void afterAMapAndBeforeAScan(Executor executor) {
        Random random = new Random(33);
        int n = 100_003;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(1000) - 500;
        }
        try (PArray<Integer> input = PArray.of(values)) {
            ArrayFunction<Integer, Integer> pipeline = AF.map((Integer x) -> x * 3).filter(x -> x > 0).scan((a, b) -> a + b, 0);
            List<Integer> expected = new ArrayList<>();
            int sum = 0;
            for (int x : values) {
                if (x * 3 > 0) {
                    sum += x * 3;
                    expected.add(sum);
                }
            }
            try (PArray<Integer> out = pipeline.on(executor).apply(input)) {
                assertEquals(expected.size(), out.length());
                for (int i = 0; i < expected.size(); i++) {
                    assertEquals(expected.get(i), out.get(i), "element " + i);
                }
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void aPredicateThatThrowsThrowsJavasExceptionAtJavasElement(Executor executor) {
        int n = 100_003;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i % 1000 + 1;
        }
        values[60_000] = 0;
        values[90_000] = 0;
        try (PArray<Integer> input = PArray.of(values)) {
            Predicate<Integer> divides = x -> 1000 / x > 1;
            ArithmeticException java = assertThrows(ArithmeticException.class, () -> loop(divides, input));
            long launches = KernelLaunches.count();
            ArithmeticException thrown = assertThrows(ArithmeticException.class, () -> ExecutorCase.apply(AF.filter(divides), executor, input).close());
            // Java's message, or none on either side: once C2 has compiled the hot predicate (in this
            // test's own loop as much as in JPAI's), HotSpot may throw its preallocated
            // ArithmeticException, which has no message (-XX:+OmitStackTraceInFastThrow)
            assertTrue(thrown.getMessage() == null || java.getMessage() == null || thrown.getMessage().equals(java.getMessage()), thrown.getMessage() + " vs " + java.getMessage());
            if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                assertTrue(KernelLaunches.count() > launches, "the kernel ran first");
            }
        }
    }
}
