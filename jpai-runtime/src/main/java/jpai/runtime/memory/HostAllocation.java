package jpai.runtime.memory;

import java.lang.foreign.MemorySegment;

/**
 * One block of host memory holding a {@code PArray} component: plain off-heap memory, or pinned
 * memory a device driver gave out (then {@link #deviceHandle()} names the driver's object, so the
 * runtime can transfer from it at the pinned rate).
 */
public interface HostAllocation {

    /** The memory, exactly as many bytes as were asked for. Valid until {@link #release()}. */
    MemorySegment segment();

    /**
     * The driver object behind pinned memory (for OpenCL, the {@code cl_mem} created with
     * {@code CL_MEM_ALLOC_HOST_PTR} and mapped), or null for plain memory.
     */
    default Object deviceHandle() {
        return null;
    }

    /** Gives the memory back. Called once, by the owner, from any thread. */
    void release();
}
