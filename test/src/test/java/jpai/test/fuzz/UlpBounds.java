package jpai.test.fuzz;

import java.util.Map;

/**
 * The ONE place that says how far the device's transcendental results may be from the JVM's.
 *
 * <p>Until docs/java-semantics.md (the compiler branch) states JPAI's own bound, these are the
 * OpenCL 1.2 full-profile bounds (OpenCL 1.2 specification, section 7.4, tables 7.2 and 7.3: the
 * maximum error of each built-in in ulp of the exact result) plus Java's own bound for
 * {@code java.lang.Math} (its Javadoc: 1 ulp for most, 2 for atan2, 2.5 for sinh/cosh/tanh, 1.5 for
 * hypot). Both sides are compared with each other, not with the exact result, so the bound of their
 * difference is the sum, rounded up. Align this table with docs/java-semantics.md when it exists.
 *
 * <p>A {@code float} component computed as {@code (float) Math.f(x)}: see {@link #FLOAT_ULPS}.
 *
 * <p>Every other operation (+ - * /, %, sqrt, conversions, Math.abs/min/max/floor/ceil/rint/round/
 * signum/copySign, bit operations) is compared bit for bit.
 */
public final class UlpBounds {

    /** The transcendental functions the generator uses, with their bound in double ulps. */
    static final Map<String, Integer> DOUBLE_ULPS = Map.ofEntries(
                    // function, OpenCL 1.2 double bound + Java Math bound, rounded up
                    Map.entry("sin", 4 + 1),
                    Map.entry("cos", 4 + 1),
                    Map.entry("tan", 5 + 1),
                    Map.entry("asin", 4 + 1),
                    Map.entry("acos", 4 + 1),
                    Map.entry("atan", 5 + 1),
                    Map.entry("atan2", 6 + 2),
                    Map.entry("sinh", 4 + 3),
                    Map.entry("cosh", 4 + 3),
                    Map.entry("tanh", 5 + 3),
                    Map.entry("exp", 3 + 1),
                    Map.entry("expm1", 3 + 1),
                    Map.entry("log", 3 + 1),
                    Map.entry("log10", 3 + 1),
                    Map.entry("log1p", 2 + 1),
                    Map.entry("cbrt", 2 + 1),
                    Map.entry("pow", 16 + 1),
                    Map.entry("hypot", 4 + 2));

    /**
     * Float components: the compiler computes {@code (float) Math.f(x)} of {@code float} arguments with
     * the {@code float} built-in (FloatTranscendentalsPhase), so the bound is OpenCL's {@code float}
     * bound plus 1 (docs/java-semantics.md, column "vs Java, float"); with {@code -Djpai.floatmath=false},
     * or when the call stays in {@code double}, 1 float ulp, which these bounds include.
     */
    static final Map<String, Integer> FLOAT_ULPS = Map.ofEntries(
                    // function, OpenCL 1.2 float bound + 1
                    Map.entry("sin", 4 + 1),
                    Map.entry("cos", 4 + 1),
                    Map.entry("tan", 5 + 1),
                    Map.entry("asin", 4 + 1),
                    Map.entry("acos", 4 + 1),
                    Map.entry("atan", 5 + 1),
                    Map.entry("atan2", 6 + 1),
                    Map.entry("sinh", 4 + 1),
                    Map.entry("cosh", 4 + 1),
                    Map.entry("tanh", 5 + 1),
                    Map.entry("exp", 3 + 1),
                    Map.entry("expm1", 3 + 1),
                    Map.entry("log", 3 + 1),
                    Map.entry("log10", 3 + 1),
                    Map.entry("log1p", 2 + 1),
                    Map.entry("cbrt", 2 + 1),
                    Map.entry("pow", 16 + 1),
                    Map.entry("hypot", 4 + 1));

    private UlpBounds() {
    }

    /** The bound for {@code function} (a name in {@link #DOUBLE_ULPS}) on a component of {@code type}. */
    static int bound(String function, Prim type) {
        Integer ulps = DOUBLE_ULPS.get(function);
        if (ulps == null) {
            throw new IllegalArgumentException("no ulp bound for " + function);
        }
        return type == Prim.FLOAT ? FLOAT_ULPS.get(function) : ulps;
    }

    /**
     * The distance in ulps between two values of a component ({@code Float} or {@code Double}):
     * 0 for equal bits or two NaNs, {@link Long#MAX_VALUE} for a NaN and a number. +0.0 and -0.0 are 1
     * apart; the largest finite value and infinity are 1 apart.
     */
    static long distance(Object expected, Object actual) {
        if (expected instanceof Double e && actual instanceof Double a) {
            if (e.isNaN() || a.isNaN()) {
                return e.isNaN() && a.isNaN() ? 0 : Long.MAX_VALUE;
            }
            return difference(ordered(Double.doubleToRawLongBits(e)), ordered(Double.doubleToRawLongBits(a)));
        }
        if (expected instanceof Float e && actual instanceof Float a) {
            if (e.isNaN() || a.isNaN()) {
                return e.isNaN() && a.isNaN() ? 0 : Long.MAX_VALUE;
            }
            return Math.abs(orderedInt(Float.floatToRawIntBits(e)) - orderedInt(Float.floatToRawIntBits(a)));
        }
        return expected.equals(actual) ? 0 : Long.MAX_VALUE;
    }

    /** Bits mapped so that consecutive doubles are consecutive integers (-0.0 is -1, +0.0 is 0). */
    private static long ordered(long bits) {
        return bits >= 0 ? bits : Long.MIN_VALUE - bits - 1;
    }

    private static long orderedInt(int bits) {
        return bits >= 0 ? bits : (long) Integer.MIN_VALUE - bits - 1;
    }

    private static long difference(long a, long b) {
        long d = a - b;
        // Saturate on overflow (values of opposite signs far apart).
        if (((a ^ b) & (a ^ d)) < 0) {
            return Long.MAX_VALUE;
        }
        return Math.abs(d);
    }
}
