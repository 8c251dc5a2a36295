package jpai.compiler.math;

/**
 * {@code (float) Math.sin(x)} and {@code (float) Math.cos(x)} of a {@code float} {@code x}, computed
 * from the {@code float} in a few {@code double} operations instead of FdLibm's general {@code double}
 * algorithm, with a result Java allows. Kernels inline this Java code (the device then computes
 * exactly its bits: no contraction, Java's rounding); it is written for that, not for HotSpot.
 *
 * <p><b>Why a result Java allows.</b> {@code Math.sin} may return any {@code double} within 1 ulp of
 * the exact value (semi-monotonic), and the cast rounds that to the nearest {@code float}. Every
 * result here is either the correctly rounded {@code float} of the exact value, which is the cast
 * of a {@code double} within 1 ulp of it (the nearest {@code double}, or its neighbour on the
 * {@code float}'s side where the nearest one is a midpoint between two {@code float}s), or
 * {@code (float) StrictMath.sin(x)}, which is Java's own reference. Correct rounding keeps the
 * order of the exact values, so the results are semi-monotonic too.
 *
 * <p><b>How.</b> For {@code |x| <= }{@value #FAST_LIMIT}: {@code x = k * pi/2 + r} with {@code k}
 * the nearest integer to {@code x * 2/pi} and {@code r} computed with {@code pi/2} in three parts
 * (Cody and Waite): the first two have 33 significant bits, so {@code k} times either is exact for
 * {@code |k| < 2^20}, and {@code x - k * P1} is exact (both are multiples of 2^-32 below 2 apart);
 * each later subtraction rounds relative to its own result. Then {@code sin(r)} and {@code cos(r)}
 * by their Taylor series on {@code |r| <= pi/4} (to {@code r^15} and {@code r^16}: truncation below
 * 2^-53 relative), chosen by {@code k mod 4}. The whole error stays below 2^-50 relative (reduction
 * 2^-52 while {@code |r| >= 2^-40}; the closest float to a multiple of {@code pi/2} in range is far
 * from that: {@code FloatArgumentTrigProof} prints it). A <i>rounding test</i> then checks that
 * every value within {@value #RELATIVE_ERROR_BOUND_DESCRIPTION} of the approximation rounds to one
 * {@code float}: if so, that is the correctly rounded result; if not (408 of the 4.9 billion
 * evaluations of the fast range), and beyond the fast range, FdLibm decides.
 * {@code FloatArgumentTrigProof} checks every {@code float} of the fast range against
 * {@code StrictMath} and, where they differ, against a 60-digit reference: on every one of the
 * 2,466,250,754 arguments, sin and cos, the result is {@code (float) StrictMath}'s bit for bit
 * (benchmarks/results/pocl-2026-11-27/float-argument-trig-proof-s18.txt; the smallest reduced
 * argument met is 2^-27.8), so kernels give the same bits as with FdLibm alone (on the H100, DFT's
 * kernel in 1.45 ms against FdLibm's 4.93).
 *
 * <p>The polynomials and the reduction's last two steps use {@code Math.fma}: one rounding instead of
 * two (within the error bound above, which assumed two), and on the H100 one instruction instead of
 * two (DFT's kernel 1.60 → 1.45 ms). The device's {@code fma} is exact as Java's is, so it computes
 * the JVM's bits.
 */
public final class FloatArgumentTrig {

    /** The largest {@code |x|} of the fast path: {@code |k| < 2^20}, as the exact products need. */
    public static final float FAST_LIMIT = 0x1p20f;

    /** The error bound the rounding test assumes, relative to the approximation: 2^-46 (16 times the analysed bound). */
    static final double RELATIVE_ERROR_BOUND = 0x1p-46;
    static final String RELATIVE_ERROR_BOUND_DESCRIPTION = "2^-46 relative";

    /**
     * 1.5 * 2^52: for {@code |y| < 2^51}, {@code (y + ROUNDING_SHIFT) - ROUNDING_SHIFT} is
     * {@code Math.rint(y)} (the addition rounds to the nearest integer, ties to even, and both
     * operations are exact otherwise), and the sum's low bits hold that integer in two's complement.
     * Used instead of {@code rint} and an {@code (int)} cast, which Java's semantics make a NaN test
     * and a saturating conversion: on PoCL those made {@code exp}'s fast path 1.8x slower.
     */
    static final double ROUNDING_SHIFT = 0x1.8p52;
    private static final double TWO_OVER_PI = 0x1.45f306dc9c883p-1;
    /** pi/2 = P1 + P2 + P3 + (about 1e-37): P1 and P2 have 33 significant bits. */
    private static final double P1 = 0x1.921fb544p0;
    private static final double P2 = 0x1.0b4611a6p-34;
    private static final double P3 = 0x1.3198a2e037073p-69;

