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

    public KernelBailoutException(String reason, SourceLocation location) {
        this(reason, location, false);
    }

    private KernelBailoutException(String reason, SourceLocation location, boolean internalError) {
        super(location == null || location == SourceLocation.UNKNOWN ? reason : reason + " (at " + location.shortForm() + ")");
        this.reason = reason;
        this.location = location == null ? SourceLocation.UNKNOWN : location;
        this.internalError = internalError;
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
        KernelBailoutException e = new KernelBailoutException("an internal error of the compiler: " + reason, location, true);
        e.initCause(cause);
        return e;
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
