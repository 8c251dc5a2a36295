package jpai.runtime.opencl;

import java.lang.foreign.MemorySegment;

import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clRetainEvent;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;

import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.DeviceMirror;
import jpai.runtime.opencl.LaunchEvents.Kind;
import jpai.runtime.profile.Profiler;

/**
 * The copy of one {@link ComponentBuffer} in the memory of one {@link DeviceContext}, and which side
 * is newer. A buffer has at most one; using it on a second context brings the data home and moves
 * the copy.
 *
 * <ul>
 * <li>A kernel that reads the buffer sends the host data only if the device copy does not hold the
 * buffer's current {@linkplain ComponentBuffer#hostVersion() host version}: an input applied again
 * unchanged is not sent again.</li>
 * <li>A kernel that writes the buffer makes the device copy the newer one; the host copy is brought
 * back on the first host access ({@link #beforeHostRead}), not before. Intermediates of composed
 * functions are never brought back unless the host reads them.</li>
 * <li>A host write makes the device copy stale (the buffer's version moves on).</li>
 * <li>Closing the array gives the device memory back to the pool, once no launch holds a lease of
 * the buffer (a launch on another thread may still be using it).</li>
 * </ul>
 *
 * <p>Launches run on command queues of their own ({@link CommandQueues}), so the order of one
 * queue does not order two launches: a send enqueued by one launch is remembered
 * ({@link #pendingWrite}) until that launch has seen it finish, and every command of another
 * launch that reads or writes the device copy meanwhile waits for it.
 *
 * <p>Thread-safe: state changes hold this object's monitor; the host-read check is one volatile read
 * when the host copy is current, so element-by-element host loops stay cheap.
 */
final class DeviceResidency implements DeviceMirror {

    private static final long NO_VERSION = Long.MIN_VALUE;

    private final DeviceContext context;
    private DeviceBuffer buffer;
    /** The host version the device copy equals, or {@link #NO_VERSION}. */
    private long deviceVersion = NO_VERSION;
    /** A kernel wrote the device copy and the host has not seen it yet. */
    private volatile boolean deviceNewer;
    /**
     * The last send to the device copy, retained, until the launch that made it has seen it finish;
     * commands of other queues that use the device copy wait for it. Null when none is pending.
     */
    private cl_event pendingWrite;

    private DeviceResidency(DeviceContext context) {
        this.context = context;
    }

    /** The residency of {@code host} on {@code context}, attached now if it has none there. */
    static DeviceResidency of(DeviceContext context, ComponentBuffer host) {
        DeviceMirror current = host.mirror();
        if (current instanceof DeviceResidency residency && residency.context == context) {
            return residency;
        }
        synchronized (host) {
            current = host.mirror();
            if (current instanceof DeviceResidency residency && residency.context == context) {
                return residency;
            }
            if (current != null) {
                current.beforeHostRead(host); // the other device's copy may be the only current one
                current.release(host);
            }
            DeviceResidency residency = new DeviceResidency(context);
            host.setMirror(residency);
            return residency;
        }
    }

    /**
     * The device buffer with the host's data, sending it first (without waiting) if the device copy
     * is stale. The caller holds a lease of {@code host} until {@code events} are awaited: the driver
     * reads the host memory after this returns. When another launch's send to the device copy may
     * still be running, {@code events} is made to wait for it.
     *
     * @return the event of the send this made (the caller passes it to {@link #sendFinished} once it
     *         has seen it finish), or null if nothing was sent
     */
    synchronized cl_event prepareForKernelRead(ComponentBuffer host, LaunchEvents events) {
        allocate(host);
        if (deviceNewer || deviceVersion == host.hostVersion()) {
            if (pendingWrite != null) {
                events.dependOn(pendingWrite);
            }
            return null;
        }
        long version = host.hostVersion();
        deviceVersion = NO_VERSION; // until the send is enqueued in full
        cl_event sent = context.transfers().toDevice(host.leasedMemory(), buffer.memory(), events, pendingWrite);
        if (sent != null) { // an empty array sends nothing
            clRetainEvent(sent);
            forgetPendingWrite();
            pendingWrite = sent;
        }
        deviceVersion = version; // later commands of this queue, and commands that wait for pendingWrite, see the data
        return sent;
    }

    /** The launch that sent {@code sent} has seen it finish: other launches need not wait for it any more. */
    synchronized void sendFinished(cl_event sent) {
        if (pendingWrite == sent) {
            forgetPendingWrite();
        }
    }

    private void forgetPendingWrite() {
        if (pendingWrite != null) {
            try {
                DriverCalls.count(DriverCalls.Call.RELEASE_EVENT);
                clReleaseEvent(pendingWrite);
            } catch (CLException e) {
                // an event of a lost device
            }
            pendingWrite = null;
        }
    }

    /** The device buffer for a kernel to write. */
    synchronized void prepareForKernelWrite(ComponentBuffer host) {
        allocate(host);
    }

    synchronized cl_mem memory() {
        return buffer.memory();
    }

