package jpai.runtime.opencl;

import static org.jocl.CL.CL_COMPLETE;
import static org.jocl.CL.CL_EVENT_COMMAND_EXECUTION_STATUS;
import static org.jocl.CL.clFlush;
import static org.jocl.CL.clGetEventInfo;
import static org.jocl.CL.clSetEventCallback;

import java.util.concurrent.locks.LockSupport;

import org.jocl.EventCallbackFunction;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_event;

/**
 * Waits for the commands of one launch, answering {@link Thread#interrupt()}: OpenCL's own wait
 * ({@code clWaitForEvents}) blocks in the driver and cannot be interrupted, so the thread instead
 * polls the last command's status for a few microseconds (a small kernel is done by then, with no
 * thread hand-off), then asks the driver to call back when it completes and parks until then.
 *
 * <p>The commands of one launch are on one in-order queue, so when its last command is complete
 * all are. The park also wakes every {@value #RECHECK_MILLIS} ms to look at every command's status:
 * a failed command (a lost device) may leave the last one never completing, and the driver's
 * callback is then the one thing not to rely on.
 */
final class DeviceWait {

    /** How long to poll before parking: about one small launch on a GPU. */
    private static final long POLL_NANOS = 50_000;
    private static final long RECHECK_MILLIS = 10;

    /** The driver's completion callback: wakes the parked thread. */
    private static final EventCallbackFunction WAKE = (event, status, data) -> ((Waiter) data).wake();

    private static final class Waiter {
        private final Thread thread = Thread.currentThread();
        private volatile boolean woken;

        void wake() {
            woken = true;
            LockSupport.unpark(thread);
        }
    }

    private DeviceWait() {
    }

    /**
     * Waits until every command of {@code events} has finished (or one failed: then the events'
     * own {@link LaunchEvents#await()} after this reports it).
     *
     * @return true when done; false when the thread was interrupted first (its flag stays set, and
     *         the commands may still be running: the caller must leave what they use alone)
     */
    static boolean await(LaunchEvents events) {
        cl_event last = events.last();
        if (last == null) {
            return !Thread.currentThread().isInterrupted();
        }
        clFlush(events.queue()); // submitted now: a command never flushed would never complete
        int[] status = new int[1];
        Pointer statusPointer = Pointer.to(status); // one for all polls: a poll allocates nothing
        long pollEnd = System.nanoTime() + POLL_NANOS;
        do {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (finished(last, status, statusPointer)) {
                return true;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() < pollEnd);
        Waiter waiter = new Waiter();
        clSetEventCallback(last, CL_COMPLETE, WAKE, waiter);
        while (!waiter.woken) {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (finished(last, status, statusPointer) || events.anyFailed(status, statusPointer)) {
                return true;
            }
            LockSupport.parkNanos(waiter, RECHECK_MILLIS * 1_000_000L);
        }
        return true;
    }

    /** Whether {@code event}'s command completed or failed (a negative status), read into {@code status} through {@code pointer}. */
    static boolean finished(cl_event event, int[] status, Pointer pointer) {
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int, pointer, null);
        return status[0] <= CL_COMPLETE;
    }
}
