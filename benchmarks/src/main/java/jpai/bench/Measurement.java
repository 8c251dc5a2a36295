package jpai.bench;

/**
 * One row of the results: one program at one size, one version, one figure. Times in milliseconds;
 * NaN where nothing was timed (a version not run, or one whose validation failed).
 *
 * @param figure    {@code end-to-end} (what the caller waits for), {@code kernel} (OpenCL event time),
 *                  {@code first-run} (the untimed-for-statistics first call: compilation included), or
 *                  {@code jpai:<phase>} (JPAI's profiler split, when it exists)
 * @param validated {@code yes}, {@code FAILED} or {@code n/a} (not run)
 * @param ranOn     where it really ran; "Java threads (fallback)" for a JPAI operation that left the device
 */
public record Measurement(String program, SizeClass sizeClass, int n, String sizeLabel, String precision,
        VersionKind version, String figure, double medianMs, double minMs, double maxMs, double q1Ms, double q3Ms,
        int runs, String validated, String ranOn, String tolerance, String note) {

    public static final String END_TO_END = "end-to-end";
    public static final String KERNEL = "kernel";
    public static final String FIRST_RUN = "first-run";

    public boolean timed() {
        return runs > 0 && !Double.isNaN(medianMs);
    }

    /** JPAI ran on Java threads although the OpenCL executor was asked for. */
    public boolean fallback() {
        return ranOn.contains("fallback") || ranOn.startsWith("fell back");
    }
}
