package jpai.compiler.math;

import static jpai.compiler.math.InverseFactorials.F10;
import static jpai.compiler.math.InverseFactorials.F11;
import static jpai.compiler.math.InverseFactorials.F12;
import static jpai.compiler.math.InverseFactorials.F13;
import static jpai.compiler.math.InverseFactorials.F2;
import static jpai.compiler.math.InverseFactorials.F3;
import static jpai.compiler.math.InverseFactorials.F4;
import static jpai.compiler.math.InverseFactorials.F5;
import static jpai.compiler.math.InverseFactorials.F6;
import static jpai.compiler.math.InverseFactorials.F7;
import static jpai.compiler.math.InverseFactorials.F8;
import static jpai.compiler.math.InverseFactorials.F9;

/**
 * {@code (float) Math.exp(x)} and {@code (float) Math.log(x)} of a {@code float} {@code x}, computed
 * from the {@code float} in a few {@code double} operations, with a result Java allows: the same
 * method and argument as {@link FloatArgumentTrig} (a {@code double} approximation whose error is far
 * below 2^-46, the rounding test, FdLibm where the test cannot decide or outside the fast range).
 *
 * <p><b>exp</b>, for {@code |x| <= }{@value #EXP_LIMIT} (beyond it the result is 0 or infinite, or x
 * is not finite: FdLibm): {@code x = k ln2 + r}, {@code k} the nearest integer to {@code x / ln2},
 * {@code ln2} in two parts, the first of 42 significant bits (so {@code k * LN2_HI} and
 * {@code x - k * LN2_HI} are exact for {@code |k| <= 150}); Taylor's {@code exp(r)} to {@code r^13} ({@link InverseFactorials})
 * on {@code |r| <= ln2/2} (truncation below 2^-57); times {@code 2^k} exactly (a power of two in
 * {@code double}'s normal range).
 *
 * <p><b>log</b>, for positive finite {@code x} (else FdLibm: NaN, infinity, -infinity): the
 * {@code double} of {@code x} is {@code m 2^e} with {@code m} in {@code [sqrt(2)/2, sqrt(2))} (found from the bits, without a branch; a float's
 * subnormals are normal doubles); {@code log x = e ln2 + 2 atanh(s)}, {@code s = (m-1)/(m+1)}
 * ({@code m - 1} exact), {@code |s| <= 0.172}, the series to {@code s^19} (truncation below 2^-55).
 *
 * <p>{@code FloatArgumentExpLogProof} checks every {@code float} of both ranges against
 * {@code StrictMath} and, where they differ, against a 60-digit reference.
 */
public final class FloatArgumentExpLog {

    /** The largest {@code |x|} of exp's fast path: beyond it the float result is 0 or infinite. */
    public static final float EXP_LIMIT = 104f;

    private static final double INV_LN2 = 0x1.71547652b82fep0;
    /** ln2 = LN2_HI + LN2_LO + (about 2e-31): LN2_HI has 42 significant bits. */
    private static final double LN2_HI = 0x1.62e42fefa38p-1;
    private static final double LN2_LO = 0x1.ef35793c7673p-45;
    /** The bits of sqrt(2)/2 (0x1.6a09e667f3bcdp-1). */
    private static final long HALF_SQRT2_BITS = 0x3FE6_A09E_667F_3BCDL;

    // 2/n, rounded to double: 2 atanh(s) = sum of 2 s^n / n over odd n
    private static final double L3 = 0x1.5555555555555p-1;
    private static final double L5 = 0x1.999999999999ap-2;
    private static final double L7 = 0x1.2492492492492p-2;
    private static final double L9 = 0x1.c71c71c71c71cp-3;
    private static final double L11 = 0x1.745d1745d1746p-3;
    private static final double L13 = 0x1.3b13b13b13b14p-3;
    private static final double L15 = 0x1.1111111111111p-3;
    private static final double L17 = 0x1.e1e1e1e1e1e1ep-4;
    private static final double L19 = 0x1.af286bca1af28p-4;

    private FloatArgumentExpLog() {
    }

