package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import jpai.AF;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * {@code AF.reduce} on every executor. Integer reductions must equal a sequential loop exactly
 * (integer addition wraps and is associative); floating-point sums are combined in a different order
 * and are checked within a rounding bound derived from the data.
 */
class ReduceTest {

    static Stream<Executor> executors() {
        return Stream.of(ExecutorCase.ALL);
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void integerSumsAndMaximaAreExact(Executor executor) {
        for (int size : new int[] {0, 1, 999, 100_003}) {
            try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, size, size));
                            PArray<Integer> sum = ExecutorCase.apply(AF.reduce((Integer a, Integer b) -> a + b, 0), executor, input);
                            PArray<Integer> max = ExecutorCase.apply(AF.reduce((Integer a, Integer b) -> Math.max(a, b), Integer.MIN_VALUE), executor, input)) {
                int expectedSum = 0;
                int expectedMax = Integer.MIN_VALUE;
                for (int value : input.toIntArray()) {
                    expectedSum += value;
                    expectedMax = Math.max(expectedMax, value);
                }
                assertEquals(1, sum.length());
                assertEquals(expectedSum, sum.get(0), size + " ints on " + executor);
                assertEquals(expectedMax, max.get(0), size + " ints on " + executor);
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void longAndCharacterReductions(Executor executor) {
        try (PArray<Long> longs = MapTest.cast(RandomData.of(ElementType.LONG, 70_000, 1));
                        PArray<Long> xor = ExecutorCase.apply(AF.reduce((Long a, Long b) -> a ^ b, 0L), executor, longs)) {
            long expected = 0;
            for (long value : longs.toLongArray()) {
                expected ^= value;
            }
            assertEquals(expected, xor.get(0));
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void floatSumIsWithinRoundingOfTheSequentialSum(Executor executor) {
        int size = 200_000;
        float[] values = new float[size];
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < size; i++) {
            values[i] = random.nextFloat();
        }
        try (PArray<Float> input = PArray.of(values); PArray<Float> sum = ExecutorCase.apply(AF.reduce((Float a, Float b) -> a + b, 0f), executor, input)) {
            double exact = 0;
            for (float value : values) {
                exact += value;
            }
            // Any summation order of n non-negative floats is within (n - 1) * 2^-24 * sum of the exact sum.
            assertEquals(exact, sum.get(0), (size - 1) * 0x1p-24 * exact, "float sum on " + executor);
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void mapThenReduceIsADotProduct(Executor executor) {
        Function<Tuple2<Integer, Integer>, Integer> multiply = t -> t._1() * t._2();
        BinaryOperator<Integer> add = (a, b) -> a + b;
        try (PArray<Integer> x = MapTest.cast(RandomData.of(ElementType.INT, 65_536, 2)); PArray<Integer> y = MapTest.cast(RandomData.of(ElementType.INT, 65_536, 3));
                        PArray<Tuple2<Integer, Integer>> xy = PArray.zip(x, y);
                        PArray<Integer> dot = ExecutorCase.apply(AF.<Integer, Integer>zip2().map(multiply).reduce(add, 0), executor, xy)) {
            int expected = 0;
            for (int i = 0; i < 65_536; i++) {
                expected += x.get(i) * y.get(i);
            }
            assertEquals(expected, dot.get(0));
        }
    }

    @ParameterizedTest(name = "on {0}")
    @MethodSource("executors")
    void reducesTuples(Executor executor) {
        // Sum and count at once: the K-Means centroid update's shape.
        BinaryOperator<Tuple2<Long, Integer>> sumAndCount = (a, b) -> new Tuple2<>(a._1() + b._1(), a._2() + b._2());
        Function<Integer, Tuple2<Long, Integer>> pair = x -> new Tuple2<>((long) x, 1);
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, 50_001, 4));
                        PArray<Tuple2<Long, Integer>> result = ExecutorCase.apply(AF.map(pair).reduce(sumAndCount, new Tuple2<>(0L, 0)), executor, input)) {
            long sum = 0;
            for (int value : input.toIntArray()) {
                sum += value;
            }
            assertEquals(new Tuple2<>(sum, 50_001), result.get(0));
        }
    }

    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void mapThenReduceRunsAsOneKernelWithNoIntermediateArray() {
        Function<Integer, Long> square = x -> (long) x * x;
        try (PArray<Integer> input = MapTest.cast(RandomData.of(ElementType.INT, 100_000, 8));
                        PArray<Long> sum = ExecutorCase.apply(AF.map(square).reduce((a, b) -> a + b, 0L), Executor.ACCELERATOR, input)) {
            long expected = 0;
            for (int value : input.toIntArray()) {
                expected += (long) value * value;
            }
            assertEquals(expected, sum.get(0));
            jpai.ApplyProfile profile = AF.lastProfile();
            // One kernel, the fused first pass (100,000 elements: 6,250 leaves, at most 98 work-groups
            // of 64 or more, so no pass over partial results: the host combines at most 1,024 groups'
            // values, DeviceReduce); no separate map kernel.
            org.junit.jupiter.api.Assertions.assertTrue(profile.kernelCount() == 1 && !profile.fellBack(), profile.toString());
            // Only the work-groups' values and the status words came back: the squares were never stored.
            org.junit.jupiter.api.Assertions.assertTrue(profile.deviceToHostBytes() <= 8 * 98 + 8 * 2, profile.toString());
            // Only the input (and the kernel's status words) went to the device: the squares were never stored.
            org.junit.jupiter.api.Assertions.assertTrue(profile.hostToDeviceBytes() <= 100_000 * 4L + 8, profile.toString());
        }
    }

    /** One associative operator and its identity per element type, each exact in Java's arithmetic. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object[] operatorFor(ElementType type) {
        return switch (type) {
            case BYTE -> new Object[] {(BinaryOperator<Byte>) (a, b) -> (byte) (a + b), (byte) 0};
            case SHORT -> new Object[] {(BinaryOperator<Short>) (a, b) -> (short) (a ^ b), (short) 0};
            case CHAR -> new Object[] {(BinaryOperator<Character>) (a, b) -> (char) Math.max(a, b), (char) 0};
            case INT -> new Object[] {(BinaryOperator<Integer>) (a, b) -> a * b, 1};
            case LONG -> new Object[] {(BinaryOperator<Long>) (a, b) -> Math.min(a, b), Long.MAX_VALUE};
            case FLOAT -> new Object[] {(BinaryOperator<Float>) (a, b) -> Math.max(a, b), Float.NEGATIVE_INFINITY};
            case DOUBLE -> new Object[] {(BinaryOperator<Double>) (a, b) -> Math.min(a, b), Double.POSITIVE_INFINITY};
            case BOOLEAN -> new Object[] {(BinaryOperator<Boolean>) (a, b) -> a ^ b, false};
        };
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> everyTypeOnEveryExecutor() {
        return MapTest.everyTypeOnEveryExecutor();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("everyTypeOnEveryExecutor")
    @SuppressWarnings({"unchecked", "rawtypes"})
    void reducesEveryElementTypeAsJavaDoes(Executor executor, ElementType type) {
        Object[] operatorAndIdentity = operatorFor(type);
        BinaryOperator operator = (BinaryOperator) operatorAndIdentity[0];
        Object identity = operatorAndIdentity[1];
        try (PArray input = RandomData.of(type, 40_000, 100 + type.ordinal()); PArray result = ExecutorCase.apply(AF.reduce(operator, identity), executor, input)) {
            Object expected = identity;
            for (long i = 0; i < input.length(); i++) {
                expected = operator.apply(expected, input.get(i));
            }
            // max/min of floating point with NaN and -0.0 and exact integer operators: every order gives Java's answer.
            assertEquals(expected, result.get(0), type + " reduce on " + executor);
        }
    }
}
