package jpai.runtime.opencl;

import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clReleaseMemObject;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.cl_mem;

import jpai.runtime.opencl.FaultInjection.Fault;

/**
 * The device memory of one {@link DeviceContext}, reused: a released buffer goes back to a free list
 * of its size class ({@link SizeClasses}) and serves the next request of that class, so applying a
 * function again allocates nothing on the device. The pool is bounded (in bytes, and in buffers per
 * class); what does not fit is freed at once.
 *
 * <p>When the driver reports that memory ran out ({@code CL_MEM_OBJECT_ALLOCATION_FAILURE},
 * {@code CL_OUT_OF_RESOURCES}, {@code CL_OUT_OF_HOST_MEMORY}) the pool frees every idle buffer and
 * tries once more.
 *
 * <p>Thread-safe: the free lists are guarded by the pool's monitor; driver calls are made outside it.
 */
final class DeviceBufferPool {

    /** Idle buffers kept per size class; more of one size is rarely reused. */
    private static final int MAX_IDLE_PER_CLASS = 8;

    private final DeviceContext owner;
    private final long maxIdleBytes;
    private final Map<Long, ArrayDeque<DeviceBuffer>> idle = new HashMap<>();
    private long idleBytes;
    private boolean closed;

    /**
     * @param maxIdleBytes the most bytes kept idle for reuse
     */
    DeviceBufferPool(DeviceContext owner, long maxIdleBytes) {
        this.owner = owner;
        this.maxIdleBytes = maxIdleBytes;
    }

    /** A buffer of at least {@code bytes} bytes, reused when one of its class is idle. */
    DeviceBuffer acquire(long bytes) {
        long capacity = SizeClasses.classOf(bytes);
        if (capacity > owner.device().maxAllocationBytes() && bytes <= owner.device().maxAllocationBytes()) {
            capacity = Math.max(1, bytes); // the rounding must not push a legal size over the device's limit
        }
        synchronized (this) {
            ArrayDeque<DeviceBuffer> free = idle.get(SizeClasses.key(capacity));
            if (free != null && !free.isEmpty()) {
                idleBytes -= capacity;
                return free.pop();
            }
        }
        try {
            return create(capacity);
        } catch (CLException e) {
            if (!isOutOfMemory(e.getStatus())) {
                throw e;
            }
            clear(); // memory pressure: what the pool keeps idle may be what the device is missing
            return create(capacity);
        }
    }

    /** Takes {@code buffer} back: kept for reuse if the pool has room, else freed. */
    void release(DeviceBuffer buffer) {
        synchronized (this) {
            if (!closed && !owner.isLost() && idleBytes + buffer.capacity() <= maxIdleBytes) {
                ArrayDeque<DeviceBuffer> free = idle.computeIfAbsent(SizeClasses.key(buffer.capacity()), c -> new ArrayDeque<>());
                if (free.size() < MAX_IDLE_PER_CLASS) {
                    free.push(buffer);
                    idleBytes += buffer.capacity();
                    return;
                }
            }
        }
        free(buffer);
    }

    /** Frees every idle buffer (memory pressure, or the context closing). */
    void clear() {
        ArrayDeque<DeviceBuffer> toFree = new ArrayDeque<>();
        synchronized (this) {
            for (ArrayDeque<DeviceBuffer> free : idle.values()) {
                toFree.addAll(free);
            }
            idle.clear();
            idleBytes = 0;
        }
        toFree.forEach(DeviceBufferPool::free);
    }

    /** Frees the idle buffers and frees every buffer released from now on. */
    void close() {
        synchronized (this) {
            closed = true;
        }
        clear();
    }

    /** Idle buffers now held (for tests). */
    synchronized int idleCount() {
        return idle.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    private DeviceBuffer create(long capacity) {
        FaultInjection.check(Fault.ALLOCATE);
        DriverCalls.count(DriverCalls.Call.CREATE_BUFFER);
        cl_mem memory = clCreateBuffer(owner.context(), CL_MEM_READ_WRITE, capacity, null, null);
        LiveResources.deviceBufferCreated(capacity);
        return new DeviceBuffer(memory, capacity);
    }

    private static void free(DeviceBuffer buffer) {
        try {
            DriverCalls.count(DriverCalls.Call.RELEASE_BUFFER);
            clReleaseMemObject(buffer.memory());
        } catch (CLException e) {
            // A lost device may refuse; the memory is gone with it either way.
        }
        LiveResources.deviceBufferReleased(buffer.capacity());
    }

    static boolean isOutOfMemory(int status) {
        return status == CL.CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL.CL_OUT_OF_RESOURCES || status == CL.CL_OUT_OF_HOST_MEMORY;
    }
}
