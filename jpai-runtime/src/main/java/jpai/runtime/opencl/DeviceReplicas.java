package jpai.runtime.opencl;

import static org.jocl.CL.clEnqueueWriteBuffer;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jocl.CLException;
import org.jocl.cl_command_queue;
import org.jocl.cl_mem;

import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.opencl.LaunchEvents.Kind;

/**
 * Copies of one {@link ComponentBuffer} on several devices at once, for a function split over
 * devices: each device's copy holds a byte range of the array's contents at one
 * {@linkplain ComponentBuffer#contentVersion() content version} (the part that device reads, or the
 * part it wrote), and is sent again only when the array has changed or the part has moved. They are
 * never newer than the array: a part a kernel writes is copied back to the host by its launch,
 * and the copy then holds that part of the new contents. Kept apart from the buffer's
 * {@linkplain ComponentBuffer#mirror() mirror}, which single-device operations use and which holds
 * at most one copy.
 *
 * <p>Every method runs blocking, on a command queue of its own, under a lease of the buffer that
 * the caller holds for as long as a kernel may use what it returns: the device memory is freed only
 * with the buffer ({@link #release()}), after its last lease.
 *
 * <p>Thread-safe: each device's copy has its own lock, so the parts of one apply send in parallel.
 */
public final class DeviceReplicas implements ComponentBuffer.Replicas {

    private static final long NO_VERSION = Long.MIN_VALUE;

    /** One device's copy: full size, so kernels index it as the array; {@code [from, to)} current at {@code version}. */
    private static final class Copy {
        final DeviceContext context;
        DeviceBuffer buffer;
        long version = NO_VERSION;
        long from;
        long to;
        /** A kernel is writing {@code [from, to)} here: current once copied back and the array's version set ({@link #partsWritten}). */
        boolean writing;

        Copy(DeviceContext context) {
            this.context = context;
        }
    }

    private final Map<DeviceContext, Copy> copies = new IdentityHashMap<>();
    private boolean released;

    private DeviceReplicas() {
    }

    /** The replicas of {@code host}, attached on first use. */
    public static DeviceReplicas of(ComponentBuffer host) {
        return (DeviceReplicas) host.attachReplicas(DeviceReplicas::new);
    }

    private synchronized Copy copy(DeviceContext context, ComponentBuffer host) {
        if (released) {
            throw new IllegalStateException("this array's memory was released (the PArray is closed)");
        }
        Copy copy = copies.computeIfAbsent(context, Copy::new);
        if (copy.buffer == null) {
            copy.buffer = context.bufferPool().acquire(Math.max(1, host.byteSize()));
        }
        return copy;
    }

    /**
     * Device memory of {@code context} that holds the array's current contents in bytes
     * {@code [from, to)} (the rest undefined), after sending what the copy there lacks. The caller has
     * brought a newer device copy home first ({@link ComponentBuffer#leasedForHostRead()}).
     *
     * @return the bytes sent (0 when the copy was current)
     */
    public long makeReadable(DeviceContext context, ComponentBuffer host, long from, long to) {
        Copy copy = copy(context, host);
        synchronized (copy) {
            long version = host.contentVersion(); // read before the data: a write meanwhile leaves an older number, sent again next time
            if (copy.version == version && !copy.writing && copy.from <= from && to <= copy.to) {
                return 0;
            }
            long sent;
            if (copy.version == version && !copy.writing && from <= copy.to && copy.from <= to) {
                // the part moved a little (the split was re-balanced): send only what it gained
                sent = send(copy, host, from, Math.min(to, copy.from)) + send(copy, host, Math.max(from, copy.to), to);
                copy.from = Math.min(from, copy.from);
                copy.to = Math.max(to, copy.to);
            } else {
                copy.version = NO_VERSION; // until the send has finished
                sent = send(copy, host, from, to);
                copy.from = from;
                copy.to = to;
            }
            copy.writing = false;
            copy.version = version;
            return sent;
        }
    }

    /** The device memory of {@code context}'s copy, for a kernel to read what {@link #makeReadable} made current, or to write its part. */
    public cl_mem memory(DeviceContext context, ComponentBuffer host) {
        return copy(context, host).buffer.memory();
    }

    /**
     * A kernel on {@code context} is about to write bytes {@code [from, to)} of the array into the copy
     * there: the copy holds nothing current until the launch has copied them back to the host
     * ({@code KernelLaunch.copyPlacedBack}) and the caller has called {@link #partsWritten}.
     */
    public cl_mem forPartWrite(DeviceContext context, ComponentBuffer host, long from, long to) {
        Copy copy = copy(context, host);
        synchronized (copy) {
            copy.version = NO_VERSION;
            copy.writing = true;
            copy.from = from;
            copy.to = to;
            return copy.buffer.memory();
        }
    }

    /**
     * Every part written by a split apply is back on the host and the array's version moved on
     * ({@link ComponentBuffer#hostWritten()}): each device's copy holds its part of these contents, so
     * that a split function applied next to this array reads it where it is.
     */
    public void partsWritten(ComponentBuffer host) {
        long version = host.contentVersion();
        Copy[] all;
        synchronized (this) {
            all = copies.values().toArray(Copy[]::new);
        }
        for (Copy copy : all) {
            synchronized (copy) {
                if (copy.writing) {
                    copy.writing = false;
                    copy.version = version;
                }
            }
        }
    }

    /** Sends bytes {@code [from, to)} of the host memory to the same bytes of the copy, blocking, on a queue of its own; returns the bytes sent. */
    private static long send(Copy copy, ComponentBuffer host, long from, long to) {
        if (to <= from) {
            return 0;
        }
        DeviceContext context = copy.context;
        String what = "sending a split function's part";
        cl_command_queue queue = context.queues().take(what);
        LaunchEvents events = LaunchEvents.take(queue);
        try {
            // slices of at most 2^31-1 bytes (a mapped ByteBuffer's limit); only the last blocks: the queue is in order
            for (long offset = from; offset < to; offset += Integer.MAX_VALUE) {
                long length = Math.min(Integer.MAX_VALUE, to - offset);
                boolean last = offset + length >= to;
                org.jocl.Pointer slice = Transfers.pointerTo(host.leasedMemory().asSlice(offset, length));
                DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
                clEnqueueWriteBuffer(queue, copy.buffer.memory(), last, offset, length, slice, 0, null, events.next(Kind.HOST_TO_DEVICE, length));
            }
            return to - from;
        } catch (CLException e) {
            throw context.failure(what, e);
        } finally {
            events.release();
            events.recycle();
            context.queues().giveBack(queue);
        }
    }

    @Override
    public void release() {
        Copy[] all;
        synchronized (this) {
            released = true;
            all = copies.values().toArray(Copy[]::new);
            copies.clear();
        }
        for (Copy copy : all) {
            synchronized (copy) {
                if (copy.buffer != null) {
                    copy.context.bufferPool().release(copy.buffer);
                    copy.buffer = null;
                }
                copy.version = NO_VERSION;
            }
        }
    }
}
