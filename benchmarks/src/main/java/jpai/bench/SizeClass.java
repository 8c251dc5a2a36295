package jpai.bench;

/**
 * The problem sizes each program defines. SMALL and LARGE follow the thesis's Table 4.1; QUICK is
 * small enough for all programs and versions on a 2-core CPU OpenCL driver in a few minutes; TINY is
 * what the unit test runs (correctness only).
 */
public enum SizeClass {
    TINY, QUICK, SMALL, LARGE;

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