    /**
     * Gives {@code to} the device copy a finished kernel wrote for {@code from}, which must be at least
     * as large: {@code to}'s device copy becomes the newer one (its first {@code to.byteSize()}
     * bytes are its data), and {@code from} keeps none. For a result whose length was known only
     * after the kernel (a single-pass filter wrote into room for every element): no copy on the
     * device, no copy to the host. Neither buffer may be in use by a launch.
     *
     * @throws IllegalStateException if {@code from} has no newer device copy on {@code context}
     */
    static void moveDeviceCopy(DeviceContext context, ComponentBuffer from, ComponentBuffer to) {
        if (from.byteSize() < to.byteSize()) {
            throw new IllegalArgumentException("a device copy of " + from.byteSize() + " bytes cannot hold an array of " + to.byteSize());
        }
        DeviceBuffer moved;
        if (!(from.mirror() instanceof DeviceResidency source) || source.context != context) {
            throw new IllegalStateException("the array has no device copy on " + context.device().name());
        }
        synchronized (source) {
            if (!source.deviceNewer || source.buffer == null) {
                throw new IllegalStateException("the array's device copy holds no kernel's result");
            }
            moved = source.buffer;
            source.buffer = null;
            source.deviceNewer = false;
            source.deviceVersion = NO_VERSION;
            source.forgetPendingWrite();
        }
        DeviceResidency target = of(context, to);
        synchronized (target) {
            if (target.buffer != null) {
                context.bufferPool().release(target.buffer);
            }
            target.buffer = moved;
            target.kernelWrote();
        }
        to.deviceWritten();
    }

    /** A kernel writing the buffer has been enqueued: the device copy is the newer one. */
    synchronized void kernelWrote() {
        deviceNewer = true;
        deviceVersion = NO_VERSION;
    }

    synchronized boolean isDeviceNewer() {
        return deviceNewer;
    }

    /**
     * A launch that involved this buffer failed: forget the device copy's contents unless it holds
     * data the host lacks ({@code keepNewer}, and the device copy newer from before the launch). The
     * device memory itself stays with the array until it closes: a launch of another thread, on
     * another queue, may be reading it right now.
     */
    synchronized void discardAfterFailure(boolean keepNewer) {
        if (keepNewer && deviceNewer) {
            return;
        }
        deviceNewer = false;
        deviceVersion = NO_VERSION;
    }

    /**
     * Enqueues bringing the device data back (the launch asked for results on the host), without
     * waiting; the caller holds a lease of {@code host} until {@code events} are awaited.
     */
    synchronized void copyBack(ComponentBuffer host, LaunchEvents events) {
        if (deviceNewer) {
            context.transfers().toHost(buffer.memory(), host.leasedMemory(), PinnedHostMemory.startOf(host.allocation()), events, false);
            deviceNewer = false;
            deviceVersion = host.hostVersion();
        }
    }

    /**
     * A copy, made on the device and finished when this returns, of the device copy when that is
     * the newer one (the host lacks its data); null when the host copy is current, or there is no
     * device copy. For a kernel that writes the buffer in place and may exit on a Java exception
     * path ({@link InPlaceUpdate}).
     */
    synchronized DeviceBuffer copyIfDeviceNewer(ComponentBuffer host, cl_command_queue queue) {
        if (!deviceNewer || buffer == null) {
            return null;
        }
        DeviceBuffer copy = context.bufferPool().acquire(Math.max(1, host.byteSize()));
        try {
            copyOnDevice(buffer, copy, host.byteSize(), queue);
        } catch (CLException e) {
            context.bufferPool().release(copy);
            throw e;
        }
        return copy;
    }

    /** Puts back the device copy's contents saved by {@link #copyIfDeviceNewer}: the device copy is the newer one again. */
    synchronized void restore(ComponentBuffer host, DeviceBuffer saved, cl_command_queue queue) {
        if (buffer == null) {
            return; // the array was closed meanwhile: its contents are gone anyway
        }
        copyOnDevice(saved, buffer, host.byteSize(), queue);
        deviceNewer = true;
        deviceVersion = NO_VERSION;
        host.deviceWritten(); // the contents changed back: a replica made meanwhile is stale
    }

    /** Copies {@code bytes} from {@code source} to {@code target} on {@code queue} after any pending send, and waits for it. */
    private void copyOnDevice(DeviceBuffer source, DeviceBuffer target, long bytes, cl_command_queue queue) {
        if (bytes == 0) {
            return;
        }
        LaunchEvents events = LaunchEvents.take(queue);
        try {
            dependOnPendingWrite(events);
            cl_event[] after = events.waitList();
            DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
            org.jocl.CL.clEnqueueCopyBuffer(queue, source.memory(), target.memory(), 0, 0, bytes, after == null ? 0 : after.length, after, events.next(Kind.DEVICE_TO_DEVICE, bytes));
            events.finish();
        } finally {
            events.release();
            events.recycle(); // waited for: nothing refers to them now
        }
    }

