package jpai.compiler;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;

/**
 * The compiler cannot turn this function into a kernel that computes what Java computes. It is no
 * error for the user: the runtime catches it and runs the operation in Java, and with
 * {@code -Djpai.explain=true} prints {@link #getMessage()}.
 *
 * <p>The message is a sentence that names the reason and, where the graph knows it, the source
 * line that caused it.
 */
public final class KernelBailoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String reason;
    private final SourceLocation location;
    private final boolean internalError;
    /** The phase plugin that failed, or null. */
    private final String failedPhasePlugin;

    public KernelBailoutException(String reason, SourceLocation location) {
        this(reason, location, false, null);
    }

    private KernelBailoutException(String reason, SourceLocation location, boolean internalError, String failedPhasePlugin) {
        super(location == null || location == SourceLocation.UNKNOWN ? reason : reason + " (at " + location.shortForm() + ")");
        this.reason = reason;
        this.location = location == null ? SourceLocation.UNKNOWN : location;
        this.internalError = internalError;
        this.failedPhasePlugin = failedPhasePlugin;
    }

    public KernelBailoutException(String reason, SourceLocation location, Throwable cause) {
        this(reason, location);
        initCause(cause);
    }

    /** Bails out on {@code node}, naming the source line the node came from. */
    public static KernelBailoutException at(Node node, String reason) {
        NodeSourcePosition position = node.getNodeSourcePosition();
        return new KernelBailoutException(reason, SourceLocation.of(position));
    }

    /**
     * The compiler itself failed on this function (an exception in Graal, in a phase or in the
     * backend): not a limit of what kernels can do, but a bug to report. The runtime counts these
     * and always says so once, even without {@code -Djpai.explain}.
     */
    public static KernelBailoutException internalError(String reason, SourceLocation location, Throwable cause) {
        KernelBailoutException e = new KernelBailoutException("an internal error of the compiler: " + reason, location, true, null);
        e.initCause(cause);
        return e;
    }

    /**
     * A researcher's phase plugin ({@code jpai.compiler.plugin}) failed on this function: neither a
     * limit of kernels nor a bug of JPAI. The runtime says so once, naming {@code plugin}, even
     * without {@code -Djpai.explain}.
     */
    public static KernelBailoutException phasePluginFailure(String plugin, String reason, SourceLocation location, Throwable cause) {
        KernelBailoutException e = new KernelBailoutException(reason, location, false, plugin);
        e.initCause(cause);
        return e;
    }

    /** The name of the phase plugin whose failure this is ({@link #phasePluginFailure}), or null. */
    public String failedPhasePlugin() {
        return failedPhasePlugin;
    }

    /** Whether the compiler failed ({@link #internalError}), rather than met code kernels cannot run. */
    public boolean isInternalError() {
        return internalError;
    }

    /** The reason without the location. */
    public String reason() {
        return reason;
    }

    public SourceLocation location() {
        return location;
    }
}
