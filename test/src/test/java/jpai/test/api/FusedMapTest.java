package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * Maps in a row run as one kernel (the pipeline's fused maps), and maps before a reduce or a scan
 * inside its kernels: Java's results, no kernel of their own where a device is promised, and after an
 * exception in any stage the exception Java's stage-by-stage order gives.
 */
class FusedMapTest {

    /** Applies {@code function} on the accelerator, checks Java's results and, on a device, that one kernel ran. */
    private static <T, R> void assertOneKernelAsJava(Function<T, R> java, ArrayFunction<T, R> function, PArray<T> input, String what) {
        try (PArray<R> out = ExecutorCase.apply(function, Executor.ACCELERATOR, input)) {
            ApplyProfile profile = AF.lastProfile();
            if (ExecutorCase.openCLExpected() && input.length() > 0) {
                assertTrue(!profile.fellBack() && profile.kernelCount() == 1, what + ": one kernel ran: " + profile);
            }
            assertSameAsJava(ExecutorCase.javaLoop(java, input), out, what);
        }
        for (Executor executor : new Executor[] {Executor.SEQUENTIAL, Executor.THREADS}) {
            try (PArray<R> out = ExecutorCase.apply(function, executor, input)) {
                assertSameAsJava(ExecutorCase.javaLoop(java, input), out, what + " on " + executor);
            }
        }
    }

    /** A map with its output type given: an empty input cannot show it. */
    private static ArrayFunction<Float, Float> floats(Function<Float, Float> f) {
        return AF.map(f, Float.class);
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {0, 1, 1025, (1 << 20) + 3})
    void twoThreeAndFiveFloatMaps(int length) {
        float scale = 1.5f;
        float shift = -0.25f;
        Function<Float, Float> f = x -> x * scale;
        Function<Float, Float> g = x -> x + shift;
        Function<Float, Float> h = x -> x * x - 1f;
        try (PArray<Float> input = MapTest.cast(RandomData.of(ElementType.FLOAT, length, length))) {
            assertOneKernelAsJava(f.andThen(g), floats(f).andThen(floats(g)), input, "two maps, length " + length);
            assertOneKernelAsJava(f.andThen(g).andThen(h), floats(f).andThen(floats(g)).andThen(floats(h)), input, "three maps, length " + length);
            assertOneKernelAsJava(f.andThen(g).andThen(h).andThen(f).andThen(g), floats(f).andThen(floats(g)).andThen(floats(h)).andThen(floats(f)).andThen(floats(g)), input, "five maps, length " + length);
        }
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {1, 1025, (1 << 20) + 3})
    void intAndDoubleStagesWithCapturesInEach(int length) {
        int mask = 0x5a5a;
        long factor = 3;
        double offset = 0.5;
        Function<Integer, Integer> f = x -> (x ^ mask) * 31 + Integer.MIN_VALUE;
        Function<Integer, Long> g = x -> x * factor;
        Function<Long, Double> h = x -> x / 7.0 + offset;
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, length, 7))) {
            assertOneKernelAsJava(f.andThen(g).andThen(h), AF.map(f).map(g).map(h), input, "int, long, double, length " + length);
        }
    }

    @Test
    void mapsOverAnIndexRange() {
        int length = 5_000;
        long seed = 0x9E3779B97F4A7C15L;
        Function<Integer, Long> hash = i -> (i * seed) >>> 7;
        Function<Long, Integer> fold = x -> (int) (x ^ (x >>> 32));
        try (PArray<Integer> indices = PArray.range(length)) {
            assertOneKernelAsJava(hash.andThen(fold), AF.map(hash).map(fold), indices, "two maps over a range");
        }
    }

    /** The kernels of applying {@code function} to {@code input} on the accelerator (0 without a device). */
    private static <T, R> int kernelsOf(ArrayFunction<T, R> function, PArray<T> input) {
        try (PArray<R> out = ExecutorCase.apply(function, Executor.ACCELERATOR, input)) {
            return AF.lastProfile().kernelCount();
        }
    }

    /**
     * Maps then a reduce are the reduction's kernels alone: every map fused into its first pass, as
     * many kernels as the same reduction of the mapped array; a narrowing stage ({@code (short)})
     * keeps Java's bits between stages.
     */
    @Test
    void mapsThenAReduceAreTheReductionsKernels() {
        int mask = 0xffff;
        Function<Integer, Integer> f = x -> x & mask;
        Function<Integer, Short> g = x -> (short) (x * 3 - 1);
        Function<Short, Integer> h = x -> x ^ (x >>> 5);
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, 100_001, 4));
                        PArray<Integer> mapped = ExecutorCase.apply(AF.map(f).map(g).map(h), Executor.SEQUENTIAL, input);
                        PArray<Integer> sum = ExecutorCase.apply(AF.map(f).map(g).map(h).reduce(Integer::sum, 0), Executor.ACCELERATOR, input)) {
            ApplyProfile profile = AF.lastProfile();
            if (ExecutorCase.openCLExpected()) {
                int reduceAlone = kernelsOf(AF.reduce(Integer::sum, 0), mapped);
                assertTrue(!profile.fellBack() && profile.kernelCount() == reduceAlone, "the reduction's " + reduceAlone + " kernels: " + profile);
            }
            int expected = 0;
            for (int i = 0; i < input.length(); i++) {
                expected += f.andThen(g).andThen(h).apply(input.get(i));
            }
            assertEquals(expected, sum.get(0));
        }
    }

    /**
     * Maps then a scan are the scan's kernels alone (the maps applied as the elements come in), in
     * one pass and as reduce-then-scan, at every length that matters: the bits of the Java executor,
     * which maps and then scans in the same order.
     */
    @ParameterizedTest(name = "length {0}")
    @ValueSource(ints = {0, 1, 2, 1023, 1025, (1 << 20) + 3})
    void mapsThenAScanAreTheScansKernels(int length) {
        float scale = 0.75f;
        Function<Float, Float> f = x -> x * scale - 0.5f;
        Function<Float, Double> g = x -> (double) x * x;
        try (PArray<Float> input = MapTest.cast(RandomData.of(ElementType.FLOAT, length, 5))) {
            ArrayFunction<Float, Double> fused = floats(f).andThen(AF.map(g, Double.class)).scan(Double::sum, 0d);
            ArrayFunction<Float, Float> one = floats(f).scanExclusive(Float::sum, 0f);
            for (String singlePass : new String[] {"true", "false"}) {
                String previous = System.getProperty("jpai.scan.singlePass");
                System.setProperty("jpai.scan.singlePass", singlePass);
                try (PArray<Double> java = ExecutorCase.apply(fused, Executor.SEQUENTIAL, input); PArray<Double> device = ExecutorCase.apply(fused, Executor.ACCELERATOR, input)) {
                    ApplyProfile profile = AF.lastProfile();
                    String what = "two maps then a scan, length " + length + ", single pass " + singlePass;
                    assertSameAsJava(javaValues(java), device, what);
                    if (ExecutorCase.openCLExpected() && length > 0) {
                        try (PArray<Double> mapped = ExecutorCase.apply(floats(f).andThen(AF.map(g, Double.class)), Executor.SEQUENTIAL, input)) {
                            int scanAlone = kernelsOf(AF.scan(Double::sum, 0d), mapped);
                            assertTrue(!profile.fellBack() && profile.kernelCount() == scanAlone, what + ": the scan's " + scanAlone + " kernels: " + profile);
                        }
                    }
                    try (PArray<Float> javaOne = ExecutorCase.apply(one, Executor.SEQUENTIAL, input); PArray<Float> deviceOne = ExecutorCase.apply(one, Executor.ACCELERATOR, input)) {
                        assertSameAsJava(javaValues(javaOne), deviceOne, "a map then an exclusive scan, length " + length + ", single pass " + singlePass);
                    }
                } finally {
                    if (previous == null) {
                        System.clearProperty("jpai.scan.singlePass");
                    } else {
                        System.setProperty("jpai.scan.singlePass", previous);
                    }
                }
            }
        }
    }

    private static Object[] javaValues(PArray<?> array) {
        Object[] values = new Object[(int) array.length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i);
        }
        return values;
    }

    /** An exception in a map fused into a reduce or a scan is Java's, stage by stage. */
    @Test
    void anExceptionInAMapBeforeAReduceOrAScanIsJavas() {
        int length = 100_000;
        Function<Integer, Integer> first = x -> {
            if (x == 90_000) {
                throw new IllegalStateException("stage 1 at " + x);
            }
            return x + 1;
        };
        Function<Integer, Integer> second = x -> {
            if (x > 70_001) {
                throw new IllegalArgumentException("stage 2 at " + x);
            }
            return x * 2;
        };
        int[] values = new int[length];
        java.util.Arrays.setAll(values, i -> i);
        try (PArray<Integer> input = PArray.of(values)) {
            ArrayFunction<Integer, Integer> reduce = AF.map(first).map(second).reduce(Integer::sum, 0).on(Executor.ACCELERATOR);
            assertEquals("stage 1 at 90000", assertThrows(IllegalStateException.class, () -> reduce.apply(input).close()).getMessage());
            ArrayFunction<Integer, Integer> scan = AF.map(first).map(second).scan(Integer::sum, 0).on(Executor.ACCELERATOR);
            assertEquals("stage 1 at 90000", assertThrows(IllegalStateException.class, () -> scan.apply(input).close()).getMessage());
            ArrayFunction<Integer, Integer> secondOnly = AF.map((Integer x) -> x).map(second).scan(Integer::sum, 0).on(Executor.ACCELERATOR);
            assertEquals("stage 2 at 70002", assertThrows(IllegalArgumentException.class, () -> secondOnly.apply(input).close()).getMessage());
        }
    }

    @Test
    void aTupleStageAndAZipThenMaps() {
        int length = 100_003;
        float alpha = 2.5f;
        Function<Tuple2<Float, Float>, Float> saxpy = t -> alpha * t._1() + t._2();
        Function<Float, Tuple2<Float, Integer>> split = x -> new Tuple2<>(x * 0.5f, (int) (float) x);
        Function<Tuple2<Float, Integer>, Double> join = t -> t._1() + (double) t._2();
        try (PArray<Float> x = MapTest.cast(RandomData.of(ElementType.FLOAT, length, 1));
                        PArray<Float> y = MapTest.cast(RandomData.of(ElementType.FLOAT, length, 2));
                        PArray<Tuple2<Float, Float>> xy = PArray.zip(x, y)) {
            assertOneKernelAsJava(saxpy.andThen(split).andThen(join), AF.<Float, Float>zip2().map(saxpy).map(split).map(join), xy, "zip then three maps");
        }
    }

    @Test
    void anExceptionInTheSecondStageIsJavasStageByStage() {
        int length = 100_000;
        int bad = 70_001;
        // stage 1 fails at a later element than stage 2: Java's order runs stage 1 over every element
        // first, so its exception is stage 1's, although the fused kernel meets stage 2's first
        Function<Integer, Integer> first = x -> {
            if (x == 90_000) {
                throw new IllegalStateException("stage 1 at " + x);
            }
            return x + 1;
        };
        Function<Integer, Integer> second = x -> {
            if (x > bad) {
                throw new IllegalArgumentException("stage 2 at " + x);
            }
            return x * 2;
        };
        Function<Integer, Integer> third = x -> x - 3;
        int[] values = new int[length];
        java.util.Arrays.setAll(values, i -> i);
        try (PArray<Integer> input = PArray.of(values)) {
            ArrayFunction<Integer, Integer> pipeline = AF.map(first).map(second).map(third).on(Executor.ACCELERATOR);
            IllegalStateException stageOne = assertThrows(IllegalStateException.class, () -> pipeline.apply(input).close());
            assertEquals("stage 1 at 90000", stageOne.getMessage());

            // only the second stage fails: its first failing element, as Java gives it
            ArrayFunction<Integer, Integer> secondFails = AF.map(third).map(second).map(third).on(Executor.ACCELERATOR);
            Function<Integer, Integer> java = third.andThen(second).andThen(third);
            IllegalArgumentException expected = assertThrows(IllegalArgumentException.class, () -> ExecutorCase.javaLoop(java, input));
            IllegalArgumentException device = assertThrows(IllegalArgumentException.class, () -> secondFails.apply(input).close());
            assertEquals(expected.getMessage(), device.getMessage());
            assertEquals("stage 2 at " + (bad + 1), device.getMessage());
        }
    }

    @Test
    void withoutFusionEachMapIsItsOwnKernel() {
        Function<Float, Float> f = x -> x * 3f;
        Function<Float, Float> g = x -> x - 2f;
        Function<Float, Float> h = x -> x / 5f;
        try (PArray<Float> input = MapTest.cast(RandomData.of(ElementType.FLOAT, 4099, 3))) {
            System.setProperty("jpai.fusion", "false");
            try (PArray<Float> out = ExecutorCase.apply(AF.map(f, Float.class).map(g).map(h), Executor.ACCELERATOR, input)) {
                if (ExecutorCase.openCLExpected()) {
                    assertEquals(3, AF.lastProfile().kernelCount(), AF.lastProfile().toString());
                }
                assertSameAsJava(ExecutorCase.javaLoop(f.andThen(g).andThen(h), input), out, "unfused");
            } finally {
                System.clearProperty("jpai.fusion");
            }
        }
    }
}
