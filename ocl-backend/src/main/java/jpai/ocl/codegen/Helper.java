package jpai.ocl.codegen;

/**
 * Small OpenCL C functions the generated code calls where one Java operation needs more than an
 * expression to keep its exact meaning. A program defines each helper it uses once, before the
 * functions that call it.
 */
public enum Helper {
    /*
     * Integer narrowing with no implementation-defined step and no 8- or 16-bit C type. C leaves the
     * conversion of an out-of-range value to a signed type to the implementation (C99 6.3.1.3, which
     * OpenCL C 1.2 6.2.3 refers to), and NVIDIA's OpenCL compiler lost the sign of char/short values
     * where PoCL's LLVM kept it (fuzz seeds 20261124/3830, 20261125/1730 and 2313, 20261126/2697 and
     * 8562 on the H100). These compute Java's results with in-range operations on unsigned ints and
     * one int subtraction that cannot overflow: the low bits, less twice their sign bit.
     *
     * Not {@code (x ^ 0x8000) - 32768}, the form used until 2026-11-26: NVIDIA's compiler recognised
     * it (as it does {@code (short) x} and {@code (x << 16) >> 16}) as a sign extension, then reasoned
     * on 16-bit values: {@code (short) ~(p * Integer.MAX_VALUE) < -1} became {@code -(short) p > 0} in
     * PTX ({@code neg.s16}, {@code setp.gt.s16}), which is wrong for {@code p = -32768} (fuzz seed
     * 20261126 program 92 on the H200; the form below, a select and a 64-bit shift pair all gave
     * Java's answer there, PTX in docs/fuzzing.md).
     */
    /** Java's {@code (short)} of an integer: its low 16 bits as a signed value, in an {@code int} (no 16-bit C type: see OpenCLTypes). */
    NARROW_SHORT(false, """
            static int jpai_narrow_short(long x) {
                return (int) ((uint) x & 0xFFFFu) - (int) (((uint) x & 0x8000u) << 1);
            }"""),
    /** Java's {@code (byte)} of an integer: its low 8 bits as a signed value, in an {@code int}. */
    NARROW_BYTE(false, """
            static int jpai_narrow_byte(long x) {
                return (int) ((uint) x & 0xFFu) - (int) (((uint) x & 0x80u) << 1);
            }"""),
    /**
     * {@code Math.abs(int)}: {@code MIN_VALUE} stays {@code MIN_VALUE}; the negation is guarded so it
     * never overflows, and no OpenCL {@code abs()} (PoCL's LLVM takes {@code abs(INT_MIN)} as poison).
     * The result passes through a {@code volatile} variable: NVIDIA's compiler recognised the
     * expression as an absolute value, took it as never negative and folded {@code (int) Math.abs((long)
     * MIN_VALUE)} to a positive number (fuzz seed 20261130 program 2610: PTX {@code abs.s32} whose sign
     * the rest of the code then assumed); a value read back from a volatile is one it cannot reason about.
     */
    ABS_INT(false, """
            static int jpai_abs_int(int x) {
                volatile int magnitude = x == (-2147483647 - 1) ? x : x < 0 ? -x : x;
                return magnitude;
            }"""),
    /** {@code Math.abs(long)}, as {@link #ABS_INT}. */
    ABS_LONG(false, """
            static long jpai_abs_long(long x) {
                volatile long magnitude = x == (-9223372036854775807L - 1L) ? x : x < 0 ? -x : x;
                return magnitude;
            }"""),
    /**
     * An integer negation that a comparison or min/max uses, as a multiplication by -1 that no
     * compiler can see as a negation: NVIDIA's PTX assembler (CUDA 13.0, ptxas -O1 to -O3, sm_90)
     * fuses {@code min(min(-a, -b), -c)} or {@code max(max(a, -b), -c)} (right in PTX: {@code neg},
     * {@code min}, ...) into one three-way {@code VIMNMX3} and keeps only one of the negations (fuzz
     * seed 20261131 program 1391; {@code FuzzerFoundBugsTest.nestedMaximaOfNegations}, which failed on
     * the H100 in one lambda: {@code max(max(MIN_VALUE, 2^30), 2^29)} gave 2^29). A volatile did not
     * help (NVIDIA's compiler drops {@code volatile} on private variables, and ptxas then forwards the
     * value). The factor is {@code -min(get_work_dim(), 1)}: -1 in every launch (at least one
     * dimension), but a value read at run time, so the product stays a multiplication.
     */
    NEGATE_FOR_COMPARISON_INT(false, """
            static int jpai_negate_for_comparison_int(int x) {
                return as_int((uint) x * (0u - (uint) min(get_work_dim(), 1u)));
            }"""),
    /** A long negation that a comparison or min/max uses, as {@link #NEGATE_FOR_COMPARISON_INT}. */
    NEGATE_FOR_COMPARISON_LONG(false, """
            static long jpai_negate_for_comparison_long(long x) {
                return as_long((ulong) x * (0ul - (ulong) min(get_work_dim(), 1u)));
            }"""),
    /** {@code Integer.compress}: the bits of {@code x} selected by {@code mask}, packed to the right; unsigned throughout. */
    COMPRESS_INT(false, bitGather("compress", "int")),
    /** {@code Long.compress}, as {@link #COMPRESS_INT}. */
    COMPRESS_LONG(false, bitGather("compress", "long")),
    /** {@code Integer.expand}: the low bits of {@code x} spread to the positions of {@code mask}'s set bits. */
    EXPAND_INT(false, bitGather("expand", "int")),
    /** {@code Long.expand}, as {@link #EXPAND_INT}. */
    EXPAND_LONG(false, bitGather("expand", "long")),
    /**
     * {@code Float.float16ToFloat}: exact (every binary16 value is a float); a NaN keeps its
     * significand bits, shifted to the top of the float's, quieted where this JVM quiets it
     * ({@link HalfFloatNaNs}). Integer operations only,
     * no {@code half} type (OpenCL 1.2 devices need not have it).
     */
    HALF_TO_FLOAT(false, """
            static float jpai_half_to_float(int h) {
                uint bits = (uint) h & 0xFFFFu;
                uint sign = (bits & 0x8000u) << 16;
                uint exponent = (bits >> 10) & 0x1Fu;
                uint significand = bits & 0x3FFu;
                if (exponent == 0x1Fu) return as_float(sign | 0x7F800000u | (significand << 13)@QUIET_BIT@);
                if (exponent == 0u) {
                    float magnitude = (float) significand * 0x1.0p-24f; /* exact: at most 10 bits */
                    return sign != 0u ? -magnitude : magnitude;
                }
                return as_float(sign | ((exponent + 112u) << 23) | (significand << 13));
            }""".replace("@QUIET_BIT@", HalfFloatNaNs.quietBitOfFloat())),
    /**
     * {@code Float.floatToFloat16}: rounded to nearest, ties to even; beyond the largest binary16
     * (65504, or from 65520 on once rounded) infinity; a NaN's bits as this JVM makes them
     * ({@link HalfFloatNaNs}: they are visible in the {@code short}). The
     * {@code short} in an {@code int}, sign-extended.
     */
    FLOAT_TO_HALF(false, """
            static int jpai_float_to_half(float f) {
                uint bits = as_uint(f);
                uint sign = (bits >> 16) & 0x8000u;
                uint magnitude = bits & 0x7FFFFFFFu;
                uint h;
                if (magnitude > 0x7F800000u) {
                    h = sign | 0x7C00u | @NAN_PAYLOAD@;
                } else if (magnitude >= 0x477FF000u) {
                    h = sign | 0x7C00u;
                } else if (magnitude < 0x38800000u) {
                    /* below 2^-14: a multiple of 2^-24, rounded to nearest even; the scaling is exact */
                    h = sign | (uint) rint(as_float(magnitude) * 0x1.0p24f);
                } else {
                    uint rounded = (magnitude >> 13) - (112u << 10);
                    uint dropped = magnitude & 0x1FFFu;
                    if (dropped > 0x1000u || (dropped == 0x1000u && (rounded & 1u) != 0u)) rounded += 1u;
                    h = sign | rounded;
                }
                return (int) (h ^ 0x8000u) - 32768;
            }""".replace("@NAN_PAYLOAD@", HalfFloatNaNs.payloadOfHalf())),
    /** {@code Math.min(float, float)}: NaN if either is NaN; {@code -0.0f} is smaller than {@code 0.0f}. */
    MIN_FLOAT(false, """
            static float jpai_min_float(float a, float b) {
                if (isnan(a)) return a;
                if (isnan(b)) return b;
                if (a == b) return as_float(as_uint(a) | as_uint(b)); /* -0.0f if either is -0.0f */
                return a < b ? a : b;
            }"""),
    /** {@code Math.max(float, float)}: NaN if either is NaN; {@code 0.0f} is larger than {@code -0.0f}. */
    MAX_FLOAT(false, """
            static float jpai_max_float(float a, float b) {
                if (isnan(a)) return a;
                if (isnan(b)) return b;
                if (a == b) return as_float(as_uint(a) & as_uint(b)); /* 0.0f unless both are -0.0f */
                return a > b ? a : b;
            }"""),
    /** {@code Math.min(double, double)}, as {@link #MIN_FLOAT}. */
    MIN_DOUBLE(true, """
            static double jpai_min_double(double a, double b) {
                if (isnan(a)) return a;
                if (isnan(b)) return b;
                if (a == b) return as_double(as_ulong(a) | as_ulong(b));
                return a < b ? a : b;
            }"""),
    /** {@code Math.max(double, double)}, as {@link #MAX_FLOAT}. */
    MAX_DOUBLE(true, """
            static double jpai_max_double(double a, double b) {
                if (isnan(a)) return a;
                if (isnan(b)) return b;
                if (a == b) return as_double(as_ulong(a) & as_ulong(b));
                return a > b ? a : b;
            }"""),
    /**
     * {@code Math.round(float)}: the closest {@code int}, ties toward positive infinity, NaN to 0,
     * saturated. {@code x - floor(x)} is exact, so {@code 0.49999997f} rounds to 0 (where
     * {@code floor(x + 0.5f)} would give 1).
     */
    ROUND_FLOAT(false, """
            static int jpai_round_float(float x) {
                if (isnan(x)) return 0;
                float down = floor(x);
                return convert_int_sat_rtz(x - down >= 0.5f ? down + 1.0f : down);
            }"""),
    /** {@code Math.round(double)}, as {@link #ROUND_FLOAT}, to {@code long}. */
    ROUND_DOUBLE(true, """
            static long jpai_round_double(double x) {
                if (isnan(x)) return 0L;
                double down = floor(x);
                return convert_long_sat_rtz(x - down >= 0.5 ? down + 1.0 : down);
            }"""),
    /** {@code Integer.numberOfTrailingZeros}: 32 for 0 (OpenCL C 1.2 has no {@code ctz}). */
    TRAILING_ZEROS_INT(false, """
            static int jpai_ctz_int(int x) {
                uint u = as_uint(x);
                return u == 0u ? 32 : (int) popcount((u & (0u - u)) - 1u);
            }"""),
    /** {@code Long.numberOfTrailingZeros}: 64 for 0. */
    TRAILING_ZEROS_LONG(false, """
            static int jpai_ctz_long(long x) {
                ulong u = as_ulong(x);
                return u == 0UL ? 64 : (int) popcount((u & (0UL - u)) - 1UL);
            }"""),
    /**
     * {@code Math.pow}: OpenCL's {@code pow} (C99's special cases) within its ulp bound, except where
     * Java's special cases differ: Java gives NaN for a NaN exponent (C: {@code pow(1, NaN)} is 1) and
     * for {@code |x| == 1} with an infinite exponent (C: 1).
     */
    POW(true, """
            static double jpai_pow(double x, double y) {
                if (y == 0.0) return 1.0;  /* Java's special cases first, whatever the built-in does */
                if (y == 1.0) return x;    /* exact in Java; NVIDIA's pow(x, 1.0) was not x */
                if (isnan(y) || (isinf(y) && fabs(x) == 1.0)) return as_double(0x7ff8000000000000UL);
                return pow(x, y);
            }"""),
    /*
     * Java's float division and square root, correctly rounded, without the build option
     * -cl-fp32-correctly-rounded-divide-sqrt (ExactFloatDivSqrt; docs/java-semantics.md, "Float
     * division and square root"). Each is exact for every operand; the tests prove it on PoCL
     * (every float for sqrt and 1 / sqrt; edge classes and random pairs for division:
     * jpai.test.exactness.ExactDivSqrtTest and ExactDivSqrtProof), in Java (ExactFloatDivSqrtSimulation) and on the H100 (bin/gpu-check exactness).
     */
    /**
     * {@code a / b} through double: the quotient of two floats rounded once to double, then to float.
     * Rounding twice is innocuous when the wider format has at least 2p + 2 bits for p-bit operands
     * (Figueroa, "When is double rounding innocuous?", SIGNUM Newsletter 30(3), 1995: for + - * / and
     * sqrt; 53 >= 2 * 24 + 2). A subnormal float quotient is the same case with fewer than 24 bits.
     * The double quotient is never subnormal (|a / b| >= 2^-149 / 2^128), so it is one exact rounding.
     */
    DIV_FLOAT_DOUBLE(true, """
            static float jpai_div_float_double(float a, float b) {
                return convert_float_rte(convert_double(a) / convert_double(b));
            }"""),
    /** {@code (float) Math.sqrt(x)} of a float through double: Java's own definition, innocuous as {@link #DIV_FLOAT_DOUBLE}. */
    SQRT_FLOAT_DOUBLE(true, """
            static float jpai_sqrt_float_double(float x) {
                return convert_float_rte(sqrt(convert_double(x)));
            }"""),
    /**
     * {@code a / b} in float arithmetic where the operands allow, else through double. In the range
     * tested first (a's exponent at least -102, b's in [-126, 125], the quotient's in [-125, 125])
     * no step over- or underflows: half_recip is within 8192 ulp (OpenCL 1.2, 7.4: relative error at
     * most 2^-10), two Newton steps with fma bring the reciprocal r within about 2^-23, q = a * r
     * within about 2^-22, and the correction q + (a - b * q) * r (Markstein) lands within 2^-44 of
     * a / b before its rounding, so q is one of the two floats around a / b. For such a q the
     * remainder a - b * q is a float, which fma gives exactly (its bits are multiples of 2^(e_a - 47)
     * >= 2^-149, fewer than 24 of them); so is the other candidate's. The float nearer to a / b is
     * the one with the smaller |remainder| (|a - b * c| = |b| |a / b - c|); a tie would need a / b
     * halfway between two floats, which a normal quotient of two floats never is (the midpoint has
     * 25 bits, b times it at least 25). fma is correctly rounded by OpenCL's definition, and an
     * explicit call even under FP_CONTRACT OFF.
     */
    DIV_FLOAT_FMA(true, """
            static float jpai_div_float_fma(float a, float b) {
                uint ea = (as_uint(a) >> 23) & 0xFFu;
                uint eb = (as_uint(b) >> 23) & 0xFFu;
                if (ea - 25u > 229u || eb - 1u > 251u || ea - eb + 125u > 250u) {
                    /* zeros, subnormals, infinities, NaN, tiny dividends, quotients near over- or underflow */
                    return convert_float_rte(convert_double(a) / convert_double(b));
                }
                float r = half_recip(b);
                r = fma(fma(-b, r, 1.0f), r, r);
                r = fma(fma(-b, r, 1.0f), r, r);
                float q = a * r;
                q = fma(fma(-b, q, a), r, q);
                float rq = fma(-b, q, a); /* exact: b * (a / b - q); 0 keeps q below (no |rn| is < 0) */
                /* the other float around a / b: one step away from zero if |a / b| > |q|, else toward it */
                uint step = ((as_uint(rq) ^ as_uint(b) ^ as_uint(q)) >> 31) == 0u ? 1u : 0xFFFFFFFFu;
                float n = as_float(as_uint(q) + step);
                float rn = fma(-b, n, a);
                return fabs(rn) < fabs(rq) ? n : q;
            }"""),
    /**
     * {@code (float) Math.sqrt(x)} in float arithmetic only. For x in [2^-100, 2^128): half_rsqrt
     * within 8192 ulp (2^-10), two Newton steps with fma (about 2^-23), s = x * y, and the correction
     * s + (x - s * s) * y / 2 lands within 2^-44 of sqrt(x) before its rounding, so s is one of the two
     * floats around it. Then x - s * s is exact (fma; the remainder of a faithful root is a float: Boldo
     * and Daumas, "Representable correcting terms for possibly underflowing floating point operations",
     * ARITH 2003; it is a multiple of ulp(s)^2 >= 2^-146, so nothing underflows), and the
     * midpoint test needs no rounding: sqrt(x) > s + u / 2 (u = the step up, exact) iff
     * x - s^2 - s * u > u^2 / 4, and as x - s^2 - s * u is a multiple of u^2 that is iff it is > 0, that
     * is x - s^2 > s * u (exact: a power-of-two multiple of s); below s likewise with the step down
     * d: sqrt(x) &lt; s - d / 2 iff x - s^2 &lt;= -(s * d). No tie exists (a midpoint's square has more
     * than 24 bits). Smaller positive x (subnormals too) are scaled by 2^100 (exact), and the root
     * back by 2^-50 (exact: a root is at least 2^-75, normal). 0, -0, infinity: themselves; NaN: NaN;
     * negative: NaN.
     */
    SQRT_FLOAT_FMA(false, """
            static float jpai_rsqrt_approx_fma(float x) { /* within about 2^-23 of 1 / sqrt(x), for x in [2^-100, 2^128) */
                float y = half_rsqrt(x);
                y = fma(0.5f * y, fma(-(x * y), y, 1.0f), y);
                return fma(0.5f * y, fma(-(x * y), y, 1.0f), y);
            }

            static float jpai_sqrt_float_fma_from(float x, float y) { /* sqrt(x) correctly rounded, y from jpai_rsqrt_approx_fma */
                float s = x * y;
                s = fma(fma(-s, s, x), 0.5f * y, s);
                float r = fma(-s, s, x); /* exact: x - s^2 */
                float up = as_float(as_uint(s) + 1u);
                float down = as_float(as_uint(s) - 1u);
                /* selects, no branches: r > s * u needs r > 0, r <= -(s * d) needs r < 0 */
                return r > s * (up - s) ? up : r <= -(s * (s - down)) ? down : s;
            }

            static float jpai_sqrt_float_fma(float x) {
                if ((as_uint(x) >> 23) - 27u <= 227u) return jpai_sqrt_float_fma_from(x, jpai_rsqrt_approx_fma(x)); /* positive, [2^-100, 2^128) */
                if (x > 0.0f && x < 0x1.0p-100f) {
                    float scaled = x * 0x1.0p100f;
                    return jpai_sqrt_float_fma_from(scaled, jpai_rsqrt_approx_fma(scaled)) * 0x1.0p-50f;
                }
                return x < 0.0f ? NAN : x + x; /* 0 and -0, infinity, NaN */
            }"""),
    /**
     * Java's {@code 1.0f / (float) Math.sqrt(x)} (N-Body's inverse distance), rounded twice as in Java
     * (a fused rsqrt rounds once and differs), with the approximation shared: the refined y of
     * {@link #SQRT_FLOAT_FMA} is within about 2^-23 of 1 / sqrt(x), so within about 2^-22 of 1 / s for
     * the rounded root s; one Newton step with fma lands within 2^-43 of 1 / s before its rounding, so r
     * is one of the two floats around 1 / s, and the exact choice of {@link #DIV_FLOAT_FMA} with a = 1
     * follows (1 - s * r is exact: s in [2^-50, 2^64), its bits multiples of 2^-47). Outside sqrt's
     * range, the two helpers one after the other. Emitted with both, which it calls.
     */
    RECIPROCAL_SQRT_FLOAT_FMA(true, """
            static float jpai_reciprocal_sqrt_float_fma(float x) {
                if ((as_uint(x) >> 23) - 27u > 227u) return jpai_div_float_fma(1.0f, jpai_sqrt_float_fma(x));
                float y = jpai_rsqrt_approx_fma(x);
                float s = jpai_sqrt_float_fma_from(x, y);
                float r = fma(fma(-s, y, 1.0f), y, y);
                float rr = fma(-s, r, 1.0f); /* exact: s * (1 / s - r); 0 keeps r below */
                float n = as_float(as_uint(r) + (rr > 0.0f ? 1u : 0xFFFFFFFFu)); /* the other float around 1 / s */
                float rn = fma(-s, n, 1.0f);
                return fabs(rn) < fabs(rr) ? n : r;
            }"""),
    /** {@code Integer.reverse}: the bits in reverse order (swaps of halves, pairs, nibbles; then the bytes). */
    REVERSE_BITS_INT(false, """
            static int jpai_reverse_int(int x) {
                uint u = as_uint(x);
                u = ((u & 0x55555555u) << 1) | ((u >> 1) & 0x55555555u);
                u = ((u & 0x33333333u) << 2) | ((u >> 2) & 0x33333333u);
                u = ((u & 0x0f0f0f0fu) << 4) | ((u >> 4) & 0x0f0f0f0fu);
                return as_int(as_uchar4(u).s3210);
            }"""),
    /** {@code Long.reverse}, as {@link #REVERSE_BITS_INT}. */
    REVERSE_BITS_LONG(false, """
            static long jpai_reverse_long(long x) {
                ulong u = as_ulong(x);
                u = ((u & 0x5555555555555555UL) << 1) | ((u >> 1) & 0x5555555555555555UL);
                u = ((u & 0x3333333333333333UL) << 2) | ((u >> 2) & 0x3333333333333333UL);
                u = ((u & 0x0f0f0f0f0f0f0f0fUL) << 4) | ((u >> 4) & 0x0f0f0f0f0f0f0f0fUL);
                return as_long(as_uchar8(u).s76543210);
            }""");

