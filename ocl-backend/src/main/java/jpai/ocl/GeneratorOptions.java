package jpai.ocl;

/**
 * How the generator trades Java's exact results for speed. The backend reads no system property;
 * the runtime maps its options (e.g. {@code -Djpai.fastmath=true}, {@code -Djpai.exactDivSqrt}) to
 * this record.
 *
 * @param fastMath off (the default): floating-point results are Java's, bit for bit, except the
 *            transcendental functions listed in {@code docs/java-semantics.md}. On: the program is
 *            built with {@code -cl-fast-relaxed-math} and may contract {@code a * b + c} into fused
 *            multiply-adds, so results may differ from Java's in the last bits, and NaN, infinities
 *            and signed zeros may not be kept.
 * @param divSqrt how {@code float} division and square root are computed exactly; ignored under
 *            {@code fastMath} (OpenCL's relaxed {@code /} and {@code sqrt} then)
 * @param tiling which map loops that read captured arrays at their counter read them through
 *            {@code __local} tiles where the pattern holds (docs/backend.md, "Tiling"); the results
 *            are the same bits either way
 */
public record GeneratorOptions(boolean fastMath, ExactFloatDivSqrt divSqrt, Tiling tiling) {

    /** Java's semantics: no fast math, OpenCL's correctly rounded built-in division and sqrt, loops tiled where the pattern holds. */
    public static final GeneratorOptions JAVA_SEMANTICS = new GeneratorOptions(false, ExactFloatDivSqrt.BUILTIN, Tiling.ALL);

    public GeneratorOptions {
        if (divSqrt == null) {
            throw new IllegalArgumentException("divSqrt is null");
        }
        if (tiling == null) {
            throw new IllegalArgumentException("tiling is null");
        }
    }

    /** Fast math or not, with the built-in exact division and sqrt, and every loop tiled where the pattern holds. */
    public GeneratorOptions(boolean fastMath) {
        this(fastMath, ExactFloatDivSqrt.BUILTIN, Tiling.ALL);
    }

    /** Fast math or not, tiling every loop where the pattern holds or none, with the built-in exact division and sqrt. */
    public GeneratorOptions(boolean fastMath, boolean tiling) {
        this(fastMath, ExactFloatDivSqrt.BUILTIN, tiling ? Tiling.ALL : Tiling.NONE);
    }

    /** Fast math or not, with the given exact division and sqrt, and every loop tiled where the pattern holds. */
    public GeneratorOptions(boolean fastMath, ExactFloatDivSqrt divSqrt) {
        this(fastMath, divSqrt, Tiling.ALL);
    }

    /** The formulation of float division and sqrt the emitted code calls, or null for OpenCL's own {@code /} and {@code sqrt}. */
    public ExactFloatDivSqrt helperFormulation() {
        return fastMath || divSqrt == ExactFloatDivSqrt.BUILTIN ? null : divSqrt;
    }
}
