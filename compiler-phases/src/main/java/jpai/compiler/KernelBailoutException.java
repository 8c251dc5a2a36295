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

    public KernelBailoutException(String reason, SourceLocation location) {
        super(location == null || location == SourceLocation.UNKNOWN ? reason : reason + " (at " + location.shortForm() + ")");
        this.reason = reason;
        this.location = location == null ? SourceLocation.UNKNOWN : location;
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

    /** The reason without the location. */
    public String reason() {
        return reason;
    }

    public SourceLocation location() {
        return location;
    }
}
