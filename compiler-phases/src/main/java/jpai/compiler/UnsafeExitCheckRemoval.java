package jpai.compiler;

/**
 * <b>Unsafe, for measuring only</b>: {@code -Djpai.unsafe.noExitChecks=true} compiles the kernels of
 * {@code AF} functions without their exit checks ({@link jpai.compiler.phases.RemoveExitChecksPhase}),
 * so that a benchmark can time what the checks cost when nothing exits (issue 21). Read when a
 * function is first compiled; a JVM that sets it gives up Java's results, exceptions and memory
 * safety wherever a check would have failed.
 */
public final class UnsafeExitCheckRemoval {

    /** The system property that asks for it. */
    public static final String PROPERTY = "jpai.unsafe.noExitChecks";

    private UnsafeExitCheckRemoval() {
    }

    /** Whether {@link #PROPERTY} asks for kernels without their exit checks. */
    public static boolean requested() {
        return Boolean.getBoolean(PROPERTY);
    }
}
