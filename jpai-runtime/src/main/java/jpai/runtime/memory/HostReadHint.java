package jpai.runtime.memory;

/**
 * Whether the results of one function are read on the host, judged by its last result that was read
 * or released: a map whose results the caller reads has them copied back in the launch itself, one
 * wait for kernel and copy, instead of leaving them on the device until the first host access,
 * which costs a second round trip to the driver (docs/runtime.md, "Reading results ahead"). A result
 * released unread (an intermediate of composed functions, a result only passed to other kernels)
 * turns the read-ahead off again; the first apply of a function never reads ahead.
 *
 * <p>Thread-safe; a hint is advice, so concurrent applies may race on it harmlessly: whichever
 * result is read or released last decides.
 */
public final class HostReadHint {

    /** {@code -Djpai.readAhead=false} leaves every result on the device until the host reads it. */
    private static final boolean ENABLED = !"false".equals(System.getProperty("jpai.readAhead"));

    private volatile boolean lastResultRead;

    /** Whether the next result should be copied back with the launch that computes it. */
    public boolean readAhead() {
        return ENABLED && lastResultRead;
    }

    void read() {
        lastResultRead = true;
    }

    void releasedUnread() {
        lastResultRead = false;
    }
}
