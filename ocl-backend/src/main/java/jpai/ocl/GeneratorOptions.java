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
 * @param tiling on (the default): a map's loop that reads captured arrays at its counter reads them
 *            through {@code __local} tiles where the pattern holds (docs/backend.md, "Tiling"); the
 *            results are the same bits either way. Off: no kernel is tiled (to measure the gain).
 */
public record GeneratorOptions(boolean fastMath, boolean tiling) {

    /** Java's semantics: no fast math; loops tiled where the pattern holds. */
    public static final GeneratorOptions JAVA_SEMANTICS = new GeneratorOptions(false, true);

    /** With tiling. */
    public GeneratorOptions(boolean fastMath) {
        this(fastMath, true);
    }
}