    // sin's and cos's Taylor coefficients: +-1/n!
    private static final double S3 = -InverseFactorials.F3;
    private static final double S5 = InverseFactorials.F5;
    private static final double S7 = -InverseFactorials.F7;
    private static final double S9 = InverseFactorials.F9;
    private static final double S11 = -InverseFactorials.F11;
    private static final double S13 = InverseFactorials.F13;
    private static final double S15 = -InverseFactorials.F15;
    private static final double C2 = -InverseFactorials.F2;
    private static final double C4 = InverseFactorials.F4;
    private static final double C6 = -InverseFactorials.F6;
    private static final double C8 = InverseFactorials.F8;
    private static final double C10 = -InverseFactorials.F10;
    private static final double C12 = InverseFactorials.F12;
    private static final double C14 = -InverseFactorials.F14;
    private static final double C16 = InverseFactorials.F16;

    private FloatArgumentTrig() {
    }

    /** {@code (float) Math.sin(x)}: a result Java allows (see the class comment). */
    public static float sin(float x) {
        if (x == 0f) {
            return x; // sin(+-0) = +-0 (the rounding test would lose the sign)
        }
        double approximation = approximation(x, false);
        float rounded = Math.abs(x) <= FAST_LIMIT ? roundedIfCertain(approximation) : Float.NaN;
        return rounded == rounded ? rounded : (float) StrictMath.sin(afterFastPath(x, approximation));
    }

    /** {@code (float) Math.cos(x)}: a result Java allows (see the class comment). */
    public static float cos(float x) {
        double approximation = approximation(x, true);
        float rounded = Math.abs(x) <= FAST_LIMIT ? roundedIfCertain(approximation) : Float.NaN;
        return rounded == rounded ? rounded : (float) StrictMath.cos(afterFastPath(x, approximation));
    }

    /**
     * The fast path's {@code sin(x)}, or {@code cos(x)} ({@code = sin(x + pi/2)}: one quadrant on),
     * for {@code |x| <= }{@link #FAST_LIMIT}; 0 beyond it.
     */
    static double approximation(float x, boolean cosine) {
        if (!(Math.abs(x) <= FAST_LIMIT)) {
            return 0.0;
        }
        double shifted = x * TWO_OVER_PI + ROUNDING_SHIFT;
        double k = shifted - ROUNDING_SHIFT; // the nearest integer (see ROUNDING_SHIFT)
        double r = reduced(x, k);
        int quadrant = ((int) Double.doubleToRawLongBits(shifted) + (cosine ? 1 : 0)) & 3; // shifted's low bits hold k
        double value = (quadrant & 1) == 0 ? sinOfReduced(r) : cosOfReduced(r);
        return quadrant >= 2 ? -value : value;
    }

    /**
     * {@code x} itself ({@code x} is not zero, {@code approximation} finite), made to depend on this
     * call's fast path: in a kernel that computes {@code sin} and {@code cos} of one angle, the
     * compiler would otherwise merge the two FdLibm fallbacks' common work (their argument
     * reduction) and, to serve both, schedule it before either fast path, on every element. Neither
     * the compiler nor OpenCL folds {@code 0.0 * y} or {@code x + 0.0} (signed zeros, NaN).
     */
    static double afterFastPath(float x, double approximation) {
        return x + 0.0 * approximation;
    }

    /** {@code x - k * pi/2}, for {@code |k| < 2^20}. */
    static double reduced(float x, double k) {
        double exact = x - k * P1; // exact: see the class comment
        return Math.fma(-k, P3, Math.fma(-k, P2, exact));
    }

    /** Taylor's {@code sin(r)} to {@code r^15}, for {@code |r| <= pi/4} (a little more after rounding). */
    static double sinOfReduced(double r) {
        double r2 = r * r;
        double q = Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, S15, S13), S11), S9), S7), S5), S3);
        return Math.fma(r * r2, q, r);
    }

    /** Taylor's {@code cos(r)} to {@code r^16}, for {@code |r| <= pi/4}. */
    static double cosOfReduced(double r) {
        double r2 = r * r;
        double q = Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, Math.fma(r2, C16, C14), C12), C10), C8), C6), C4), C2);
        return Math.fma(r2, q, 1.0);
    }

    /**
     * The {@code float} every value within {@link #RELATIVE_ERROR_BOUND} of {@code approximation}
     * rounds to, or NaN when they round to two (the exact value's rounding is then not certain).
     */
    static float roundedIfCertain(double approximation) {
        double bound = Math.abs(approximation) * RELATIVE_ERROR_BOUND;
        float low = (float) (approximation - bound);
        float high = (float) (approximation + bound);
        return low == high ? low : Float.NaN;
    }
}
