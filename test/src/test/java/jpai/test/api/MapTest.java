package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;

/** {@code AF.map} on every element type and every executor, against a plain Java loop on random data. */
class MapTest {

    private static final int SIZE = 50_000;

    /** One function per element type, with the arithmetic Java defines exactly for it. */
    static Function<?, ?> functionFor(ElementType type) {
        return switch (type) {
            case BYTE -> (Byte b) -> (byte) (b * 3 + 1);
            case SHORT -> (Short s) -> (short) ((s ^ 0x5a5a) - 7);
            case CHAR -> (Character c) -> (char) (c * 7 + 1);
            case INT -> (Integer x) -> x * 0x9e3779b1 + (x >>> 7);
            case LONG -> (Long x) -> x * 31 + (x >> 5);
            case FLOAT -> (Float x) -> x * 0.5f - 3f;
            case DOUBLE -> (Double x) -> x * x - 1.0 / 3.0;
            case BOOLEAN -> (Boolean b) -> !b;
        };
    }

    static Stream<Arguments> everyTypeOnEveryExecutor() {
        List<Arguments> cases = new ArrayList<>();
        for (Executor executor : ExecutorCase.ALL) {
            for (ElementType type : ElementType.values()) {
                cases.add(Arguments.of(executor, type));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("everyTypeOnEveryExecutor")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void mapsEveryElementTypeAsJavaDoes(Executor executor, ElementType type) {
        Function f = functionFor(type);
        try (PArray input = RandomData.of(type, SIZE, type.ordinal()); PArray output = ExecutorCase.apply(AF.map(f), executor, input)) {
            assertEquals(type, output.elementType());
            assertSameAsJava(javaLoop(f, input), output, type + " map on " + executor);
        }
    }

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void changesTheElementType(Executor executor) {
        Function<Integer, Double> f = x -> x / 7.0 + (x & 3);
        try (PArray<Integer> input = cast(RandomData.of(ElementType.INT, SIZE, 5)); PArray<Double> output = ExecutorCase.apply(AF.map(f), executor, input)) {
            assertEquals(ElementType.DOUBLE, output.elementType());
            assertSameAsJava(javaLoop(f, input), output, "int to double on " + executor);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void oneFunctionAppliesToThreeInputsOfDifferentSizes(Executor executor) {
        Function<Float, Float> f = x -> x * x + 1f;
        ArrayFunction<Float, Float> map = AF.map(f);
        for (int size : new int[] {1, 1000, 77_777}) {
            try (PArray<Float> input = cast(RandomData.of(ElementType.FLOAT, size, size)); PArray<Float> output = ExecutorCase.apply(map, executor, input)) {
                assertSameAsJava(javaLoop(f, input), output, size + " floats on " + executor);
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void composesWithAndThenAndCompose(Executor executor) {
        Function<Float, Float> f = x -> x * 3f;
        Function<Float, Integer> g = x -> (int) (float) x;
        Function<Integer, Long> h = x -> (long) x * x;
        ArrayFunction<Float, Long> composed = AF.map(f).andThen(AF.map(g)).andThen(AF.map(h));
        ArrayFunction<Float, Long> composedTheOtherWay = AF.map(h).compose(AF.map(g)).compose(AF.map(f));
        ArrayFunction<Float, Long> chained = AF.map(f).map(g).map(h);
        try (PArray<Float> input = cast(RandomData.of(ElementType.FLOAT, SIZE, 9))) {
            Object[] expected = javaLoop(f.andThen(g).andThen(h), input);
            for (ArrayFunction<Float, Long> function : List.of(composed, composedTheOtherWay, chained)) {
                try (PArray<Long> output = ExecutorCase.apply(function, executor, input)) {
                    assertSameAsJava(expected, output, "three maps on " + executor);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    static <T> PArray<T> cast(PArray<?> array) {
        return (PArray<T>) array;
    }
}
