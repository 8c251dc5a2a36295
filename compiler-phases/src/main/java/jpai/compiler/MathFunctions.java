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

    /** The value of {@link #PROPERTY} that selects this. */
    public String optionValue() {
        return optionValue;
    }

    /**
     * The choice made by {@code -Djpai.math}: {@link #JAVA} when unset.
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
                        + " (the default, Java's results) or " + OPENCL_BUILTINS.optionValue + " (OpenCL's built-ins, wider error bounds)");
    }
}
