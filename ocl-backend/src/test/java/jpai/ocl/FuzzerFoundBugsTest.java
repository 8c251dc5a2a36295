package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static jpai.ocl.KernelTestSupport.runMap;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * Regressions for the bugs the differential fuzzer (the fuzzer of module {@code test}, docs/fuzzing.md)
 * found, minimised, each run on PoCL and compared bit for bit with Java.
 */
class FuzzerFoundBugsTest {

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
        assertMapEqualsJava(f, Integer.class, Integer.class, new int[] {5, -5, 0, Integer.MIN_VALUE});
    }

    /** The same shape three loops deep, returning a value computed in the innermost loop. */
    @Test
    void earlyReturnFromThreeNestedLoops() {
        Function<Integer, Integer> f = x -> {
            int sum = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    for (int k = 0; k < 3; k++) {
                        sum += i * j + k;
                        if (sum > x) {
                            return sum * 7 + k;
                        }
                    }
                }
                sum -= 1;
            }
            return -sum;
        };
        assertMapEqualsJava(f, Integer.class, Integer.class, new int[] {-1, 0, 3, 10, 20, 40, 1000});
    }

    /** Fuzz seed 20261121 program 21: a lambda that ignores its argument made the generator throw. */
    @Test
    void lambdaIgnoringItsArgument() {
        assertMapEqualsJava((Integer x) -> 5, Integer.class, Integer.class, new int[] {1, 2});
        assertMapEqualsJava((Double x) -> 0.25f, Double.class, Float.class, new double[] {1, Double.NaN});
    }

    /** Fuzz seed 42 program 1020: Math.abs(Integer.MIN_VALUE) was taken as non-negative on PoCL. */
    @Test
    void absOfMinValue() {
        int[] inputs = {Integer.MIN_VALUE, -5, 0, 7, Integer.MAX_VALUE};
        assertMapEqualsJava((Integer x) -> (long) Math.abs(x), Integer.class, Long.class, inputs);
        assertMapEqualsJava((Integer x) -> Math.abs(x) < 0, Integer.class, Boolean.class, inputs);
        long[] longs = {Long.MIN_VALUE, -5, 0, 7, Long.MAX_VALUE};
        assertMapEqualsJava((Long x) -> Math.abs(x) < 0 ? 1.0 : (double) Math.abs(x), Long.class, Double.class, longs);
        assertMapEqualsJava((Long x) -> Math.abs(x) >>> 1, Long.class, Long.class, longs);
    }
    /**
     * NVIDIA's OpenCL compiler (H100, driver 580) folded the backend's {@code as_short((ushort) ...)}
     * narrowing chains differently from PoCL: fuzz seed 20261124 program 3830,
     * {@code (short) (((short) p1) * ((short) -1))} for {@code p1 = (char) 32768} was 32768 (Java: -32768).
     * Narrowing now goes through arithmetic on in-range values only (docs/java-semantics.md, "C forms
     * the backend never emits"). PoCL gave Java's answer before and after; the H100 run is the check.
     */
    @Test
    void narrowingOfANegatedMinimum() {
        char[] chars = {(char) 32768, 0, 1, 0x7fff, 0xffff, 'a'};
        assertMapEqualsJava((Character p1) -> (short) (((short) (char) p1) * ((short) -1)), Character.class, Short.class, chars);
        assertMapEqualsJava((Character p1) -> (int) (short) (((short) (char) p1) * ((short) -1)), Character.class, Integer.class, chars);
        // seed 20261125 program 2313: (char) (p0 * (byte) -1), then (short) (p0 & p0), widened to double
        assertMapEqualsJava((Character c) -> {
            char p0 = (char) (c * ((byte) -1));
            short v7 = (short) (((int) p0) & ((int) p0));
            return (double) v7;
        }, Character.class, Double.class, chars);
    }

    /** Fuzz seed 20261125 program 1730 on the H100: {@code (short) Math.abs((long) -32768)} was 32768.0 after widening (Java: -32768.0). */
    @Test
    void narrowingOfAnAbsoluteValue() {
        short[] shorts = {Short.MIN_VALUE, -1, 0, 1, Short.MAX_VALUE, -255};
        assertMapEqualsJava((Short p1) -> ((short) Math.abs((long) p1)) + (double) Integer.bitCount(p1), Short.class, Double.class, shorts);
        assertMapEqualsJava((Short p1) -> (byte) Math.abs((int) p1), Short.class, Byte.class, shorts);
        assertMapEqualsJava((Short p1) -> (short) -p1, Short.class, Short.class, shorts);
    }

    /** Fuzz seed 42 program 4783 on PoCL: {@code (float) Math.expm1(NaN + ...)} was a number; Java: NaN for NaN, decided before the built-in. */
    @Test
    void transcendentalsOfNaNAreNaN() {
        for (jpai.compiler.MathFunctions math : jpai.compiler.MathFunctions.values()) {
            KernelTestSupport.withMath(math, this::transcendentalsOfNaNAreNaNWith);
        }
    }

    private void transcendentalsOfNaNAreNaNWith() {
        int[] ints = {0, 1, -1, 32, Integer.MIN_VALUE};
        assertMapEqualsJava((Integer x) -> (float) Math.expm1(Math.sqrt((double) (~569630317)) + x), Integer.class, Float.class, ints);
        assertMapEqualsJava((Integer x) -> Math.log1p(Math.sqrt((double) -x - 1.0)) + Math.cosh(Math.sqrt(-1.0 - x * x)), Integer.class, Double.class, ints);
    }

    /** Issue 19 item 8: {@code Math.pow(x, 1.0)} is exactly {@code x} in Java; NVIDIA's pow gave 47.26309328286914 for 47.26309328286915. */
    @Test
    void powWithExponentOneIsTheBase() {
        for (jpai.compiler.MathFunctions math : jpai.compiler.MathFunctions.values()) {
            KernelTestSupport.withMath(math, this::powWithExponentOneIsTheBaseWith);
        }
    }

    private void powWithExponentOneIsTheBaseWith() {
        double[] values = new double[1000];
        java.util.Random random = new java.util.Random(19);
        for (int i = 0; i < values.length; i++) {
            values[i] = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
        }
        values[0] = 47.26309328286915;
        values[1] = Double.NaN;
        values[2] = Double.NEGATIVE_INFINITY;
        values[3] = -0.0;
        assertMapEqualsJava((Double x) -> Math.pow(x, 1.0) + Math.pow(x, 0.0) * 0.0, Double.class, Double.class, values);
        assertMapEqualsJava((Double x) -> Math.pow(x, x == 0.0 ? 1.0 : 0.0), Double.class, Double.class, values);
    }

    /** Every char: Java's narrowing and widening chains, exhaustively, against the JVM. */
    @Test
    void narrowingChainsOverEveryChar() {
        char[] every = new char[65536];
        for (int i = 0; i < every.length; i++) {
            every[i] = (char) i;
        }
        assertMapEqualsJava((Character c) -> (int) (short) (char) c + 31 * (int) (byte) (char) c, Character.class, Integer.class, every);
        assertMapEqualsJava((Character c) -> (short) ((short) (char) c * -1), Character.class, Short.class, every);
        assertMapEqualsJava((Character c) -> (byte) ((byte) (char) c * (byte) -1), Character.class, Byte.class, every);
        assertMapEqualsJava((Character c) -> (char) ((short) (char) c - 1), Character.class, Character.class, every);
        assertMapEqualsJava((Character c) -> (long) (short) (c * 65537), Character.class, Long.class, every);
        assertMapEqualsJava((Character c) -> (int) ((long) (short) (char) c * 0x100000001L), Character.class, Integer.class, every);
        assertMapEqualsJava((Character c) -> Math.abs((short) (char) c) == 32768, Character.class, Boolean.class, every);
    }

    /**
     * Fuzz seed 20261121 programs 211 and 302 (OpenCL rejected the kernel: "use of undeclared label"):
     * a loop left from its body (two exits of a short-circuit condition, joined) and from its header,
     * both paths meeting at the one return. That merge is dominated by the loop header but lies after
     * the loop; it was emitted inside the loop body, without the label the jump from after the loop
     * needed (and a jump into the loop would have been wrong anyway).
     */
    @Test
    void mergeAfterLoopOfExitsFromBodyAndHeader() {
        Function<Double, Integer> f = x -> {
            double p = x;
            for (int i = 0; i < (((int) p) & 7); i++) {
                p += i * 3.0;
                if (p > 100.0 || p < -100.0) {
                    return (int) p;
                }
                p *= 2.0;
            }
            return (int) p;
        };
        assertMapEqualsJava(f, Double.class, Integer.class, new double[] {0, 1, 3, 5, 7, 15, 60, -3, 1e9, Double.NaN, -0.0});
        Function<Integer, Long> g = x -> {
            long s = x;
            for (int i = 0; i < (x & 15); i++) {
                s = s * 3 + i;
                if ((s & 1) == 0 && s > 50) {
                    s -= 7;
                    break;
                }
                if (s < -1000) {
                    break;
                }
            }
            return s * 2;
        };
        assertMapEqualsJava(g, Integer.class, Long.class, new int[] {0, 1, 2, 3, 7, 15, -1, -16, Integer.MIN_VALUE, Integer.MAX_VALUE});
    }
    /**
     * Fuzz seed 42 program 133: {@code Math.pow(-1.0, Double.POSITIVE_INFINITY)} gave 1.0 on the
     * device (OpenCL's pow has C99's special cases) where Java gives NaN; likewise {@code pow(1.0, NaN)}.
     */
    @Test
    void powSpecialCasesAreJavas() {
        for (jpai.compiler.MathFunctions math : jpai.compiler.MathFunctions.values()) {
            KernelTestSupport.withMath(math, this::powSpecialCasesAreJavasWith);
        }
    }

    private void powSpecialCasesAreJavasWith() {
        double[] xs = {-1.0, 1.0, -1.0, 1.0, 1.0, 2.0, 0.5, Double.NaN, Double.NaN, -0.0, 0.0, -2.0, -8.0};
        double[] ys = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, Double.NaN, Double.NEGATIVE_INFINITY, 0.0, -0.0, -3.0, -1.0, 0.5, 1.0 / 3};
        double[] inputs = new double[xs.length];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = i;
        }
        Function<Double, Double> f = i -> Math.pow(xs[(int) (double) i], ys[(int) (double) i]);
        assertMapEqualsJava(f, Double.class, Double.class, inputs);
    }

    /**
     * Fuzz seed 42 program 5854: a loop whose bound depends on {@code (int) Math.floor(d % 0.0)}
     * computed in the loop ran once on PoCL, not seven times as in Java: PoCL's LLVM miscompiled
     * {@code floor} of the NaN of {@code fmod(d, 0.0)} (in straight-line code it is right). The backend
     * now passes a NaN around {@code floor/ceil/rint/trunc}. This smaller kernel passed before the fix
     * too (it failed only with the NaN made a visible constant); the end-to-end
     * {@code FuzzerRegressionTest.floorOfANaNInALoop}, the fuzz program's own shape, failed (1 iteration
     * for 7) and passes now.
     */
    @Test
    void remainderByZeroInALoop() {
        Function<Integer, Integer> f = x -> {
            int p2 = x;
            int n = 0;
            for (int i = 0; i < ((p2 - 225) & 7); i++) {
                p2 = (int) Math.floor(((double) (x << i)) % 0.0);
                n++;
            }
            return n * 1000 + p2;
        };
        assertMapEqualsJava(f, Integer.class, Integer.class, new int[] {226, 227, 0, -5, 225, Integer.MIN_VALUE});
        double[] specials = {0.0, -0.0, 1.5, -7.25, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1e300};
        for (double y : specials) {
            assertMapEqualsJava((Double x) -> x % y, Double.class, Double.class, specials);
            assertMapEqualsJava((Double x) -> (float) (double) x % (float) y, Double.class, Float.class, specials);
        }
    }

    /**
     * Fuzz seed 42 program 6945 (PoCL rejected the kernel: "redefinition of 'a350'"): a local array
     * that partial escape analysis materialises on two paths, each with its own commit, was declared
     * once per commit. This shape (materialised on two paths) did not reproduce the rejection before
     * the fix; {@code FuzzFoundProgramsTest} (module test) reruns the original program.
     */
    @Test
    void localArrayMaterialisedOnTwoPaths() {
        Function<Integer, Float> f = x -> {
            float[] a = {x, x + 1.5f};
            if (x > 3) {
                a[x & 1] = 5f;
            } else {
                a[(x >> 1) & 1] = 7f;
            }
            return a[0] * 3 + a[1];
        };
        assertMapEqualsJava(f, Integer.class, Float.class, new int[] {0, 1, 2, 3, 4, 5, -1, -2, 100, Integer.MIN_VALUE});
    }

    // ---- nodes the fuzzer's programs fell back on (seed 20261121), now emitted

    /** ReverseBytes: Integer/Long/Short/Character.reverseBytes. */
    @Test
    void reverseBytes() {
        int[] ints = {0, 1, -1, 0x12345678, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x80, 0xff00};
        assertMapEqualsJava((Integer x) -> Integer.reverseBytes(x), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer x) -> Long.reverseBytes(x * 0x9E3779B97F4A7C15L), Integer.class, Long.class, ints);
        assertMapEqualsJava((Integer x) -> (int) Short.reverseBytes((short) (int) x), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer x) -> (int) Character.reverseBytes((char) (int) x), Integer.class, Integer.class, ints);
    }

    /** ReverseBits: Integer/Long.reverse. */
    @Test
    void reverseBits() {
        int[] ints = {0, 1, -1, 0x12345678, Integer.MIN_VALUE, Integer.MAX_VALUE, 6, 0xff00};
        assertMapEqualsJava((Integer x) -> Integer.reverse(x), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer x) -> Long.reverse(x * 0x9E3779B97F4A7C15L), Integer.class, Long.class, ints);
    }

    /** FloatTypeTest: Float/Double.isInfinite/isFinite (Graal's intrinsic on hosts with AVX512DQ). */
    @Test
    void floatTypeTests() {
        double[] doubles = {0, -0.0, 1.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, 1e300};
        assertMapEqualsJava((Double x) -> Double.isInfinite(x), Double.class, Boolean.class, doubles);
        assertMapEqualsJava((Double x) -> Double.isFinite(x), Double.class, Boolean.class, doubles);
        assertMapEqualsJava((Double x) -> Float.isInfinite((float) (double) x) ? 1 : Float.isFinite((float) (double) x) ? 2 : 3, Double.class, Integer.class, doubles);
    }

    /** ShortCircuitOr: a condition Graal keeps as one node (here, two tests of one value joined by a ternary). */
    @Test
    void shortCircuitOr() {
        int[] ints = {0, 1, -1, 5, 100, -100, Integer.MIN_VALUE, Integer.MAX_VALUE};
        assertMapEqualsJava((Integer x) -> (x > 3 || x < -3) ? (x & 1) == 0 || x == 5 : x != 0, Integer.class, Boolean.class, ints);
        assertMapEqualsJava((Integer x) -> {
            boolean b = x > 3 || (x & 1) == 0;
            return b ^ (x < 0 || x == 5) ? x : -x;
        }, Integer.class, Integer.class, ints);
    }

    /** Exact arithmetic (IntegerAddExactSplit and friends) where it does not overflow: the wrapped result. */
    @Test
    void exactArithmeticWithoutOverflow() {
        int[] ints = {0, 1, -1, 46340, -46341, 1 << 10, 1000, -7};
        assertMapEqualsJava((Integer x) -> Math.addExact(x, 1000) - Math.subtractExact(x, 7) + Math.multiplyExact(x, x % 46341) + Math.negateExact(x), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer x) -> Math.addExact((long) x, 3L) * 2 + Math.subtractExact((long) x << 20, 9L) + Math.multiplyExact((long) x, (long) x << 20) + Math.negateExact((long) x),
                        Integer.class, Long.class, ints);
    }

    /** Exact arithmetic that overflows exits (Math.*Exact throw their ArithmeticException explicitly) at the first such element. */
    @Test
    void exactArithmeticOverflowExits() {
        int[] overflowing = {1, 2, Integer.MAX_VALUE, 4};
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> Math.addExact(x, 1), overflowing);
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> Math.subtractExact(-x, 2), overflowing);
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> Math.multiplyExact(x, 3), overflowing);
        int[] minimum = {1, 2, Integer.MIN_VALUE, 4};
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> Math.negateExact(x), minimum);
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> (int) Math.multiplyExact((long) x << 16, (long) x << 15), overflowing);
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> (int) Math.addExact((long) x, Long.MAX_VALUE - Integer.MAX_VALUE + 1), overflowing);
        assertExitsAt(DeoptReason.EXPLICIT_THROW, 2, (Integer x) -> (int) Math.negateExact(x == Integer.MIN_VALUE ? Long.MIN_VALUE : x), minimum);
    }

    private static void assertExitsAt(DeoptReason reason, long element, Function<Integer, Integer> f, int[] inputs) {
        OpenCLTestDevice.Result result = runMap(f, Integer.class, Integer.class, inputs);
        assertEquals(reason, result.reason());
        assertEquals(element, result.status()[1]);
    }

    /**
     * Fuzz seed 20261130 program 2610, on the H100 only: {@code (int) Math.abs((long) p)} of
     * {@code MIN_VALUE} is {@code MIN_VALUE} in Java (the long 2^31 narrowed); NVIDIA's compiler
     * gave 2^31, seeing a guarded signed negation in the absolute value and taking its result as
     * non-negative. The absolute value now negates unsigned (docs/java-semantics.md).
     */
    @Test
    void narrowingOfTheAbsoluteValueOfAWidenedMinimum() {
        int[] ints = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE, -Integer.MAX_VALUE, 12345};
        assertMapEqualsJava((Integer p) -> (double) (int) Math.abs((long) p), Integer.class, Double.class, ints);
        assertMapEqualsJava((Integer p) -> StrictMath.cbrt((double) (int) Math.abs((long) p)), Integer.class, Double.class, ints);
        assertMapEqualsJava((Integer p) -> (long) Math.abs(p) - Math.abs((long) p), Integer.class, Long.class, ints);
        long[] longs = {Long.MIN_VALUE, -1L, 0L, Long.MAX_VALUE, Integer.MIN_VALUE};
        assertMapEqualsJava((Long p) -> (double) Math.abs(p) + (double) (int) Math.abs(p), Long.class, Double.class, longs);
    }

    /**
     * NVIDIA's PTX assembler (CUDA 13.0) fused {@code max(max(acc, -a), -b)} of two unrolled steps of
     * a reduction into one three-way max and dropped a negation (fuzz seed 20261131 program 1391,
     * docs/fuzzing.md). The same shape written in one lambda must keep both negations.
     */
    @Test
    void nestedMaximaOfNegations() {
        int[] ints = new int[4096];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = (i * 2654435761L) % 3 == 0 ? -i : i * 7919 - 16_000_000;
        }
        ints[0] = Integer.MIN_VALUE;
        ints[1] = Integer.MAX_VALUE;
        assertMapEqualsJava((Integer p) -> Math.max(Math.max(p, -(p >> 1)), -(p >> 2)), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer p) -> Math.min(Math.min(-p, -(p >> 3)), -(p ^ 0x5555)), Integer.class, Integer.class, ints);
        assertMapEqualsJava((Integer p) -> (int) Math.max(Math.max((long) p, -(long) (p >> 1)), -((long) p * 3)), Integer.class, Integer.class, ints);
    }
}
