package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.Tuple8;
import jpai.TupleType;

/** Zipped arrays, tuples as inputs and as outputs, on every executor. */
class ZipAndTupleTest {

    private static final int SIZE = 30_000;

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void saxpyOverTwoZippedArrays(Executor executor) {
        float alpha = 2.5f;
        Function<Tuple2<Float, Float>, Float> saxpy = t -> alpha * t._1() + t._2();
        ArrayFunction<Tuple2<Float, Float>, Float> function = AF.<Float, Float>zip2().map(saxpy);
        try (PArray<Float> x = MapTest.cast(RandomData.of(ElementType.FLOAT, SIZE, 1));
                        PArray<Float> y = MapTest.cast(RandomData.of(ElementType.FLOAT, SIZE, 2));
                        PArray<Tuple2<Float, Float>> xy = PArray.zip(x, y);
                        PArray<Float> result = ExecutorCase.apply(function, executor, xy)) {
            assertSameAsJava(javaLoop(saxpy, xy), result, "saxpy on " + executor);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void eightZippedArraysOfEveryType(Executor executor) {
        Function<Tuple8<Byte, Short, Character, Integer, Long, Float, Double, Boolean>, Double> f = t -> t._8()
                        ? t._1() + t._2() * 3 + t._3() - (double) t._4() + t._5() / 2 + t._6() * t._7()
                        : (double) (t._4() ^ t._5());
        ElementType[] types = ElementType.values();
        PArray<?>[] columns = new PArray<?>[8];
        for (int i = 0; i < 8; i++) {
            columns[i] = RandomData.of(types[i], SIZE, 10 + i);
        }
        try (PArray<Tuple8<Byte, Short, Character, Integer, Long, Float, Double, Boolean>> zipped = PArray.zip(MapTest.<Byte>cast(columns[0]),
                        MapTest.<Short>cast(columns[1]), MapTest.<Character>cast(columns[2]), MapTest.<Integer>cast(columns[3]), MapTest.<Long>cast(columns[4]),
                        MapTest.<Float>cast(columns[5]), MapTest.<Double>cast(columns[6]), MapTest.<Boolean>cast(columns[7]));
                        PArray<Double> result = ExecutorCase.apply(AF.<Byte, Short, Character, Integer, Long, Float, Double, Boolean>zip8().map(f), executor, zipped)) {
            assertSameAsJava(javaLoop(f, zipped), result, "zip8 on " + executor);
        } finally {
            for (PArray<?> column : columns) {
                column.close();
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void tuplesComeOutOfLambdas(Executor executor) {
        Function<Integer, Tuple3<Integer, Float, Boolean>> split = x -> new Tuple3<>(x >> 3, x * 0.25f, (x & 1) == 0);
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 3));
                        PArray<Tuple3<Integer, Float, Boolean>> result = ExecutorCase.apply(AF.map(split), executor, input)) {
            assertEquals(TupleType.of(Integer.class, Float.class, Boolean.class), result.type());
            assertSameAsJava(javaLoop(split, input), result, "tuple results on " + executor);
            assertEquals(ElementType.FLOAT, result.component(1).type());
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void tuplesInAndOut(Executor executor) {
        Function<Tuple2<Double, Double>, Tuple2<Double, Double>> rotate = t -> new Tuple2<>(t._1() * 0.6 - t._2() * 0.8, t._1() * 0.8 + t._2() * 0.6);
        try (PArray<Double> x = MapTest.cast(RandomData.of(ElementType.DOUBLE, SIZE, 4));
                        PArray<Double> y = MapTest.cast(RandomData.of(ElementType.DOUBLE, SIZE, 5));
                        PArray<Tuple2<Double, Double>> points = PArray.zip(x, y);
                        PArray<Tuple2<Double, Double>> rotated = ExecutorCase.apply(AF.<Double, Double>zip2().map(rotate).map(rotate), executor, points)) {
            assertSameAsJava(javaLoop(rotate.andThen(rotate), points), rotated, "tuples in and out on " + executor);
        }
    }

    /**
     * A zip before a map checks its input (the map then reads the input itself, no view made per
     * apply) and never closes it; a zip alone returns a view whose close leaves the input open.
     */
    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aZipBeforeAMapChecksItsInputAndLeavesItOpen() {
        try (PArray<Float> plain = PArray.of(new float[] {1f, 2f}); PArray<Float> x = PArray.of(new float[] {1f, 2f}); PArray<Float> y = PArray.of(new float[] {3f, 4f});
                        PArray<Tuple2<Float, Float>> xy = PArray.zip(x, y)) {
            ArrayFunction<Tuple2<Float, Float>, Float> sum = AF.<Float, Float>zip2().map(t -> t._1() + t._2());
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ((ArrayFunction) sum).apply(plain));
            assertTrue(refused.getMessage().contains("zip2 expects a PArray of Tuple2"), refused.getMessage());
            for (int round = 0; round < 2; round++) {
                try (PArray<Float> out = sum.apply(xy)) {
                    assertEquals(4f, out.get(0));
                    assertEquals(6f, out.get(1));
                }
            }
            try (PArray<Tuple2<Float, Float>> view = AF.<Float, Float>zip2().apply(xy)) {
                assertEquals(3f, view.get(0)._2());
            }
            assertEquals(1f, xy.get(0)._1());
            assertEquals(4f, y.get(1));
        }
    }
}
