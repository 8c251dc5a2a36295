package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;

/** Lambdas that capture scalars, wrappers, Java arrays and PArrays from their scope, on every executor. */
class CapturedValuesTest {

    private static final int SIZE = 20_000;

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void capturedScalarsAndWrappers(Executor executor) {
        float scale = 1.5f;
        double offset = -0.25;
        Integer mask = 0xff;
        long big = 1L << 40;
        Function<Integer, Double> f = x -> (x & mask) * scale + offset + (x + big) % 3;
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 1)); PArray<Double> output = ExecutorCase.apply(AF.map(f), executor, input)) {
            assertSameAsJava(javaLoop(f, input), output, "captured scalars on " + executor);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void capturedArrayIsReadAtEachApply(Executor executor) {
        float[] table = new float[16];
        for (int i = 0; i < table.length; i++) {
            table[i] = i * 0.5f;
        }
        Function<Integer, Float> lookup = x -> table[x & 15] * table.length;
        ArrayFunction<Integer, Float> map = AF.map(lookup);
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 2))) {
            try (PArray<Float> output = ExecutorCase.apply(map, executor, input)) {
                assertSameAsJava(javaLoop(lookup, input), output, "captured array on " + executor);
            }
            table[3] = -100f; // the lambda sees the array, not a copy made when it was built
            try (PArray<Float> output = ExecutorCase.apply(map, executor, input)) {
                assertSameAsJava(javaLoop(lookup, input), output, "changed captured array on " + executor);
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void capturedPArray(Executor executor) {
        try (PArray<Double> weights = MapTest.cast(RandomData.of(ElementType.DOUBLE, 64, 3)); PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, SIZE, 4))) {
            Function<Integer, Double> weigh = x -> weights.get((x & 0x7fffffff) % weights.length()) * 2.0;
            try (PArray<Double> output = ExecutorCase.apply(AF.map(weigh), executor, input)) {
                assertSameAsJava(javaLoop(weigh, input), output, "captured PArray on " + executor);
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void capturedPArrayIndexOutOfRangeThrowsAsInJava(Executor executor) {
        try (PArray<Float> table = PArray.of(1f, 2f, 3f); PArray<Integer> input = PArray.of(0, 1, 2, 3, 1)) {
            Function<Integer, Float> lookup = i -> table.get(i) + 0.5f;
            assertThrows(IndexOutOfBoundsException.class, () -> ExecutorCase.apply(AF.map(lookup, Float.class), executor, input).close(),
                            "element 3 is outside the captured PArray on " + executor);
        }
    }
}
