package jpai.runtime.opencl;

import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;

import java.lang.foreign.MemorySegment;

import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;

import jpai.runtime.opencl.FaultInjection.Fault;
import jpai.runtime.opencl.LaunchEvents.Kind;

/**
 * Moves array data between host memory and device buffers on one queue, in slices of at most
 * {@link #sliceBytes()} bytes: JOCL reaches native memory through a {@code ByteBuffer}, which cannot
 * exceed 2^31-1 bytes, so larger arrays move in several commands. The transfer reads or writes the
 * host memory directly (no staging copy); from pinned memory it runs at the pinned rate.
 *
 * <p>Thread-safe: it holds no state but the queue, and OpenCL queues are thread-safe.
 */
final class Transfers {

    /** The slice size used unless a test asks for a smaller one. */
    static final long DEFAULT_SLICE_BYTES = 1L << 30;

    private final cl_command_queue queue;
    private final long sliceBytes;

    Transfers(cl_command_queue queue, long sliceBytes) {
        if (sliceBytes < 1 || sliceBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a transfer slice must hold 1 to 2^31-1 bytes, not " + sliceBytes);
        }
        this.queue = queue;
        this.sliceBytes = sliceBytes;
    }

    long sliceBytes() {
        return sliceBytes;
    }

    /** How many commands a transfer of {@code bytes} bytes takes. */
    long sliceCount(long bytes) {
        return (bytes + sliceBytes - 1) / sliceBytes;
    }

    /**
     * Enqueues the copy of {@code source} to the start of {@code target}, without waiting: the host
     * memory must stay unchanged until {@code events} are awaited.
     */
    void toDevice(MemorySegment source, cl_mem target, LaunchEvents events) {
        for (long offset = 0; offset < source.byteSize(); offset += sliceBytes) {
            long length = Math.min(sliceBytes, source.byteSize() - offset);
            FaultInjection.check(Fault.TRANSFER);
            cl_event event = events.next(Kind.HOST_TO_DEVICE, length);
            try {
                clEnqueueWriteBuffer(queue, target, false, offset, length, pointerTo(source.asSlice(offset, length)), 0, null, event);
            } catch (RuntimeException e) {
                events.dropLast();
                throw e;
            }
        }
    }

    /** Copies the start of {@code source} into all of {@code target}, returning when the data is there. */
    void toHost(cl_mem source, MemorySegment target, LaunchEvents events) {
        for (long offset = 0; offset < target.byteSize(); offset += sliceBytes) {
            long length = Math.min(sliceBytes, target.byteSize() - offset);
            boolean last = offset + length >= target.byteSize();
            FaultInjection.check(Fault.TRANSFER);
            cl_event event = events.next(Kind.DEVICE_TO_HOST, length);
            try {
                // Only the last slice blocks: the queue is in order, so the earlier ones are done by then.
                clEnqueueReadBuffer(queue, source, last, offset, length, pointerTo(target.asSlice(offset, length)), 0, null, event);
            } catch (RuntimeException e) {
                events.dropLast();
                throw e;
            }
        }
    }

    /** Copies {@code target.byteSize()} bytes (a few) from {@code offset} of {@code source} into {@code target}, blocking. */
    void toHost(cl_mem source, long offset, MemorySegment target, LaunchEvents events) {
        FaultInjection.check(Fault.TRANSFER);
        cl_event event = events.next(Kind.DEVICE_TO_HOST, target.byteSize());
        try {
            clEnqueueReadBuffer(queue, source, true, offset, target.byteSize(), pointerTo(target), 0, null, event);
        } catch (RuntimeException e) {
            events.dropLast();
            throw e;
        }
    }

    /** A JOCL pointer to native memory, with no copy. */
    static Pointer pointerTo(MemorySegment segment) {
        return Pointer.to(segment.asByteBuffer());
    }
}
