package jpai.bench;

import java.util.Locale;

/**
 * How close a version's output must be to the sequential one's. Floating-point elements pass when
 * {@code |x - ref| <= absolute + relative * |ref|}; integer elements must be equal, except that
 * {@code mismatchFraction} of them may differ where a program documents why (e.g. Mandelbrot
 * iteration counts on the set's boundary under a device's fused multiply-add).
 */
public record Tolerance(double relative, double absolute, double mismatchFraction) {

    public static final Tolerance EXACT = new Tolerance(0, 0, 0);

    public static Tolerance floats(double relative, double absolute) {
        return new Tolerance(relative, absolute, 0);
    }

    /**
     * The least relative tolerance of floating-point elements for the JPAI fast-math version
     * ({@link VersionKind#JPAI_FAST_MATH}, {@code -Djpai.fastmath=true}): OpenCL's relaxed math
     * allows float division and sqrt a few ulps each (2.5 and 3 in OpenCL 1.2, more under
     * {@code -cl-fast-relaxed-math}) and fused multiply-adds, and a program's sums carry those through
     * many steps; 1e-4 is the loosest tolerance a program of the suite already grants its hand-written
     * and Aparapi versions, built in that class.
     */
    public static final double FAST_MATH_RELATIVE = 1e-4;

    /**
     * This tolerance for the JPAI fast-math version, the one place its tolerance is decided: floating-point
     * elements within at least {@link #FAST_MATH_RELATIVE} relative (and this tolerance's absolute
     * part), integer elements as exact as this tolerance says (a program whose integer outputs
     * come from float arithmetic already allows the mismatches fused multiply-adds cause).
     */
    public Tolerance relaxedForFastMath() {
        return new Tolerance(Math.max(relative, FAST_MATH_RELATIVE), absolute, mismatchFraction);
    }

    /** One line for the reports. */
    public String describe() {
        if (relative == 0 && absolute == 0 && mismatchFraction == 0) {
            return "exact";
        }
        StringBuilder text = new StringBuilder();
        if (relative != 0 || absolute != 0) {
            text.append(String.format(Locale.ROOT, "|x-ref| <= %.0e + %.0e*|ref|", absolute, relative));
        }
        if (mismatchFraction != 0) {
            text.append(text.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT, "ints exact except <= %.4f%% of elements", mismatchFraction * 100));
        }
        return text.toString();
    }

    /** Null when {@code candidate} is within this tolerance of {@code reference}, else what differs. */
    public String check(Output reference, Output candidate) {
        for (String name : reference.names()) {
            Object expected = reference.get(name);
            Object actual = candidate.get(name);
            if (actual == null) {
                return "no output '" + name + "'";
            }
            String problem = compare(name, expected, actual);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private String compare(String name, Object expected, Object actual) {
        if (expected instanceof float[] e && actual instanceof float[] a) {
            if (e.length != a.length) {
                return name + ": length " + a.length + ", expected " + e.length;
            }
            for (int i = 0; i < e.length; i++) {
                if (!close(e[i], a[i])) {
                    return String.format(Locale.ROOT, "%s[%d] = %s, expected %s (tolerance %s)", name, i, a[i], e[i], describe());
                }
            }
            return null;
        }
        if (expected instanceof double[] e && actual instanceof double[] a) {
            if (e.length != a.length) {
                return name + ": length " + a.length + ", expected " + e.length;
            }
            for (int i = 0; i < e.length; i++) {
                if (!close(e[i], a[i])) {
                    return String.format(Locale.ROOT, "%s[%d] = %s, expected %s (tolerance %s)", name, i, a[i], e[i], describe());
                }
            }
            return null;
        }
        if (expected instanceof int[] e && actual instanceof int[] a) {
            if (e.length != a.length) {
                return name + ": length " + a.length + ", expected " + e.length;
            }
            long mismatches = 0;
            int first = -1;
            for (int i = 0; i < e.length; i++) {
                if (e[i] != a[i]) {
                    mismatches++;
                    if (first < 0) {
                        first = i;
                    }
                }
            }
            if (mismatches > (long) Math.floor(mismatchFraction * e.length)) {
                return String.format(Locale.ROOT, "%s: %d of %d elements differ, first [%d] = %d, expected %d (tolerance %s)", name, mismatches, e.length, first, a[first], e[first], describe());
            }
            return null;
        }
        return name + ": a " + actual.getClass().getSimpleName() + ", expected a " + expected.getClass().getSimpleName();
    }

    private boolean close(double expected, double actual) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        return Math.abs(actual - expected) <= absolute + relative * Math.abs(expected);
    }
}
