package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple4;
import jpai.TupleType;

/**
 * The bugs the differential fuzzer (docs/fuzzing.md) found, end to
 * end through the runtime, on the device with fallbacks made errors where OpenCL is expected.
 */
class FuzzerRegressionTest {

    private static <T, R> PArray<R> onDevice(Function<T, R> f, Class<R> type, PArray<T> input) {
        return ExecutorCase.apply(AF.map(f, type), Executor.ACCELERATOR, input);
    }

    private static <T, R> PArray<R> onDevice(Function<T, R> f, DataType type, PArray<T> input) {
        return ExecutorCase.apply(AF.map(f, type), Executor.ACCELERATOR, input);
    }

    /** Fuzz seed 7 program 67: an early return from an inner loop fell through to the outer loop. */
    @Test
    void earlyReturnFromNestedLoop() {
        Function<Integer, Integer> f = x -> {
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 2; j++) {
                    if (x > 0) {
                        return 1;
                    }
                }
            }
            return 2;
        };
        try (PArray<Integer> in = PArray.of(5, -5); PArray<Integer> out = onDevice(f, Integer.class, in)) {
            assertEquals(f.apply(5), out.get(0));
            assertEquals(f.apply(-5), out.get(1));
        }
    }

    /** Fuzz seed 20261121 program 21: a lambda that ignores its argument made the generator throw. */
    @Test
    void lambdaIgnoringItsArgument() {
        Function<Integer, Integer> f = x -> 5;
        try (PArray<Integer> in = PArray.of(1, 2); PArray<Integer> out = onDevice(f, Integer.class, in)) {
            assertEquals(5, out.get(0));
            assertEquals(5, out.get(1));
        }
    }

    /** Fuzz seed 42 program 1020: Math.abs(Integer.MIN_VALUE) was taken as non-negative on PoCL. */
    @Test
    void absOfMinValue() {
        Function<Integer, Long> widen = x -> (long) Math.abs(x);
        Function<Integer, Boolean> negative = x -> Math.abs(x) < 0;
        try (PArray<Integer> in = PArray.of(Integer.MIN_VALUE, -5); PArray<Long> out = onDevice(widen, Long.class, in);
                        PArray<Boolean> out2 = onDevice(negative, Boolean.class, in)) {
            assertEquals(-2147483648L, out.get(0));
            assertEquals(5L, out.get(1));
            assertEquals(true, out2.get(0));
            assertEquals(false, out2.get(1));
        }
    }
    /**
     * Fuzz seed 20261121 program 64 (and 16 more of that slice fell back with "AllocatingBox is not
     * supported"): a tuple returned from inside a loop, with a component boxed from the loop's
     * counter, and another tuple returned after the loop: partial escape analysis materialised the
     * boxes where the two paths meet ({@code UnboxPhisOfBoxesPhase} unboxes the phi of boxes now).
     */
    @Test
    void tupleReturnedFromInsideALoop() {
        Function<Integer, Tuple2<Integer, Float>> f = x -> {
            for (int i = 0; i < 5; i++) {
                if (i > x) {
                    return new Tuple2<>(i, (float) i);
                }
            }
            return new Tuple2<>(x + 1, 0.5f);
        };
        // the same, returning the argument itself after the loop: a phi of a box and the argument object
        Function<Integer, Tuple2<Integer, Float>> g = x -> {
            for (int i = 0; i < 5; i++) {
                if (i > x) {
                    return new Tuple2<>(i, (float) i);
                }
            }
            return new Tuple2<>(x, 0.5f);
        };
        for (Function<Integer, Tuple2<Integer, Float>> h : List.of(f, g)) {
            try (PArray<Integer> in = PArray.of(-3, 0, 2, 7); PArray<Tuple2<Integer, Float>> out = onDevice(h, TupleType.of(Integer.class, Float.class), in)) {
                for (int i = 0; i < 4; i++) {
                    assertEquals(h.apply(in.get(i)), out.get(i));
                }
            }
        }
    }
    /**
     * Fuzz seed 42 program 5854 (component _1 was (byte) -116, Java's 62): the loop's bound depends
     * on {@code p2}, which the loop sets to {@code (int) Math.floor(d % 0)}, i.e. 0 (the NaN of
     * {@code fmod(d, 0.0)} becomes 0). Java runs 7 iterations; on PoCL the loop ran once: PoCL's LLVM
     * miscompiled {@code floor} of that NaN. The backend passes a NaN around {@code floor} now.
     * (FuzzerFoundBugsTest.remainderByZeroInALoop has a smaller kernel of the same kind.)
     */
    @Test
    void floorOfANaNInALoop() {
        Function<Tuple4<Double, Float, Integer, Float>, Integer> f = in -> {
            double p0 = in._1();
            int p2 = in._3();
            float p3 = in._4();
            p2 += ((char) (((char) (((char) (p2 >>> p2)) + ((char) (((char) p3) - ((char) p2))))) - ((short) p3)));
            int n = 0;
            for (int i0 = 0; i0 < ((p2 - ((char) (((byte) p3) - ((char) p0)))) & 7); i0++) {
                p2 = ((int) Math.floor((((double) (((int) p3) << (((byte) i0) ^ i0))) % ((short) (((short) p3) * ((short) 0))))));
                n++;
            }
            return n * 1000 + p2;
        };
        try (PArray<Double> a = PArray.of(-225.06868709653975); PArray<Float> b = PArray.of(2.732522E11f); PArray<Integer> c = PArray.of(-2080344887);
                        PArray<Float> d = PArray.of(0.5f); PArray<Tuple4<Double, Float, Integer, Float>> in = PArray.zip(a, b, c, d);
                        PArray<Integer> out = onDevice(f, Integer.class, in)) {
            assertEquals(7000, f.apply(in.get(0)));
            assertEquals(7000, out.get(0));
        }
    }

    /**
     * Fuzz seed 20261128 program 6688, a mismatch on the H100 only (PoCL matches): a constant map
     * from {@code Boolean} to a pair of longs, then a polynomial-hash reduction of the pairs. Checked
     * in parts: the map alone, element by element, the reduction of the map's results, and the
     * map-then-reduce (one fused first pass), each against Java, for lengths around the combining
     * tree's leaves and work-groups.
     */
    @Test
    void polynomialHashOfAConstantPairOfLongs() {
        float[] ka0 = {82.68774f, (-38.052807f), Float.MAX_VALUE, 706.6814f};
        Function<Boolean, Tuple2<Long, Long>> f = in -> {
            boolean p0 = in;
            p0 = (!p0);
            p0 ^= (((byte) ((int) ka0[((Integer.MAX_VALUE & ((byte) (64L ^ (-1234173510)))) & 3)])) == ((byte) (((char) (((char) 13198) * 64)) | ((long) ((short) 0)))));
            p0 = (((short) (((short) (4353254915999323705L ^ 7)) - ((short) ka0[(127 & 3)]))) >= ((byte) (((-6019915610519413625L) >>> ((byte) -2)) ^ 375930478)));
            return new Tuple2<>(((long) (((char) ((573L - 4294967296L) >> ((int) (0.5f + Integer.MAX_VALUE)))) ^ (-((byte) ((64L + ((byte) -44)) & (56 + 31)))))), ((long) (((short) -32768) >>> 100)));
        };
        java.util.function.BinaryOperator<Tuple2<Long, Long>> hash = (a, b) -> new Tuple2<>(a._1() * b._2() + b._1(), a._2() * b._2());
        Tuple2<Long, Long> identity = new Tuple2<>(0L, 1L);
        DataType pair = TupleType.of(Long.class, Long.class);
        for (int n : new int[] {1, 2, 15, 16, 17, 255, 897, 4097}) {
            boolean[] flags = new boolean[n];
            for (int i = 0; i < n; i++) {
                flags[i] = i % 3 == 0;
            }
            try (PArray<Boolean> in = PArray.of(flags); PArray<Tuple2<Long, Long>> mapped = onDevice(f, pair, in)) {
                Tuple2<Long, Long> expected = identity;
                for (int i = 0; i < n; i++) {
                    Tuple2<Long, Long> javas = f.apply(flags[i]);
                    assertEquals(javas, mapped.get(i), "the map's element " + i + " of " + n);
                    expected = hash.apply(expected, javas);
                }
                assertEquals(expected, ExecutorCase.apply(AF.reduce(hash, identity), Executor.ACCELERATOR, mapped).get(0), "the reduction of the map's results, " + n + " elements");
                assertEquals(expected, ExecutorCase.apply(AF.map(f, pair).reduce(hash, identity), Executor.ACCELERATOR, in).get(0), "map then reduce, " + n + " elements");
            }
        }
    }
}
