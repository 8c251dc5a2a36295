package jpai.runtime.opencl;

import static org.jocl.CL.clEnqueueFillBuffer;

import java.util.ArrayDeque;

import org.jocl.Pointer;
import org.jocl.Sizeof;

import jpai.runtime.opencl.LaunchEvents.Kind;

/**
 * The two-int status buffers of one context's launches (a kernel's deoptimisation reason and
 * element), kept zeroed between launches. A kernel writes its status buffer only when an element
 * takes a Java exception path, so almost every launch gets a zeroed buffer with no driver call and
 * gives it back still zero. A buffer a kernel wrote goes back to the pool instead, and a launch that
 * finds no zeroed one zeroes a new one on its own queue: launches run on queues of their own, so a
 * fill enqueued on one would not be ordered before a kernel of another.
 *
 * <p>Thread-safe.
 */
final class StatusBuffers {

    static final long BYTES = 2L * Sizeof.cl_int;
    private static final int[] ZERO = {0};

    private final DeviceContext context;
    /** Guarded by its own monitor: one short uncontended lock per launch costs less than a lock-free queue. */
    private final ArrayDeque<DeviceBuffer> zeroed = new ArrayDeque<>();
    /** Guarded by {@link #zeroed}'s monitor; null until the first launch of a kernel that cannot exit. */
    private DeviceBuffer unwritten;

    StatusBuffers(DeviceContext context) {
        this.context = context;
    }

    /** A zeroed status buffer; a new one is zeroed by a fill recorded in {@code events}. */
    DeviceBuffer take(LaunchEvents events) {
        DeviceBuffer buffer;
        synchronized (zeroed) {
            buffer = zeroed.pollLast(); // the one given back last: a kernel object that bound it sets no argument again
        }
        if (buffer != null) {
            return buffer;
        }
        buffer = context.bufferPool().acquire(BYTES);
        try {
            fill(buffer, events);
        } catch (RuntimeException e) {
            events.dropLast();
            context.bufferPool().release(buffer);
            throw e;
        }
        return buffer;
    }

    /**
     * The buffer bound as the status of kernels that never write it (KernelLaunch.unwrittenStatus):
     * one per context, shared by every such launch, never zeroed or read.
     */
    DeviceBuffer unwritten() {
        synchronized (zeroed) {
            if (unwritten == null) {
                unwritten = context.bufferPool().acquire(BYTES);
            }
            return unwritten;
        }
    }

    /** Takes {@code buffer} back after its launch completed; {@code written}: the kernel wrote it. */
    void giveBack(DeviceBuffer buffer, boolean written) {
        if (written) {
            context.bufferPool().release(buffer);
            return;
        }
        synchronized (zeroed) {
            zeroed.add(buffer);
        }
    }

    /** The zeroed buffers kept for the next launches, and the unwritten one (for tests that count buffers in use). */
    int idleCount() {
        synchronized (zeroed) {
            return zeroed.size() + (unwritten == null ? 0 : 1);
        }
    }

    /** Gives every idle status buffer back to the context's pool. */
    void clear() {
        synchronized (zeroed) {
            if (unwritten != null) {
                context.bufferPool().release(unwritten);
                unwritten = null;
            }
        }
        while (true) {
            DeviceBuffer buffer;
            synchronized (zeroed) {
                buffer = zeroed.poll();
            }
            if (buffer == null) {
                return;
            }
            context.bufferPool().release(buffer);
        }
    }

    /** Zeroes {@code buffer} on the queue of {@code events}, before the launch's kernel. */
    private static void fill(DeviceBuffer buffer, LaunchEvents events) {
        org.jocl.cl_event event = events.next(Kind.HOST_TO_DEVICE, BYTES, false);
        DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
        clEnqueueFillBuffer(events.queue(), buffer.memory(), Pointer.to(ZERO), Sizeof.cl_int, 0, BYTES, 0, null, event);
    }
}
