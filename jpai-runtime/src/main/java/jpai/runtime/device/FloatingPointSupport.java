package jpai.runtime.device;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import org.jocl.CL;

import jpai.ocl.OpenCLKernelGenerator;

/**
 * Whether a device's floating-point arithmetic gives Java's results: Java's {@code float} and
 * {@code double} keep subnormal numbers, infinities and NaN, round to nearest, and divide and take
 * square roots correctly rounded (kernels are built with
 * {@code -cl-fp32-correctly-rounded-divide-sqrt}, which a device may only honour if it says so).
 * A device that flushes subnormals to zero (allowed for {@code float} by OpenCL's embedded and some
 * full profiles) would give other bits silently; the runtime instead runs such an operation in Java
 * and says which capability is missing.
 */
public final class FloatingPointSupport {

    /** The {@code CL_DEVICE_SINGLE_FP_CONFIG} bits Java's {@code float} needs. */
    public static final long JAVA_FLOAT = CL.CL_FP_DENORM | CL.CL_FP_INF_NAN | CL.CL_FP_ROUND_TO_NEAREST | CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;

    /** The {@code CL_DEVICE_DOUBLE_FP_CONFIG} bits Java's {@code double} needs (OpenCL rounds its divide and sqrt correctly). */
    public static final long JAVA_DOUBLE = CL.CL_FP_DENORM | CL.CL_FP_INF_NAN | CL.CL_FP_ROUND_TO_NEAREST;

    /**
     * For tests: {@code -Djpai.test.withoutFpCapabilities=denormals,...} makes every device lack the
     * capabilities named ({@code denormals}, {@code infinities}, {@code roundToNearest},
     * {@code correctlyRoundedDivideSqrt}, {@code double}), to show what a device without them gets.
     */
    public static final String TEST_MASK_PROPERTY = "jpai.test.withoutFpCapabilities";

    private static final Pattern FLOAT = Pattern.compile("\\bfloat\\d*\\b");
    private static final Pattern DOUBLE = Pattern.compile("\\bdouble\\d*\\b");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    private FloatingPointSupport() {
    }

    /**
     * What {@code device} lacks to run the OpenCL C program {@code programText} with Java's
     * floating-point results, as a sentence part ("flushes float subnormals to zero"), or null if
     * nothing. Which types the program uses is read from its text.
     */
    public static String missingFor(OpenCLDeviceInfo device, String programText) {
        return missingFor(device, programText, OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS);
    }

    /**
     * As {@link #missingFor(OpenCLDeviceInfo, String)}, for a program built with {@code buildOptions}:
     * {@code CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT} is needed only where they ask for it; without them
     * the program computes float division and sqrt exactly with its own helpers
     * ({@code -Djpai.exactDivSqrt}).
     */
    public static String missingFor(OpenCLDeviceInfo device, String programText, String buildOptions) {
        String code = COMMENT.matcher(programText).replaceAll(" ");
        List<String> missing = missing(device, FLOAT.matcher(code).find(), DOUBLE.matcher(code).find(),
                        buildOptions.contains(OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS));
        return missing.isEmpty() ? null : "the device " + device.name() + " " + String.join(" and ", missing) + ", so it cannot give Java's results";
    }

    /**
     * What {@code device} lacks for Java's {@code float} and {@code double} arithmetic, or null: for
     * listings of devices, before any program is built ("flushes float subnormal numbers to zero ...").
     */
    public static String missingForJavaArithmetic(OpenCLDeviceInfo device) {
        List<String> missing = missing(device, true, true, true);
        return missing.isEmpty() ? null : String.join(" and ", missing);
    }

    /** The capabilities {@code device} lacks for the types named, each as a sentence part. */
    private static List<String> missing(OpenCLDeviceInfo device, boolean usesFloat, boolean usesDouble, boolean builtinDivideSqrt) {
        List<String> missing = new ArrayList<>();
        long masked = maskedForTests();
        if (usesFloat) {
            describe(device.singleFpConfig() & ~masked, builtinDivideSqrt ? JAVA_FLOAT : JAVA_FLOAT & ~CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, "float", missing);
        }
        if (usesDouble) {
            long config = (masked & DOUBLE_MASK) != 0 ? 0 : device.doubleFpConfig() & ~masked;
            if (config == 0) {
                missing.add("has no double arithmetic (CL_DEVICE_DOUBLE_FP_CONFIG is 0)");
            } else {
                describe(config, JAVA_DOUBLE, "double", missing);
            }
        }
        return missing;
    }

    /** Stands for "no doubles at all" in the test mask. */
    private static final long DOUBLE_MASK = 1L << 62;

    private static void describe(long config, long needed, String type, List<String> missing) {
        if ((config & CL.CL_FP_DENORM) == 0 && (needed & CL.CL_FP_DENORM) != 0) {
            missing.add("flushes " + type + " subnormal numbers to zero (no CL_FP_DENORM)");
        }
        if ((config & CL.CL_FP_INF_NAN) == 0 && (needed & CL.CL_FP_INF_NAN) != 0) {
            missing.add("has no " + type + " infinities and NaN (no CL_FP_INF_NAN)");
        }
        if ((config & CL.CL_FP_ROUND_TO_NEAREST) == 0 && (needed & CL.CL_FP_ROUND_TO_NEAREST) != 0) {
            missing.add("does not round " + type + " results to nearest (no CL_FP_ROUND_TO_NEAREST)");
        }
        if ((config & CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) == 0 && (needed & CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0) {
            missing.add("does not divide and take square roots of " + type + "s correctly rounded (no CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)");
        }
    }

    private static long maskedForTests() {
        String value = System.getProperty(TEST_MASK_PROPERTY);
        if (value == null || value.isBlank()) {
            return 0;
        }
        long mask = 0;
        for (String name : value.split(",")) {
            mask |= switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "denormals" -> CL.CL_FP_DENORM;
                case "infinities" -> CL.CL_FP_INF_NAN;
                case "roundtonearest" -> CL.CL_FP_ROUND_TO_NEAREST;
                case "correctlyroundeddividesqrt" -> CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
                case "double" -> DOUBLE_MASK;
                default -> throw new IllegalArgumentException("-D" + TEST_MASK_PROPERTY + ": unknown capability '" + name + "'");
            };
        }
        return mask;
    }
}
