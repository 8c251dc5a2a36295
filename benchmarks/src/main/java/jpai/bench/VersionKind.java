package jpai.bench;

/** The six versions every program is written in, in the order they run and are reported. */
public enum VersionKind {
    /** The baseline: one Java thread, primitive arrays, plain loops. */
    SEQUENTIAL("sequential", "Java sequential"),
    /** The same loops over {@code IntStream.range(...).parallel()}. */
    STREAMS("streams", "Java parallel streams"),
    /** The JPAI version with {@code -Djpai.device=java} semantics: JPAI's own Java-threads executor. */
    JPAI_THREADS("jpai-threads", "JPAI on Java threads"),
    /** The same JPAI version on the OpenCL device. */
    JPAI_OPENCL("jpai-opencl", "JPAI on OpenCL"),
    /** Hand-written OpenCL C through JOCL, as a careful human writes it. */
    OPENCL("opencl", "hand-written OpenCL"),
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