    @Override
    public void beforeHostRead(ComponentBuffer host) {
        if (!deviceNewer) {
            return;
        }
        // The lease keeps the host memory allocated while the driver writes into it, even if another
        // thread closes the array meanwhile; it is released outside this object's monitor, since
        // the last release frees the buffer, which takes the buffer's monitor and then this one.
        host.acquireLease();
        // A queue of its own, taken before this object's monitor (a launch holding a queue may be
        // waiting for the monitor): on another launch's queue the read would wait for its kernel.
        cl_command_queue queue = context.queues().take("the copy of an array back to the host");
        try {
            copyBackForHost(host, queue);
        } finally {
            context.queues().giveBack(queue); // the blocking read has finished, or failed
            host.releaseLease();
        }
    }

    private synchronized void copyBackForHost(ComponentBuffer host, cl_command_queue queue) {
        if (!deviceNewer) {
            return;
        }
        if (context.isLost()) {
            throw new IllegalStateException("this array's data was computed on " + context.device().name()
                    + ", which has been lost (" + context.lostReason() + "); compute it again");
        }
        LaunchEvents events = LaunchEvents.take(queue);
        Pointer hostStart = PinnedHostMemory.startOf(host.allocation());
        try {
            try {
                dependOnPendingWrite(events);
                context.transfers().toHost(buffer.memory(), host.leasedMemory(), hostStart, events, true);
            } catch (CLException e) {
                // One retry: a transient failure must not cost the only copy of the data.
                events.release();
                dependOnPendingWrite(events);
                context.transfers().toHost(buffer.memory(), host.leasedMemory(), hostStart, events, true);
            }
            Profiler.deviceToHost(events.nanos(Kind.DEVICE_TO_HOST), events.bytes(Kind.DEVICE_TO_HOST), events.count(Kind.DEVICE_TO_HOST));
        } catch (CLException e) {
            throw context.failure("bringing an array's data back to the host", e);
        } finally {
            events.release();
            events.recycle(); // waited for: nothing refers to them now
        }
        deviceNewer = false;
        deviceVersion = host.hostVersion();
    }

    @Override
    public boolean readIfDeviceNewer(ComponentBuffer host, long offset, MemorySegment target) {
        return deviceNewer && onOwnQueue(host, "the read of an array's element",
                        queue -> readIfDeviceNewer(offset, target, queue, "reading one element of an array on the device"));
    }

    @Override
    public void takeBackFrom(ComponentBuffer host, long offset) {
        if (!deviceNewer) {
            return;
        }
        onOwnQueue(host, "the copy of a tiered result's device part back to the host", queue -> {
            synchronized (this) {
                if (offset < host.byteSize()) {
                    readIfDeviceNewer(offset, host.leasedMemory().asSlice(offset), queue, "bringing a tiered result's device part back to the host");
                }
                deviceNewer = false;
                deviceVersion = NO_VERSION; // the device copy lacks the part the host wrote
            }
            return true;
        });
    }

    /**
     * Runs {@code read} on a queue of its own, taken before this object's monitor (a launch holding a
     * queue may be waiting for the monitor), under a lease of {@code host}, as {@link #beforeHostRead}
     * does: the device buffer is freed with the host memory.
     */
    private boolean onOwnQueue(ComponentBuffer host, String purpose, java.util.function.Predicate<cl_command_queue> read) {
        host.acquireLease();
        cl_command_queue queue = context.queues().take(purpose);
        try {
            return read.test(queue);
        } finally {
            context.queues().giveBack(queue);
            host.releaseLease();
        }
    }

    /** Copies {@code target.byteSize()} bytes from {@code offset} of the device copy into {@code target}, blocking, if the device copy is newer. */
    private synchronized boolean readIfDeviceNewer(long offset, MemorySegment target, cl_command_queue queue, String what) {
        if (!deviceNewer) {
            return false;
        }
        LaunchEvents events = LaunchEvents.take(queue);
        try {
            dependOnPendingWrite(events);
            context.transfers().toHost(buffer.memory(), offset, target, events);
            Profiler.deviceToHost(events.nanos(Kind.DEVICE_TO_HOST), events.bytes(Kind.DEVICE_TO_HOST), events.count(Kind.DEVICE_TO_HOST));
            return true;
        } catch (CLException e) {
            throw context.failure(what, e);
        } finally {
            events.release();
            events.recycle(); // waited for: nothing refers to them now
        }
    }

    private void dependOnPendingWrite(LaunchEvents events) {
        if (pendingWrite != null) {
            events.dependOn(pendingWrite);
        }
    }

    @Override
    public void hostWritten(ComponentBuffer host) {
        // The caller advances the buffer's version next, which makes the device copy stale.
    }

    @Override
    public synchronized void release(ComponentBuffer host) {
        deviceNewer = false;
        deviceVersion = NO_VERSION;
        forgetPendingWrite();
        if (buffer != null) {
            context.bufferPool().release(buffer);
            buffer = null;
        }
    }

    private void allocate(ComponentBuffer host) {
        if (buffer == null) {
            buffer = context.bufferPool().acquire(Math.max(1, host.byteSize()));
        }
    }
}
