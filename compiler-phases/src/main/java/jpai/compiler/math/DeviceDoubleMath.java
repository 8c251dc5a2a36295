package jpai.compiler.math;

/**
 * {@code exp} and {@code log} of a {@code double} as the device's OpenCL built-ins compute them, for
 * the float-argument functions' fast paths under {@code MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG}
 * ({@link FloatArgumentExpLog#expFromDevice}): a call of these stays a call through inlining
 * ({@code MathCallsToNodesPhase.keepsAsCall}) and becomes the built-in of the same name. The
 * OpenCL specification bounds their error by 3 ulp; only a rounding test with a far wider margin
 * reads them, so they never decide a result alone. On the JVM (never called there by JPAI) they
 * are {@code StrictMath}'s.
 */
public final class DeviceDoubleMath {

    private DeviceDoubleMath() {
    }

    public static double exp(double x) {
        return StrictMath.exp(x);
    }

    public static double log(double x) {
        return StrictMath.log(x);
    }
}
