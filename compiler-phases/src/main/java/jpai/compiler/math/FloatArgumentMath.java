package jpai.compiler.math;

/**
 * The methods through which kernels compute {@code Math.sin}, {@code cos}, {@code exp} and
 * {@code log} ({@code MathAsStrictMathPlugin}, {@code FloatArgumentMathPhase}).
 *
 * <p>The <i>markers</i> ({@link #mathSin}, ...) are {@code Math.f} as kernels read it:
 * {@code StrictMath.f} (a result within {@code Math}'s bound), under a name of its own, so that the
 * compiler can tell the calls that have {@code Math}'s freedom from calls of {@code StrictMath.f},
 * whose bits are fixed (only the markers are rewritten). The <i>rewrites</i>
 * ({@link #sinRoundedToFloat}, ...) replace a marker call whose argument is a widened {@code float}
 * and whose result is only rounded to {@code float}: they return the float-argument function's
 * result ({@link FloatArgumentTrig}, {@link FloatArgumentExpLog}), which that rounding keeps; they are
 * not themselves within 1 ulp of the {@code double} function, so never for other uses.
 */
public final class FloatArgumentMath {

    private FloatArgumentMath() {
    }

    public static double mathSin(double x) {
        return StrictMath.sin(x);
    }

    public static double mathCos(double x) {
        return StrictMath.cos(x);
    }

    public static double mathExp(double x) {
        return StrictMath.exp(x);
    }

    public static double mathLog(double x) {
        return StrictMath.log(x);
    }

    public static double sinRoundedToFloat(double widenedFloat) {
        return FloatArgumentTrig.sin((float) widenedFloat);
    }

    public static double cosRoundedToFloat(double widenedFloat) {
        return FloatArgumentTrig.cos((float) widenedFloat);
    }

    public static double expRoundedToFloat(double widenedFloat) {
        return FloatArgumentExpLog.exp((float) widenedFloat);
    }

    public static double logRoundedToFloat(double widenedFloat) {
        return FloatArgumentExpLog.log((float) widenedFloat);
    }

    public static double expRoundedToFloatFromDevice(double widenedFloat) {
        return FloatArgumentExpLog.expFromDevice((float) widenedFloat);
    }

    public static double logRoundedToFloatFromDevice(double widenedFloat) {
        return FloatArgumentExpLog.logFromDevice((float) widenedFloat);
    }
}
