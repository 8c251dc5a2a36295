package jpai.ocl;

/**
 * How the generator trades Java's exact results for speed. The backend reads no system property;
 * the runtime maps its options (e.g. {@code -Djpai.fastmath=true}) to this record.
 *
 * @param fastMath off (the default): floating-point results are Java's, bit for bit, except the
 *            transcendental functions listed in {@code docs/java-semantics.md}. On: the program is
 *            built with {@code -cl-fast-relaxed-math} and may contract {@code a * b + c} into fused
 *            multiply-adds, so results may differ from Java's in the last bits, and NaN, infinities
 *            and signed zeros may not be kept.
 */
public record GeneratorOptions(boolean fastMath) {

    /** Java's semantics: no fast math. */
    public static final GeneratorOptions JAVA_SEMANTICS = new GeneratorOptions(false);
}
