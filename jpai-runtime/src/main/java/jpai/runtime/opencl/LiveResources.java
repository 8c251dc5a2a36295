package jpai.runtime.opencl;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the OpenCL memory this process holds, so tests (and people chasing a leak) can see that
 * applying functions does not accumulate it: device buffers ({@code cl_mem} in device memory,
 * pooled ones included), pinned host allocations (mapped {@code CL_MEM_ALLOC_HOST_PTR} buffers,
 * pooled ones included) and built programs.
 *
 * <p>Thread-safe: atomic counters, updated where the objects are created and released.
 */
public final class LiveResources {

    private static final AtomicLong DEVICE_BUFFERS = new AtomicLong();
    private static final AtomicLong DEVICE_BYTES = new AtomicLong();
    private static final AtomicLong PINNED_ALLOCATIONS = new AtomicLong();
    private static final AtomicLong PINNED_BYTES = new AtomicLong();
    private static final AtomicLong PROGRAMS = new AtomicLong();

    private LiveResources() {
    }

    /** Device buffers created and not yet released, pooled ones included. */
    public static long deviceBuffers() {
        return DEVICE_BUFFERS.get();
    }

    /** Bytes of the device buffers counted by {@link #deviceBuffers()}. */
    public static long deviceBytes() {
        return DEVICE_BYTES.get();
    }

    /** Pinned host allocations created and not yet released, pooled ones included. */
    public static long pinnedAllocations() {
        return PINNED_ALLOCATIONS.get();
    }

    /** Bytes of the pinned allocations counted by {@link #pinnedAllocations()}. */
    public static long pinnedBytes() {
        return PINNED_BYTES.get();
    }

    /** Built OpenCL programs ({@code cl_program}) not yet released, on every device. */
    public static long programs() {
        return PROGRAMS.get();
    }

    static void programCreated() {
        PROGRAMS.incrementAndGet();
    }

    static void programReleased() {
        PROGRAMS.decrementAndGet();
    }

    static void deviceBufferCreated(long bytes) {
        DEVICE_BUFFERS.incrementAndGet();
        DEVICE_BYTES.addAndGet(bytes);
    }

    static void deviceBufferReleased(long bytes) {
        DEVICE_BUFFERS.decrementAndGet();
        DEVICE_BYTES.addAndGet(-bytes);
    }

    static void pinnedCreated(long bytes) {
        PINNED_ALLOCATIONS.incrementAndGet();
        PINNED_BYTES.addAndGet(bytes);
    }

    static void pinnedReleased(long bytes) {
        PINNED_ALLOCATIONS.decrementAndGet();
        PINNED_BYTES.addAndGet(-bytes);
    }
}
