package jpai.bench;

/**
 * The versions every program is run in, in the order they run and are reported: six written by hand
 * or with JPAI, the JPAI version again under fast math, and (for the programs whose exact results
 * cost something) the hand-written kernel again in Java's precision.
 */
public enum VersionKind {
    /** The baseline: one Java thread, primitive arrays, plain loops. */
    SEQUENTIAL("sequential", "Java sequential"),
    /** The same loops over {@code IntStream.range(...).parallel()}. */
    STREAMS("streams", "Java parallel streams"),
    /** The JPAI version with {@code -Djpai.device=java} semantics: JPAI's own Java-threads executor. */
    JPAI_THREADS("jpai-threads", "JPAI on Java threads"),
    /** The same JPAI version on the OpenCL device. */
    JPAI_OPENCL("jpai-opencl", "JPAI on OpenCL"),
    /**
     * The same JPAI version on the OpenCL device with {@code -Djpai.fastmath=true}: OpenCL's relaxed
     * precision (approximate division and sqrt, contraction), the class the hand-written kernels and
     * Aparapi are built in. Reported apart from exact JPAI, so that the compiler's quality (fast math
     * against hand-written) and the cost of Java's exact results (exact against fast math) show
     * separately; held to {@link Tolerance#relaxedForFastMath()}.
     */
    JPAI_FAST_MATH("jpai-fastmath", "JPAI fast math on OpenCL"),
    /** Hand-written OpenCL C through JOCL, as a careful human writes it. */
    OPENCL("opencl", "hand-written OpenCL"),
    /**
     * The hand-written kernel again, as a careful human writes it to get Java's results: no
     * contraction, correctly rounded float {@code /} and {@code sqrt}, transcendental functions in
     * {@code double} rounded to {@code float} (as Java computes {@code (float) Math.exp(x)}). Only
     * for programs where JPAI's exact kernel pays for exactness that {@link #OPENCL} does not
     * ({@link Program#hasExactOpenCL()}): N-Body, Black-Scholes, DFT. Its kernel time against exact
     * JPAI's compares the compiler with a human in Java's precision, as fast math against
     * {@link #OPENCL} does in OpenCL's.
     */
    OPENCL_EXACT("opencl-exact", "hand-written exact OpenCL"),
    /** Aparapi 3.0.2, checked to have run on the OpenCL device. */
    APARAPI("aparapi", "Aparapi");

    private final String id;
    private final String title;

    VersionKind(String id, String title) {
        this.id = id;
        this.title = title;
    }

    /** The name used in the CSV and on the command line. */
    public String id() {
        return id;
    }

    public String title() {
        return title;
    }

    public static VersionKind fromId(String id) {
        for (VersionKind kind : values()) {
            if (kind.id.equals(id)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown version '" + id + "'");
    }
}
