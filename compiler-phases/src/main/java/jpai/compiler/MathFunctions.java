package jpai.compiler;

import java.util.Locale;

/**
 * How kernels compute {@code Math}'s transcendental functions ({@code sin}, {@code exp},
 * {@code pow}, ... : the functions of {@link jpai.compiler.phases.MathCallsToNodesPhase#FUNCTIONS}).
 * Chosen per JVM with {@code -Djpai.math}; the runtime reports a choice other than the default in
 * its explain output and profile.
 */
public enum MathFunctions {

    /**
     * The default: {@code Math.f} is compiled as {@code StrictMath.f}, whose Java implementation
     * (FdLibm) is inlined into the kernel, so the device gives {@code StrictMath}'s bits. The JDK's
     * own {@code Math.f} is specified as any result within its documented ulp bound and its
     * reference implementation is {@code StrictMath.f}: so every result is one Java allows.
     */
    JAVA("java"),

    /**
     * {@code -Djpai.math=java-float}, the default on a GPU: as {@link #JAVA}, except that
     * {@code (float) Math.sin}, {@code cos}, {@code exp} and {@code log} of a {@code float} are
     * computed from the {@code float} ({@code FloatArgumentMathPhase}: a short {@code double} path
     * with a rounding test, FdLibm where the test cannot decide), with the same bits as {@code (float)
     * StrictMath.f} (proven for every {@code float} of the fast ranges). On the H100 DFT's exact kernel
     * takes 1.45 ms this way against 4.93 ms with FdLibm alone; on PoCL (a CPU) it is slower, so a CPU
     * device keeps {@link #JAVA} (docs/java-semantics.md, session 18).
     */
    JAVA_FLOAT_ARGUMENTS("java-float"),

    /**
     * {@code -Djpai.math=java-float-device}: as {@link #JAVA_FLOAT_ARGUMENTS}, except that the
     * {@code double} approximation of {@code exp} and {@code log} on their fast paths is the device's
     * OpenCL {@code double} built-in instead of JPAI's polynomial. The rounding test is the same:
     * its margin (2^-46 of the result) is 16 times the OpenCL specification's bound for those
     * built-ins (3 ulp of a {@code double}, which a conformant device meets; NVIDIA documents 1), so
     * where it decides, the float is the rounding of the exact value and of {@code StrictMath}'s
     * alike; FdLibm where it cannot. Trusts the device's conformance where {@code java-float} trusts
     * only correctly rounded {@code +}, {@code *} and {@code fma}; checked against {@code StrictMath}
     * for every float of the fast ranges on the H100 (docs/java-semantics.md, session 20).
     */
    JAVA_FLOAT_DEVICE_EXP_LOG("java-float-device"),

    /**
     * {@code -Djpai.math=opencl}: the device's OpenCL built-ins, faster but within the OpenCL
     * specification's wider bounds (up to 16 ulps for {@code pow}); docs/java-semantics.md lists them.
     */
    OPENCL_BUILTINS("opencl");

    /** The system property that chooses. */
    public static final String PROPERTY = "jpai.math";

    private final String optionValue;

    MathFunctions(String optionValue) {
        this.optionValue = optionValue;
    }

    /**
     * Whether floats' {@code sin}, {@code cos}, {@code exp} and {@code log} are computed from the
     * float ({@link #JAVA_FLOAT_ARGUMENTS}, {@link #JAVA_FLOAT_DEVICE_EXP_LOG}).
     */
    public boolean floatArguments() {
        return this == JAVA_FLOAT_ARGUMENTS || this == JAVA_FLOAT_DEVICE_EXP_LOG;
    }

    /** Whether kernels give {@code StrictMath}'s bits ({@link #JAVA}, {@link #JAVA_FLOAT_ARGUMENTS}, {@link #JAVA_FLOAT_DEVICE_EXP_LOG}), not OpenCL's built-ins'. */
    public boolean javaResults() {
        return this != OPENCL_BUILTINS;
    }

    /** The value of {@link #PROPERTY} that selects this. */
    public String optionValue() {
        return optionValue;
    }

    /**
     * The choice made by {@code -Djpai.math}: {@link #JAVA} when unset (the runtime, which knows the
     * device, chooses {@link #JAVA_FLOAT_ARGUMENTS} for a GPU then).
     *
     * @throws IllegalArgumentException for a value that names neither choice
     */
    public static MathFunctions fromSystemProperty() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return JAVA;
        }
        for (MathFunctions choice : values()) {
            if (choice.optionValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return choice;
            }
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + " names no way to compute Math's functions: use " + JAVA.optionValue
                        + " (StrictMath's code, Java's results), " + JAVA_FLOAT_ARGUMENTS.optionValue + " (the same results, floats' sin, cos, exp and log from the float), "
                        + JAVA_FLOAT_DEVICE_EXP_LOG.optionValue + " (the same, exp and log's fast paths from the device's double built-ins)"
                        + " or " + OPENCL_BUILTINS.optionValue + " (OpenCL's built-ins, wider error bounds)");
    }
}
