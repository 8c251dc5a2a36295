package jpai.ocl;

/**
 * The {@code fma} formulations of {@code jpai.ocl.codegen.Helper} (DIV_FLOAT_FMA, SQRT_FLOAT_FMA),
 * step for step in Java ({@link Math#fma(float, float, float)} is correctly rounded, as OpenCL's
 * {@code fma}), with the device's approximate {@code half_recip}/{@code half_rsqrt} replaced by the
 * exact value pushed {@code error} ulps away: OpenCL allows up to 8192, so the proof must hold for
 * any error in [-8192, 8192]. Keep in step with the C text.
 */
final class ExactFloatDivSqrtSimulation {

    private ExactFloatDivSqrtSimulation() {
    }

    /** {@code jpai_div_float_fma(a, b)} with a reciprocal approximation {@code error} ulps off. */
    static float divide(float a, float b, int error) {
        int ea = (Float.floatToRawIntBits(a) >>> 23) & 0xFF;
        int eb = (Float.floatToRawIntBits(b) >>> 23) & 0xFF;
        if (Integer.compareUnsigned(ea - 25, 229) > 0 || Integer.compareUnsigned(eb - 1, 251) > 0 || Integer.compareUnsigned(ea - eb + 125, 250) > 0) {
            return (float) ((double) a / (double) b);
        }
        float r = off(1.0f / b, error);
        r = Math.fma(Math.fma(-b, r, 1.0f), r, r);
        r = Math.fma(Math.fma(-b, r, 1.0f), r, r);
        float q = a * r;
        q = Math.fma(Math.fma(-b, q, a), r, q);
        float rq = Math.fma(-b, q, a);
        int step = ((Float.floatToRawIntBits(rq) ^ Float.floatToRawIntBits(b) ^ Float.floatToRawIntBits(q)) >>> 31) == 0 ? 1 : -1;
        float n = Float.intBitsToFloat(Float.floatToRawIntBits(q) + step);
        float rn = Math.fma(-b, n, a);
        return Math.abs(rn) < Math.abs(rq) ? n : q;
    }

    /** {@code jpai_sqrt_float_fma(x)} with a reciprocal square root approximation {@code error} ulps off. */
    static float sqrt(float x, int error) {
        if (Integer.compareUnsigned((Float.floatToRawIntBits(x) >>> 23) - 27, 227) <= 0) {
            return sqrtInRange(x, error);
        }
        if (x > 0.0f && x < 0x1.0p-100f) {
            return sqrtInRange(x * 0x1.0p100f, error) * 0x1.0p-50f;
        }
        return x < 0.0f ? Float.NaN : x + x;
    }

    /** {@code jpai_reciprocal_sqrt_float_fma(x)}: Java's {@code 1.0f / (float) Math.sqrt(x)}. */
    static float reciprocalSqrt(float x, int error) {
        if (Integer.compareUnsigned((Float.floatToRawIntBits(x) >>> 23) - 27, 227) > 0) {
            return divide(1.0f, sqrt(x, error), error);
        }
        float y = rsqrtApproximation(x, error);
        float s = sqrtFrom(x, y);
        float r = Math.fma(Math.fma(-s, y, 1.0f), y, y);
        float rr = Math.fma(-s, r, 1.0f);
        float n = Float.intBitsToFloat(Float.floatToRawIntBits(r) + (rr > 0.0f ? 1 : -1));
        float rn = Math.fma(-s, n, 1.0f);
        return Math.abs(rn) < Math.abs(rr) ? n : r;
    }

    private static float rsqrtApproximation(float x, int error) {
        float y = off((float) (1.0 / Math.sqrt(x)), error);
        y = Math.fma(0.5f * y, Math.fma(-(x * y), y, 1.0f), y);
        return Math.fma(0.5f * y, Math.fma(-(x * y), y, 1.0f), y);
    }

    private static float sqrtInRange(float x, int error) {
        return sqrtFrom(x, rsqrtApproximation(x, error));
    }

    private static float sqrtFrom(float x, float y) {
        float s = x * y;
        s = Math.fma(Math.fma(-s, s, x), 0.5f * y, s);
        float r = Math.fma(-s, s, x);
        float up = Float.intBitsToFloat(Float.floatToRawIntBits(s) + 1);
        float down = Float.intBitsToFloat(Float.floatToRawIntBits(s) - 1);
        return r > s * (up - s) ? up : r <= -(s * (s - down)) ? down : s;
    }

    /** {@code value} moved {@code ulps} floats up (positive) or down, as a poor approximation would be. */
    private static float off(float value, int ulps) {
        return Float.intBitsToFloat(Float.floatToRawIntBits(value) + (value < 0 ? -ulps : ulps));
    }

    /**
     * The exhaustive check: every float's square root and its reciprocal, for each error in {@code args} (default -8192,
     * 0, 8192); prints the mismatches. Minutes on one core; run from the test classpath.
     */
    public static void main(String[] args) {
        int[] errors = args.length == 0 ? new int[] {-8192, 0, 8192} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        for (int error : errors) {
            long mismatches = java.util.stream.LongStream.rangeClosed(0, 0xFFFFFFFFL).parallel().filter(bits -> {
                float x = Float.intBitsToFloat((int) bits);
                return Float.floatToIntBits(sqrt(x, error)) != Float.floatToIntBits((float) Math.sqrt(x));
            }).count();
            System.out.println("sqrt, approximation " + error + " ulps off: " + mismatches + " mismatches in 2^32 floats");
            long reciprocals = java.util.stream.LongStream.rangeClosed(0, 0xFFFFFFFFL).parallel().filter(bits -> {
                float x = Float.intBitsToFloat((int) bits);
                return Float.floatToIntBits(reciprocalSqrt(x, error)) != Float.floatToIntBits(1.0f / (float) Math.sqrt(x));
            }).count();
            System.out.println("1 / sqrt, approximation " + error + " ulps off: " + reciprocals + " mismatches in 2^32 floats");
        }
    }
}