    private final boolean usesDoubles;
    private final String text;

    Helper(boolean usesDoubles, String text) {
        this.usesDoubles = usesDoubles;
        this.text = text;
    }

    /** True if the helper needs {@code cl_khr_fp64}. */
    public boolean usesDoubles() {
        return usesDoubles;
    }

    /** The helper's definition. */
    public String text() {
        return text;
    }

    /**
     * {@code compress} or {@code expand} of {@code type} ({@code int} or {@code long}): one loop over
     * the mask's set bits, lowest first, on the unsigned type.
     */
    private static String bitGather(String operation, String type) {
        String u = "u" + type;
        String suffix = type.equals("int") ? "u" : "ul";
        boolean compress = operation.equals("compress");
        String body = compress
                        ? "        if ((v & (m & (0" + suffix + " - m))) != 0" + suffix + ") r |= bit;\n        bit <<= 1;\n"
                        : "        if ((v & 1" + suffix + ") != 0" + suffix + ") r |= m & (0" + suffix + " - m);\n        v >>= 1;\n";
        return "static " + type + " jpai_" + operation + "_" + type + "(" + type + " x, " + type + " mask) {\n"
                        + "    " + u + " v = (" + u + ") x, m = (" + u + ") mask, r = 0" + suffix + (compress ? ", bit = 1" + suffix : "") + ";\n"
                        + "    while (m != 0" + suffix + ") {\n" + body + "        m &= m - 1" + suffix + ";\n    }\n"
                        + "    return as_" + type + "(r);\n}";
    }
}
