package jpai.runtime.opencl;

/**
 * An OpenCL operation failed (build error, allocation failure, launch error). The runtime catches
 * it and runs the operation in Java; the message says what failed, in a sentence.
 */
public final class OpenCLRuntimeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OpenCLRuntimeException(String message) {
        super(message);
    }

    public OpenCLRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