    /** {@code (float) Math.exp(x)}: a result Java allows (see the class comment). */
    public static float exp(float x) {
        return expRounded(x, expApproximation(x));
    }

    /** {@code (float) Math.log(x)}: a result Java allows (see the class comment). */
    public static float log(float x) {
        return logRounded(x, logApproximation(x));
    }

    /**
     * {@link #exp}, the fast path's approximation being the device's {@code double exp}
     * ({@link DeviceDoubleMath}): within OpenCL's 3 ulp, far inside the rounding test's margin.
     */
    public static float expFromDevice(float x) {
        return expRounded(x, expFast(x) ? DeviceDoubleMath.exp(x) : 0.0);
    }

    /** {@link #log}, the fast path's approximation being the device's {@code double log} (see {@link #expFromDevice}). */
    public static float logFromDevice(float x) {
        return logRounded(x, logFast(x) ? DeviceDoubleMath.log(x) : 0.0);
    }

    private static boolean expFast(float x) {
        return Math.abs(x) <= EXP_LIMIT;
    }

    private static boolean logFast(float x) {
        return x > 0f && x <= Float.MAX_VALUE;
    }

    /** The float of {@code approximation} (of {@code exp(x)} on the fast range) where the rounding test decides, else FdLibm's. */
    private static float expRounded(float x, double approximation) {
        float rounded = expFast(x) ? FloatArgumentTrig.roundedIfCertain(approximation) : Float.NaN;
        return rounded == rounded ? rounded : (float) StrictMath.exp(FloatArgumentTrig.afterFastPath(x, approximation));
    }

    /** The float of {@code approximation} (of {@code log(x)} on the fast range) where the rounding test decides, else FdLibm's. */
    private static float logRounded(float x, double approximation) {
        float rounded = logFast(x) ? FloatArgumentTrig.roundedIfCertain(approximation) : Float.NaN;
        return rounded == rounded ? rounded : (float) StrictMath.log(FloatArgumentTrig.afterFastPath(x, approximation));
    }

    /** The fast path's {@code exp(x)} for {@code |x| <= }{@link #EXP_LIMIT}; 0 beyond it. */
    static double expApproximation(float x) {
        if (!(Math.abs(x) <= EXP_LIMIT)) {
            return 0.0;
        }
        double shifted = x * INV_LN2 + FloatArgumentTrig.ROUNDING_SHIFT;
        double k = shifted - FloatArgumentTrig.ROUNDING_SHIFT; // the nearest integer (see ROUNDING_SHIFT)
        double r = Math.fma(-k, LN2_LO, x - k * LN2_HI); // x - k * LN2_HI is exact
        double p = Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, Math.fma(r, F13, F12), F11), F10), F9), F8), F7), F6), F5), F4), F3), F2), 1.0), 1.0);
        // times 2^k, exactly: shifted's low bits hold k, so (bits + 1023) << 52 is 2^k's exponent field
        return p * Double.longBitsToDouble((Double.doubleToRawLongBits(shifted) + 1023) << 52);
    }

    /** The fast path's {@code log(x)} for positive finite {@code x}; 0 otherwise. */
    static double logApproximation(float x) {
        if (!(x > 0f && x <= Float.MAX_VALUE)) {
            return 0.0;
        }
        // x's double is m 2^e with m in [sqrt(2)/2, sqrt(2)), without a branch: its bits minus those of
        // sqrt(2)/2 have e in their exponent field (an arithmetic shift: e may be negative), and
        // taking e's exponent field off the bits leaves m's
        long bits = Double.doubleToRawLongBits(x);
        long offset = bits - HALF_SQRT2_BITS;
        int e = (int) (offset >> 52);
        double m = Double.longBitsToDouble(bits - (offset & 0xFFF0_0000_0000_0000L));
        double s = (m - 1.0) / (m + 1.0);
        double s2 = s * s;
        double logM = s * Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, Math.fma(s2, L19, L17), L15), L13), L11), L9), L7), L5), L3), 2.0);
        return Math.fma(e, LN2_HI, Math.fma(e, LN2_LO, logM));
    }
}
