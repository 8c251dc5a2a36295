package jpai;

/**
 * Thrown instead of falling back to Java when {@code -Djpai.fallback=error}: tests and benchmarks
 * use it to be sure an operation really ran on the device.
 */
public final class FallbackException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public FallbackException(String message, Throwable cause) {
        super(message, cause);
    }
}
