package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static jpai.ocl.KernelTestSupport.runMap;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * Corner cases where C and Java differ, compiled from real lambdas, run with the machine's OpenCL
 * (PoCL in CI) and compared bit for bit with the JVM.
 */
class JavaSemanticsOnDeviceTest {

    static final int[] INTS = {0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 63, 64, 65, 100, -100, 12345, -98765, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1,
                    Integer.MIN_VALUE + 1, 0x55555555, 0xAAAAAAAA};
    static final long[] LONGS = {0L, 1L, -1L, 2L, -7L, 63L, 64L, 65L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 0x5555555555555555L, Integer.MIN_VALUE, 1L << 40};
    static final float[] FLOATS = {0f, -0f, 1f, -1f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, -0.49999997f, 0.50000006f, 1e10f, -1e10f, 3e9f, -3e9f, 8388607.5f, 8388609f, 16777217f,
                    Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL,
                    Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffc00000), 2147483520f, 2147483648f, -2147483648f, -2147483904f};
    static final double[] DOUBLES = {0d, -0d, 1d, -1d, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 4503599627370495.5, 4503599627370497d, 1e300, -1e300,
                    Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, -Double.MIN_VALUE, 9.223372036854776E18, -9.223372036854776E18,
                    2147483647.5, -2147483648.5, 3e9};

    @Test
    void integerDivisionAndRemainderKeepJavaCorners() {
        assertMapEqualsJava((Integer x) -> x / -1 + x % -1, Integer.class, Integer.class, INTS);
        int divisor = -1;
        assertMapEqualsJava((Integer x) -> x / divisor ^ x % divisor, Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Integer x) -> 1_000_000_007 / (x | 1) + Integer.MIN_VALUE % (x | 1), Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Integer x) -> x / 7 + x % 7 + x / -3 + x % -3 + x / 8 + x % 8, Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Long x) -> x / (x | 1L) + Long.MIN_VALUE / (x | 1L) + x % 10L + Long.MIN_VALUE % (x | 1L), Long.class, Long.class, LONGS);
        assertMapEqualsJava((Integer x) -> Integer.divideUnsigned(x, 7) + Integer.remainderUnsigned(x, 10), Integer.class, Integer.class, INTS);
    }

    @Test
    void divisionByZeroLeavesWithItsReasonAndElement() {
        int[] values = {5, 3, 0, 9, 0};
        OpenCLTestDevice.Result result = runMap((Integer x) -> 100 / x, Integer.class, Integer.class, values);
        assertEquals(DeoptReason.DIVISION_BY_ZERO, result.reason());
        assertEquals(2, result.status()[1] == 4 ? 2 : result.status()[1], "the element of a failing work-item: " + result.status()[1]);
        long[] longs = {5L, 0L};
        assertEquals(DeoptReason.DIVISION_BY_ZERO, runMap((Long x) -> 100L % x, Long.class, Long.class, longs).reason());
    }

    @Test
    void divisionAndRemainderByACapturedDivisorAreJavasAndAZeroOneLeaves() {
        int[] values = {0, 1, 511, 512, 513, -513, 262143, Integer.MAX_VALUE, Integer.MIN_VALUE, -1};
        for (int divisor : new int[] {512, 7, -3, -1, 1, Integer.MIN_VALUE}) {
            assertMapEqualsJava((Integer e) -> e / divisor * 31 + e % divisor, Integer.class, Integer.class, values);
        }
        int zero = 0;
        assertEquals(DeoptReason.DIVISION_BY_ZERO, runMap((Integer e) -> e / zero + e % zero, Integer.class, Integer.class, values).reason());
    }

    @Test
    void shiftsAreMaskedAndWrap() {
        assertMapEqualsJava((Integer x) -> (x << 33) ^ (x >> 65) ^ (x >>> 31) ^ (1 << x) ^ (-8 >> x) ^ (-8 >>> x), Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Long x) -> (x << 65) ^ (x >> 129) ^ (x >>> 63) ^ (1L << x) ^ (-8L >>> x), Long.class, Long.class, LONGS);
        assertMapEqualsJava((Integer x) -> x * 0x9E3779B9 + x - Integer.MIN_VALUE - (-x), Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Integer x) -> (byte) (int) x + (short) (int) x + (char) (int) x, Integer.class, Integer.class, INTS);
    }

    @Test
    void floatComparisonsTreatNaNAsJava() {
        assertMapEqualsJava((Float x) -> x < 1.0f ? 1 : x >= 1.0f ? 2 : 3, Float.class, Integer.class, FLOATS);
        assertMapEqualsJava((Float x) -> (x != x ? 10 : 0) + (x == 0.0f ? 1 : 0) + (x > -1.0f ? 100 : 0) + (!(x <= 2.0f) ? 1000 : 0), Float.class, Integer.class, FLOATS);
        assertMapEqualsJava((Double x) -> Double.compare(x, 0.5) + 3 * Double.compare(x, -0.0), Double.class, Integer.class, DOUBLES);
    }

    @Test
    void floatToIntegerConversionsSaturate() {
        assertMapEqualsJava((Float x) -> (int) (float) x, Float.class, Integer.class, FLOATS);
        assertMapEqualsJava((Float x) -> (long) (float) x, Float.class, Long.class, FLOATS);
        assertMapEqualsJava((Double x) -> (int) (double) x, Double.class, Integer.class, DOUBLES);
        assertMapEqualsJava((Double x) -> (long) (double) x, Double.class, Long.class, DOUBLES);
        assertMapEqualsJava((Double x) -> (char) (int) (double) x + (byte) (long) (double) x, Double.class, Integer.class, DOUBLES);
        assertMapEqualsJava((Long x) -> (float) (long) x, Long.class, Float.class, LONGS);
        assertMapEqualsJava((Long x) -> (double) (long) x, Long.class, Double.class, LONGS);
        assertMapEqualsJava((Integer x) -> (float) (int) x, Integer.class, Float.class, INTS);
    }

    @Test
    void roundIsJavas() {
        assertMapEqualsJava((Float x) -> Math.round(x), Float.class, Integer.class, FLOATS);
        assertMapEqualsJava((Double x) -> Math.round(x), Double.class, Long.class, DOUBLES);
        assertMapEqualsJava((Double x) -> Math.rint(x) + Math.floor(x) * 3 + Math.ceil(x) * 7, Double.class, Double.class, DOUBLES);
        assertMapEqualsJava((Float x) -> (float) Math.rint(x) + (float) Math.floor(x), Float.class, Float.class, FLOATS);
    }

    @Test
    void minMaxKeepNaNAndSignedZeros() {
        for (float other : new float[] {0f, -0f, 1f, Float.NaN, Float.NEGATIVE_INFINITY}) {
            assertMapEqualsJava((Float x) -> Math.min(x, other), Float.class, Float.class, FLOATS);
            assertMapEqualsJava((Float x) -> Math.max(x, other), Float.class, Float.class, FLOATS);
        }
        for (double other : new double[] {0d, -0d, Double.NaN}) {
            assertMapEqualsJava((Double x) -> Math.min(x, other) + 2 * Math.max(other, x), Double.class, Double.class, DOUBLES);
        }
        assertMapEqualsJava((Integer x) -> Math.min(x, 3) + Math.max(x, -3) + Math.abs(x), Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Long x) -> Math.min(x, 3L) + Math.max(x, -3L) + Math.abs(x), Long.class, Long.class, LONGS);
    }

    @Test
    void signAndMagnitudeFunctions() {
        assertMapEqualsJava((Float x) -> Math.abs(x) + Math.signum(x) + Math.copySign(2.0f, x), Float.class, Float.class, FLOATS);
        assertMapEqualsJava((Double x) -> Math.signum(x), Double.class, Double.class, DOUBLES);
        assertMapEqualsJava((Double x) -> Math.copySign(x, -1.0) + Math.abs(x), Double.class, Double.class, DOUBLES);
        assertMapEqualsJava((Double x) -> Math.sqrt(x) + Math.fma(x, 3.0, 0.1), Double.class, Double.class, DOUBLES);
        assertMapEqualsJava((Float x) -> Math.fma(x, x, -1.0f), Float.class, Float.class, FLOATS);
        assertMapEqualsJava((Integer x) -> Integer.bitCount(x) + 100 * Integer.numberOfLeadingZeros(x) + 10000 * Integer.numberOfTrailingZeros(x), Integer.class, Integer.class, INTS);
        assertMapEqualsJava((Long x) -> Long.bitCount(x) + 100 * Long.numberOfLeadingZeros(x) + 10000 * Long.numberOfTrailingZeros(x), Long.class, Integer.class, LONGS);
    }

    @Test
    void floatArithmeticIsIeeeAsJava() {
        assertMapEqualsJava((Float x) -> x * 3.0f / 7.0f - x % 2.5f, Float.class, Float.class, FLOATS);
        assertMapEqualsJava((Double x) -> x * 3.0 / 7.0 - x % 2.5 + (float) (double) x, Double.class, Double.class, DOUBLES);
        assertMapEqualsJava((Float x) -> (float) Math.sqrt(x) + x / 3.0f, Float.class, Float.class, FLOATS);
        Function<Float, Float> negate = x -> -x;
        assertMapEqualsJava(negate, Float.class, Float.class, FLOATS);
    }
}
