package jpai.runtime;

import java.nio.file.Path;

/**
 * The system properties users set to steer the runtime, read at each use so tests may change them.
 * Documented in the README.
 */
public final class JpaiOptions {

    /** {@code -Djpai.explain=true}: say why an operation did not run on OpenCL. */
    public static final String EXPLAIN = "jpai.explain";
    /** {@code -Djpai.dump.opencl=DIR}: write every generated kernel to DIR. */
    public static final String DUMP_OPENCL = "jpai.dump.opencl";
    /** {@code -Djpai.fallback=error}: make a fallback to Java an exception (for tests and benchmarks). */
    public static final String FALLBACK = "jpai.fallback";

    private JpaiOptions() {
    }

    public static boolean explain() {
        return Boolean.getBoolean(EXPLAIN);
    }

    /** The kernel dump directory, or null. */
    public static Path dumpOpenCL() {
        String dir = System.getProperty(DUMP_OPENCL);
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    public static boolean fallbackIsError() {
        return "error".equalsIgnoreCase(System.getProperty(FALLBACK));
    }
}
