package jpai.ocl;

import java.util.Locale;

/**
 * How kernels compute Java's {@code float} division and square root, both correctly rounded (IEEE
 * 754, JLS 15.17.2; {@code (float) Math.sqrt} of a {@code float}), where OpenCL's own {@code /} and
 * {@code sqrt} may be 2.5 and 3 ulp off unless the program is built with
 * {@code -cl-fp32-correctly-rounded-divide-sqrt}. Every formulation gives Java's bits; they differ
 * only in speed, which differs by device (NVIDIA compiles the build option's divide and square root
 * into subroutine calls). The runtime maps {@code -Djpai.exactDivSqrt} to this; the proofs are the
 * helpers' comments ({@code jpai.ocl.codegen.Helper}) and {@code docs/java-semantics.md}.
 */
public enum ExactFloatDivSqrt {
    /** OpenCL's {@code /} and {@code sqrt} with the build option {@code -cl-fp32-correctly-rounded-divide-sqrt}. */
    BUILTIN("builtin"),
    /**
     * {@code (float) ((double) a / (double) b)} and {@code (float) sqrt((double) x)}: one double
     * operation and one rounding to float, no build option; needs {@code cl_khr_fp64}.
     */
    DOUBLE("double"),
    /**
     * Float arithmetic only on the common path: an approximate reciprocal (square root) refined by
     * Newton steps with {@code fma}, then an exact choice between the two nearest floats by the sign
     * of {@code fma} remainders; the rare operands outside its proven range (zeros, subnormals,
     * infinities, NaN, quotients near over- or underflow) go through double for division (so a
     * division needs {@code cl_khr_fp64}) and through an exact power-of-two scaling for sqrt.
     */
    FMA("fma");

    private final String optionValue;

    ExactFloatDivSqrt(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The value of {@code -Djpai.exactDivSqrt} that selects it. */
    public String optionValue() {
        return optionValue;
    }

    /** The formulation {@code value} names (case-insensitive), or an exception listing the names. */
    public static ExactFloatDivSqrt fromOptionValue(String value) {
        for (ExactFloatDivSqrt candidate : values()) {
            if (candidate.optionValue.equals(value.strip().toLowerCase(Locale.ROOT))) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a formulation of float division and sqrt; use builtin, double or fma");
    }
}
