package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple4;

/**
 * Reductions give the sequential fold's result for every associative operator, commutative or not,
 * on every executor (issue 11: the device combined operands out of order), for every length; and a
 * float reduction has the same bits on every executor and work-group size (one combining tree, see
 * docs/java-semantics.md, "Reductions"). Each operator below is associative with a neutral identity
 * but not commutative, so any reordering shows.
 */
class OrderedReductionTest {

    private static final int[] LENGTHS = {1, 2, 15, 16, 17, 1023, 1025, 4097, (1 << 20) + 3};

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    /** The sequential fold from the identity: Java's own answer. */
    private static <T> T fold(BinaryOperator<T> op, T identity, PArray<T> input) {
        T result = identity;
        for (long i = 0; i < input.length(); i++) {
            result = op.apply(result, input.get(i));
        }
        return result;
    }

    private static <T> T reduceOn(ArrayFunction<T, T> reduce, Executor executor, PArray<T> input) {
        try (PArray<T> result = ExecutorCase.apply(reduce, executor, input)) {
            assertEquals(1, result.length());
            return result.get(0);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void firstNonZero(Executor executor) {
        BinaryOperator<Integer> firstNonZero = (p, q) -> p != 0 ? p : q;
        Random random = new Random(11);
        for (int n : LENGTHS) {
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(10) == 0 ? random.nextInt(1000) + 1 : 0;
            }
            try (PArray<Integer> input = PArray.of(values)) {
                assertEquals(fold(firstNonZero, 0, input), reduceOn(AF.reduce(firstNonZero, 0), executor, input), n + " ints");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void productsOf2x2Matrices(Executor executor) {
        BinaryOperator<Tuple4<Integer, Integer, Integer, Integer>> product = (a, b) -> new Tuple4<>(a._1() * b._1() + a._2() * b._3(), a._1() * b._2() + a._2() * b._4(),
                        a._3() * b._1() + a._4() * b._3(), a._3() * b._2() + a._4() * b._4());
        Tuple4<Integer, Integer, Integer, Integer> identity = new Tuple4<>(1, 0, 0, 1);
        Random random = new Random(12);
        for (int n : new int[] {1, 2, 17, 1025, 100_003}) {
            try (PArray<Integer> a = PArray.of(ints(random, n, 5)); PArray<Integer> b = PArray.of(ints(random, n, 5)); PArray<Integer> c = PArray.of(ints(random, n, 5));
                            PArray<Integer> d = PArray.of(ints(random, n, 5)); PArray<Tuple4<Integer, Integer, Integer, Integer>> input = PArray.zip(a, b, c, d)) {
                assertEquals(fold(product, identity, input), reduceOn(AF.reduce(product, identity), executor, input), n + " matrices");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void compositionOfAffineMapsAfterAMap(Executor executor) {
        // (a, b) is x -> a * x + b; compose f then g
        BinaryOperator<Tuple2<Long, Long>> then = (f, g) -> new Tuple2<>(f._1() * g._1(), g._1() * f._2() + g._2());
        Tuple2<Long, Long> identity = new Tuple2<>(1L, 0L);
        Function<Integer, Tuple2<Long, Long>> affine = x -> new Tuple2<>((long) (x % 7) - 3, (long) x * 31);
        Random random = new Random(13);
        for (int n : LENGTHS) {
            try (PArray<Integer> input = PArray.of(ints(random, n, 1000))) {
                Tuple2<Long, Long> expected = identity;
                for (long i = 0; i < n; i++) {
                    expected = then.apply(expected, affine.apply(input.get(i)));
                }
                ArrayFunction<Integer, Tuple2<Long, Long>> mapThenReduce = AF.map(affine).reduce(then, identity);
                try (PArray<Tuple2<Long, Long>> result = ExecutorCase.apply(mapThenReduce, executor, input)) {
                    assertEquals(expected, result.get(0), n + " maps");
                }
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void polynomialHashOfAConcatenation(Executor executor) {
        // (hash, 31^length) of a string; the hash of a concatenation
        BinaryOperator<Tuple2<Integer, Integer>> concat = (a, b) -> new Tuple2<>(a._1() * b._2() + b._1(), a._2() * b._2());
        Random random = new Random(14);
        for (int n : new int[] {1, 2, 1023, 1025, (1 << 20) + 3}) {
            int[] chars = ints(random, n, 128);
            for (int i = 0; i < n; i++) {
                chars[i] = Math.floorMod(chars[i], 128); // char values, as String.hashCode sees them
            }
            int[] powers = new int[n];
            java.util.Arrays.fill(powers, 31);
            try (PArray<Integer> c = PArray.of(chars); PArray<Integer> p = PArray.of(powers); PArray<Tuple2<Integer, Integer>> input = PArray.zip(c, p)) {
                StringBuilder text = new StringBuilder();
                for (int ch : chars) {
                    text.append((char) ch);
                }
                Tuple2<Integer, Integer> result = reduceOn(AF.reduce(concat, new Tuple2<>(0, 1)), executor, input);
                assertEquals(text.toString().hashCode(), result._1(), n + " chars: String.hashCode");
                assertEquals(fold(concat, new Tuple2<>(0, 1), input), result);
            }
        }
    }

    /**
     * The device's last pass leaves at most 1,024 work-group values, which the host combines in the
     * tree's order (DeviceReduce): lengths whose first pass leaves 1,024 and 1,025 groups of 256
     * work-items (then a second pass), and a loop in the mapper (groups of 16 leaves, one element a
     * work-item). A non-commutative operator shows any reordering; a float sum, any other tree.
     */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void theWorkGroupsValuesCombinedOnTheHostKeepTheTree(Executor executor) {
        BinaryOperator<Tuple2<Integer, Integer>> concat = (a, b) -> new Tuple2<>(a._1() * b._2() + b._1(), a._2() * b._2());
        Random random = new Random(17);
        for (int n : new int[] {4096 * 1024, 4096 * 1024 + 1, 256 * 1024 + 1}) {
            int[] chars = ints(random, n, 128);
            int[] powers = new int[n];
            java.util.Arrays.fill(powers, 31);
            float[] floats = new float[n];
            for (int i = 0; i < n; i++) {
                floats[i] = random.nextFloat() * (i % 3 == 0 ? 1e6f : 1f);
            }
            try (PArray<Integer> c = PArray.of(chars); PArray<Integer> p = PArray.of(powers); PArray<Tuple2<Integer, Integer>> input = PArray.zip(c, p);
                            PArray<Float> values = PArray.of(floats)) {
                assertEquals(fold(concat, new Tuple2<>(0, 1), input), reduceOn(AF.reduce(concat, new Tuple2<>(0, 1)), executor, input), n + " chars");
                BinaryOperator<Float> sum = (a, b) -> a + b;
                Float sequentialTree = reduceOn(AF.reduce(sum, 0f), Executor.SEQUENTIAL, values);
                assertEquals(sequentialTree, reduceOn(AF.reduce(sum, 0f), executor, values), n + " floats: the tree's bits");
                // a mapper with a loop: its first pass maps one element per work-item
                ArrayFunction<Float, Float> looped = AF.map((Float x) -> {
                    float y = x;
                    for (int k = 0; k < (int) (x % 3f); k++) {
                        y = y * 0.5f + 1f;
                    }
                    return y;
                }).reduce(sum, 0f);
                try (PArray<Float> expected = ExecutorCase.apply(looped, Executor.SEQUENTIAL, values); PArray<Float> actual = ExecutorCase.apply(looped, executor, values)) {
                    assertEquals(expected.get(0), actual.get(0), n + " floats mapped with a loop: the tree's bits");
                }
            }
        }
    }

    /**
     * Issue 19 item 9: a combiner that returns one of its tuple arguments (argmax) was refused on the
     * device ("ValuePhiNode"); ties keep the first index, so the order shows too.
     */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void argmaxWithTiesKeepsTheFirstIndex(Executor executor) {
        BinaryOperator<Tuple2<Float, Integer>> argmax = (a, b) -> b._1() > a._1() ? b : a;
        Tuple2<Float, Integer> identity = new Tuple2<>(Float.NEGATIVE_INFINITY, -1);
        Random random = new Random(16);
        for (int n : LENGTHS) {
            float[] values = new float[n];
            int[] indices = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(50); // many ties
                indices[i] = i;
            }
            try (PArray<Float> v = PArray.of(values); PArray<Integer> i = PArray.of(indices); PArray<Tuple2<Float, Integer>> input = PArray.zip(v, i)) {
                assertEquals(fold(argmax, identity, input), reduceOn(AF.reduce(argmax, identity), executor, input), n + " values");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void theSameFloatBitsForEveryWorkGroupSize(Executor executor) {
        Random random = new Random(15);
        for (int n : LENGTHS) {
            float[] values = new float[n];
            for (int i = 0; i < n; i++) {
                values[i] = (random.nextFloat() - 0.3f) * (float) Math.pow(10, random.nextInt(7) - 3);
            }
            try (PArray<Float> input = PArray.of(values)) {
                BinaryOperator<Float> sum = (a, b) -> a + b;
                float reference = reduceOn(AF.reduce(sum, 0f), Executor.SEQUENTIAL, input);
                for (long workGroup : new long[] {2, 64, 256, 1024}) {
                    float got = withWorkGroup(workGroup, () -> reduceOn(AF.reduce(sum, 0f), executor, input));
                    assertEquals(Float.floatToRawIntBits(reference), Float.floatToRawIntBits(got), n + " floats, work-group " + workGroup + ": " + got + " vs " + reference);
                }
                // and the tree is the documented one: leaves of 16 folded from 0, aligned pairs above
                assertEquals(Float.floatToRawIntBits(CombiningOrder.fold(sum, 0f, input)), Float.floatToRawIntBits(reference), n + " floats: the documented tree");
            }
        }
    }

    /**
     * A map whose lambda has a loop, then a float sum: the device maps one element per work-item
     * (a work-group then holds fewer leaves, docs/java-semantics.md, "Reductions"), and the bits
     * are still the documented tree's, for every work-group size (2 and 8 are smaller than a leaf,
     * so each work-item maps several elements), and the sequential fold's for a non-commutative
     * operator after such a map.
     */
    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void aMapperWithALoopKeepsTheTreeForEveryWorkGroupSize(Executor executor) {
        Random random = new Random(16);
        Function<Float, Float> powers = x -> {
            float term = 1f;
            float sum = 0f;
            for (int k = 0; k < 5; k++) {
                sum += term;
                term *= x;
            }
            return sum;
        };
        for (int n : LENGTHS) {
            float[] values = new float[n];
            for (int i = 0; i < n; i++) {
                values[i] = (random.nextFloat() - 0.5f) * 3f;
            }
            try (PArray<Float> input = PArray.of(values); PArray<Float> mapped = AF.map(powers).on(Executor.SEQUENTIAL).apply(input)) {
                BinaryOperator<Float> sum = (a, b) -> a + b;
                float tree = CombiningOrder.fold(sum, 0f, mapped);
                for (long workGroup : new long[] {2, 8, 16, 64, 256, 1024}) {
                    float got = withWorkGroup(workGroup, () -> reduceOn(AF.map(powers).reduce(sum, 0f), executor, input));
                    assertEquals(Float.floatToRawIntBits(tree), Float.floatToRawIntBits(got), n + " floats, work-group " + workGroup + ": " + got + " vs " + tree);
                }
            }
            int[] ints = ints(random, n, 1000);
            try (PArray<Integer> input = PArray.of(ints)) {
                // digit sums (a loop), then "the first non-zero": not commutative
                Function<Integer, Integer> digitSum = v -> {
                    int left = Math.abs(v);
                    int total = 0;
                    while (left > 0) {
                        total += left % 10;
                        left /= 10;
                    }
                    return v % 3 == 0 ? 0 : total;
                };
                BinaryOperator<Integer> firstNonZero = (p, q) -> p != 0 ? p : q;
                int expected = 0;
                for (int v : ints) {
                    expected = firstNonZero.apply(expected, digitSum.apply(v));
                }
                assertEquals(expected, reduceOn(AF.map(digitSum).reduce(firstNonZero, 0), executor, input), n + " ints");
            }
        }
    }

    /** {@code reduction}'s value with {@code -Djpai.reduce.workGroup=size}, the property restored after. */
    private static <T> T withWorkGroup(long size, java.util.function.Supplier<T> reduction) {
        String previous = System.getProperty("jpai.reduce.workGroup");
        System.setProperty("jpai.reduce.workGroup", Long.toString(size));
        try {
            return reduction.get();
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.reduce.workGroup");
            } else {
                System.setProperty("jpai.reduce.workGroup", previous);
            }
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
