package jpai.test.api;

import static jpai.test.api.ExecutorCase.assertSameAsJava;
import static jpai.test.api.ExecutorCase.javaLoop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple;
import jpai.Tuple2;
import jpai.TupleType;

/**
 * The Java executors ({@link Executor#SEQUENTIAL}, {@link Executor#THREADS}) against plain Java
 * loops: every element type in and out of tuples of every arity, at sizes around the chunk size
 * (none, one, a chunk minus one, plus one, several chunks and a bit), and failures: the first
 * failing element's exception, unwrapped, null and wrongly typed results with their messages.
 */
class JavaExecutorsTest {

    private static final Executor[] JAVA = {Executor.SEQUENTIAL, Executor.THREADS};

    /**
     * Sizes around the chunk boundaries: below 16384 elements chunks have their minimum size,
     * 4096, on any number of cores (a few chunks per core).
     */
    private static final int[] SIZES = {1, 4095, 4096, 4097, 3 * 4096 + 7};

    static Stream<Executor> executors() {
        return Stream.of(JAVA);
    }

    static Stream<Arguments> everyTypeOnBothExecutors() {
        List<Arguments> cases = new ArrayList<>();
        for (Executor executor : JAVA) {
            for (ElementType type : ElementType.values()) {
                cases.add(Arguments.of(executor, type));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("everyTypeOnBothExecutors")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void everyTypeIntoATupleAndBackAtEverySize(Executor executor, ElementType type) {
        Function f = MapTest.functionFor(type);
        Function<Object, Tuple2<Object, Integer>> pair = x -> new Tuple2<>(f.apply(x), x.hashCode() * 31);
        Function<Tuple2<Object, Integer>, Object> first = Tuple2::_1;
        for (int size : SIZES) {
            try (PArray input = RandomData.of(type, size, size + type.ordinal());
                            PArray mapped = ExecutorCase.apply(AF.map(f), executor, input);
                            PArray<Tuple2<Object, Integer>> pairs = ExecutorCase.apply(AF.map(pair), executor, (PArray<Object>) input);
                            PArray<Object> firsts = ExecutorCase.apply(AF.map(first), executor, pairs)) {
                String what = type + " x " + size + " on " + executor;
                assertSameAsJava(javaLoop(f, input), mapped, what);
                assertEquals(TupleType.of(type.boxClass(), Integer.class), pairs.type(), what);
                assertSameAsJava(javaLoop(pair, (PArray<Object>) input), pairs, "into tuples, " + what);
                assertSameAsJava(javaLoop(f, input), firsts, "out of tuples, " + what);
            }
        }
    }

    static Stream<Arguments> everyArityOnBothExecutors() {
        List<Arguments> cases = new ArrayList<>();
        for (Executor executor : JAVA) {
            for (int arity = 2; arity <= 8; arity++) {
                cases.add(Arguments.of(executor, arity));
            }
        }
        return cases.stream();
    }

    /** Tuples of every arity in and out; the components reversed, so every type lands in every position. */
    @ParameterizedTest(name = "Tuple{1} on {0}")
    @MethodSource("everyArityOnBothExecutors")
    void tuplesOfEveryArityInAndOut(Executor executor, int arity) {
        ElementType[] types = ElementType.values();
        PArray<?>[] columns = new PArray<?>[arity];
        int size = 2 * 4096 + 1;
        for (int i = 0; i < arity; i++) {
            columns[i] = RandomData.of(types[(i + arity) % types.length], size, 100 * arity + i);
        }
        Function<Tuple, Tuple> reverse = t -> {
            Object[] reversed = new Object[t.arity()];
            for (int i = 0; i < reversed.length; i++) {
                reversed[i] = t.get(reversed.length - 1 - i);
            }
            return Tuple.of(reversed);
        };
        try (PArray<Tuple> zipped = zip(columns); PArray<Tuple> result = ExecutorCase.apply(AF.map(reverse), executor, zipped)) {
            assertSameAsJava(javaLoop(reverse, zipped), result, "Tuple" + arity + " on " + executor);
        } finally {
            for (PArray<?> column : columns) {
                column.close();
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void emptyInputGivesEmptyOutputAndTheIdentity(Executor executor) {
        try (PArray<Float> empty = PArray.of(new float[0]);
                        PArray<Tuple2<Float, Long>> mapped = ExecutorCase.apply(AF.map((Float x) -> new Tuple2<>(x, 1L), TupleType.of(Float.class, Long.class)), executor, empty);
                        PArray<Float> sum = ExecutorCase.apply(AF.reduce(Float::sum, -3f), executor, empty)) {
            assertEquals(0, mapped.length());
            assertEquals(-3f, sum.get(0));
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void reducesEverySizeInTheOneCombiningOrder(Executor executor) {
        BinaryOperator<Float> sum = Float::sum;
        BinaryOperator<Long> mix = (a, b) -> a * 31 + b; // not associative: shows the order of the fold
        for (int size : SIZES) {
            try (PArray<Float> floats = MapTest.cast(RandomData.of(ElementType.FLOAT, size, size));
                            PArray<Long> longs = MapTest.cast(RandomData.of(ElementType.LONG, size, size + 1));
                            PArray<Float> floatSum = ExecutorCase.apply(AF.reduce(sum, 0f), executor, floats);
                            PArray<Long> mixed = ExecutorCase.apply(AF.reduce(mix, 7L), executor, longs)) {
                assertEquals(CombiningOrder.fold(sum, 0f, floats), floatSum.get(0), "float sum of " + size + " on " + executor);
                assertEquals(CombiningOrder.fold(mix, 7L, longs), mixed.get(0), "long fold of " + size + " on " + executor);
            }
        }
    }

    /** Elements 0..n-1, so that a lambda can fail at chosen elements. */
    private static PArray<Integer> indices(int n) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        return PArray.of(values);
    }

    /** Thrown by the lambdas below, to tell their exceptions from the runtime's. */
    static final class ElementFailure extends RuntimeException {
        final int element;

        ElementFailure(int element) {
            super("element " + element);
            this.element = element;
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void theFirstFailingElementsExceptionIsThrownAsItIs(Executor executor) {
        Map<Integer, ElementFailure> thrown = new ConcurrentHashMap<>();
        AtomicLong calls = new AtomicLong();
        Function<Integer, Float> f = x -> {
            calls.incrementAndGet();
            if (x == 4100 || x == 9000 || x == 20_000) {
                ElementFailure failure = new ElementFailure(x);
                thrown.put(x, failure);
                throw failure;
            }
            return x * 0.5f;
        };
        try (PArray<Integer> input = indices(5 * 4096 + 3)) {
            ElementFailure failure = assertThrows(ElementFailure.class, () -> ExecutorCase.apply(AF.map(f, Float.class), executor, input).close());
            assertEquals(4100, failure.element);
            assertSame(thrown.get(4100), failure, "the lambda's own exception object, not a copy or a wrapper");
            assertNull(failure.getCause());
            if (executor == Executor.SEQUENTIAL) {
                assertEquals(4101, calls.get(), "the sequential loop stops at the failing element");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void anEarlierNullResultWinsOverALaterException(Executor executor) {
        Function<Integer, Float> f = x -> {
            if (x == 12_000) {
                throw new ElementFailure(x);
            }
            return x == 9000 || x == 15_000 ? null : 1f;
        };
        try (PArray<Integer> input = indices(4 * 4096 + 1)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> ExecutorCase.apply(AF.map(f, Float.class), executor, input).close());
            assertEquals("the mapped function returned null for element 9000; PArray elements cannot be null", e.getMessage());
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void anEarlierExceptionWinsOverALaterNullResult(Executor executor) {
        Function<Integer, Float> f = x -> {
            if (x == 5000) {
                throw new ElementFailure(x);
            }
            return x == 9000 ? null : 1f;
        };
        try (PArray<Integer> input = indices(4 * 4096 + 1)) {
            assertEquals(5000, assertThrows(ElementFailure.class, () -> ExecutorCase.apply(AF.map(f, Float.class), executor, input).close()).element);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void resultsOfAnotherTypeAreRejectedWithPutsMessage(Executor executor) {
        Function scalar = (Function<Integer, Object>) x -> x == 7000 ? (Object) x : (Object) (float) x;
        Function tuple = (Function<Integer, Object>) x -> new Tuple2<>((float) x, x == 6000 ? (Object) 1f : (Object) x);
        try (PArray<Integer> input = indices(3 * 4096)) {
            ClassCastException e = assertThrows(ClassCastException.class, () -> ExecutorCase.apply(AF.map(scalar, Float.class), executor, input).close());
            assertEquals("a PArray<Float> cannot hold a Integer", e.getMessage());
            e = assertThrows(ClassCastException.class, () -> ExecutorCase.apply(AF.map(tuple, TupleType.of(Float.class, Integer.class)), executor, input).close());
            assertEquals("a PArray<Tuple2<Float, Integer>> cannot hold a Tuple2<Float, Float>", e.getMessage());
            e = assertThrows(ClassCastException.class, () -> ExecutorCase.apply(AF.map(scalar, TupleType.of(Float.class, Integer.class)), executor, input).close());
            assertEquals("a PArray<Tuple2<Float, Integer>> cannot hold a Float", e.getMessage());
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void aNullFromTheReduceOperatorIsRejected(Executor executor) {
        BinaryOperator<Integer> op = (a, b) -> b == 10_000 ? null : a + b;
        try (PArray<Integer> input = indices(3 * 4096)) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> ExecutorCase.apply(AF.reduce(op, 0), executor, input).close());
            assertEquals("the reduce operator returned null; PArray elements cannot be null", e.getMessage());
        }
    }

    /** The lambda throws at an element of the first chunk and of every later one; an Error goes through unwrapped too. */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void errorsFromReducesPropagateFromTheFirstFailingElement(Executor executor) {
        BinaryOperator<Integer> op = (a, b) -> {
            if (b % 4096 == 100) {
                throw new AssertionError("element " + b);
            }
            return a ^ b;
        };
        try (PArray<Integer> input = indices(4 * 4096)) {
            AssertionError e = assertThrows(AssertionError.class, () -> ExecutorCase.apply(AF.reduce(op, 0), executor, input).close());
            assertEquals("element 100", e.getMessage());
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static PArray<Tuple> zip(PArray[] c) {
        return (PArray<Tuple>) (PArray<?>) switch (c.length) {
            case 2 -> PArray.zip(c[0], c[1]);
            case 3 -> PArray.zip(c[0], c[1], c[2]);
            case 4 -> PArray.zip(c[0], c[1], c[2], c[3]);
            case 5 -> PArray.zip(c[0], c[1], c[2], c[3], c[4]);
            case 6 -> PArray.zip(c[0], c[1], c[2], c[3], c[4], c[5]);
            case 7 -> PArray.zip(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
            case 8 -> PArray.zip(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
            default -> throw new IllegalArgumentException("arity " + c.length);
        };
    }
}
