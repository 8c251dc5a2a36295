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
 * Maps in a row run as one kernel (the pipeline's fused maps): Java's results, one kernel launch
 * for the whole pipeline where a device is promised, and after an exception in any stage the
 * exception Java's stage-by-stage order gives.
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

    @Test
    void mapsThenAReduceRunTheMapsBeforeTheLastAsOneKernel() {
        int mask = 0xffff;
        Function<Integer, Integer> f = x -> x & mask;
        Function<Integer, Integer> g = x -> x * 3 - 1;
        Function<Integer, Integer> h = x -> x ^ (x >>> 5);
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, 100_001, 4));
                        PArray<Integer> sum = ExecutorCase.apply(AF.map(f).map(g).map(h).reduce(Integer::sum, 0), Executor.ACCELERATOR, input)) {
            ApplyProfile profile = AF.lastProfile();
            if (ExecutorCase.openCLExpected()) {
                // the fused map of f and g, then h fused into the reduction (its passes)
                assertTrue(!profile.fellBack() && profile.kernelCount() >= 2, profile.toString());
            }
            int expected = 0;
            for (int i = 0; i < input.length(); i++) {
                expected += f.andThen(g).andThen(h).apply(input.get(i));
            }
            assertEquals(expected, sum.get(0));
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
