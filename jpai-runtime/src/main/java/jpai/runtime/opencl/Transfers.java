package jpai.runtime.opencl;


import java.lang.foreign.MemorySegment;

import org.jocl.Pointer;
import org.jocl.cl_event;
import org.jocl.cl_mem;

import jpai.runtime.opencl.FaultInjection.Fault;
import jpai.runtime.opencl.LaunchEvents.Kind;

/**
 * Moves array data between host memory and device buffers, on the queue of the {@link LaunchEvents}
 * given, in slices of at most
 * {@link #sliceBytes()} bytes: JOCL reaches native memory through a {@code ByteBuffer}, which cannot
 * exceed 2^31-1 bytes, so larger arrays move in several commands. The transfer reads or writes the
 * host memory directly (no staging copy); from pinned memory it runs at the pinned rate.
 *
 * <p>Thread-safe: it holds no state.
 */
final class Transfers {

    /** The slice size used unless a test asks for a smaller one. */
    static final long DEFAULT_SLICE_BYTES = 1L << 30;

    private final long sliceBytes;

    Transfers(long sliceBytes) {
        if (sliceBytes < 1 || sliceBytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a transfer slice must hold 1 to 2^31-1 bytes, not " + sliceBytes);
        }
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
     * memory must stay unchanged until {@code events} are awaited. {@code after}: a command of another
     * queue that writes {@code target} and must finish first, or null.
     *
     * @return the event of the last slice (when it has finished, all have), or null for no bytes
     */
    cl_event toDevice(MemorySegment source, cl_mem target, LaunchEvents events, cl_event after) {
        cl_event last = null;
        for (long offset = 0; offset < source.byteSize(); offset += sliceBytes) {
            long length = Math.min(sliceBytes, source.byteSize() - offset);
            FaultInjection.check(Fault.TRANSFER);
            cl_event event = events.next(Kind.HOST_TO_DEVICE, length);
            boolean waits = offset == 0 && after != null; // the later slices follow the first in order
            try {
                DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
                BufferCommands.write(events.queue(), target, false, offset, length, pointerTo(source.asSlice(offset, length)), waits ? 1 : 0,
                        waits ? new cl_event[] {after} : null, event);
            } catch (RuntimeException e) {
                events.dropLast();
                throw e;
            }
            last = event;
        }
        return last;
    }

    /**
     * Copies the start of {@code source} into all of {@code target}: when {@code blocking}, returning
     * when the data is there, else enqueued only (the host memory then changes until {@code events}
     * are awaited). The first slice waits for the events of {@link LaunchEvents#waitList()}.
     */
    void toHost(cl_mem source, MemorySegment target, LaunchEvents events, boolean blocking) {
        toHost(source, 0, target, null, events, blocking);
    }

    /**
     * {@link #toHost(cl_mem, MemorySegment, LaunchEvents, boolean)} with {@code targetStart}, a JOCL
     * pointer to the first byte of {@code target} made before (a pinned block's), or null.
     */
    void toHost(cl_mem source, MemorySegment target, Pointer targetStart, LaunchEvents events, boolean blocking) {
        toHost(source, 0, target, targetStart, events, blocking);
    }

    /** {@link #toHost(cl_mem, MemorySegment, LaunchEvents, boolean)} from byte {@code sourceOffset} of {@code source} on. */
    void toHost(cl_mem source, long sourceOffset, MemorySegment target, LaunchEvents events, boolean blocking) {
        toHost(source, sourceOffset, target, null, events, blocking);
    }

    private void toHost(cl_mem source, long sourceOffset, MemorySegment target, Pointer targetStart, LaunchEvents events, boolean blocking) {
        cl_event[] after = events.waitList();
        for (long offset = 0; offset < target.byteSize(); offset += sliceBytes) {
            long length = Math.min(sliceBytes, target.byteSize() - offset);
            boolean last = offset + length >= target.byteSize();
            boolean waits = offset == 0 && after != null;
            FaultInjection.check(Fault.TRANSFER);
            cl_event event = events.next(Kind.DEVICE_TO_HOST, length);
            try {
                // Only the last slice blocks: the queue is in order, so the earlier ones are done by then.
                DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
                Pointer into = offset == 0 && last ? (targetStart != null ? targetStart : pointerTo(target)) : pointerTo(target.asSlice(offset, length));
                BufferCommands.read(events.queue(), source, blocking && last, sourceOffset + offset, length, into, waits ? after.length : 0, waits ? after : null, event);
            } catch (RuntimeException e) {
                events.dropLast();
                throw e;
            }
        }
    }

    /**
     * Copies {@code target.byteSize()} bytes (a few) from {@code offset} of {@code source} into
     * {@code target}, blocking, after the events of {@link LaunchEvents#waitList()}.
     */
    void toHost(cl_mem source, long offset, MemorySegment target, LaunchEvents events) {
        FaultInjection.check(Fault.TRANSFER);
        cl_event[] after = events.waitList();
        cl_event event = events.next(Kind.DEVICE_TO_HOST, target.byteSize());
        try {
            DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
            BufferCommands.read(events.queue(), source, true, offset, target.byteSize(), pointerTo(target), after == null ? 0 : after.length, after, event);
        } catch (RuntimeException e) {
            events.dropLast();
            throw e;
        }
    }

    /**
     * A JOCL pointer to native memory, with no copy. Only native memory: {@link BufferCommands}
     * enqueues without JOCL's own checks, and the driver may read or write the memory after the call
     * returns, which a Java array's pinned copy would not outlive.
     */
    static Pointer pointerTo(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("a transfer's host memory must be native memory, not a Java array's: " + segment);
        }
        return Pointer.to(segment.asByteBuffer());
    }
}
