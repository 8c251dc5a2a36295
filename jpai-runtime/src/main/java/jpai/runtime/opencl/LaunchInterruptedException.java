package jpai.runtime.opencl;

/**
 * A thread waiting for the device (for its kernel, its transfers, or a free command queue) was
 * interrupted. The operation it was waiting for is abandoned: its result is not handed out (the
 * output arrays are closed), and the memory its commands still read or write (device buffers,
 * pinned host memory of its arrays) is released only once the device has finished those commands,
 * never under them. The thread's interrupt flag stays set.
 *
 * <p>Not an {@link OpenCLRuntimeException}: nothing failed, so nothing falls back to Java threads.
 */
public final class LaunchInterruptedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LaunchInterruptedException(String message) {
        super(message);
    }
}
