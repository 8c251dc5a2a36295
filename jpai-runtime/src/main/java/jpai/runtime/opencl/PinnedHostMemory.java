package jpai.runtime.opencl;

import static org.jocl.CL.CL_MAP_READ;
import static org.jocl.CL.CL_MAP_WRITE;
import static org.jocl.CL.CL_MEM_ALLOC_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clEnqueueMapBuffer;
import static org.jocl.CL.clEnqueueUnmapMemObject;
import static org.jocl.CL.clReleaseMemObject;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_mem;

import jpai.runtime.Explain;
import jpai.runtime.memory.HostAllocation;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.memory.PlainHostMemory;

/**
 * Pinned (page-locked) host memory from one OpenCL driver: a {@code CL_MEM_ALLOC_HOST_PTR} buffer,
 * mapped once with {@code clEnqueueMapBuffer} and used as a {@link MemorySegment} for as long as the
 * array lives. Transfers between such memory and the device run at the pinned rate (on an H100,
 * about 9 times the rate from pageable memory: see PLATFORM.md).
 *
 * <p>Blocks are pooled by size class, as device buffers are, because creating and mapping pinned
 * memory costs far more than an apply of a small function. Blocks over 2 GiB (a mapped
 * {@code ByteBuffer} cannot exceed 2^31-1 bytes) and blocks the driver cannot give come from plain
 * memory instead, which is correct but slower to transfer.
 *
 * <p>Thread-safe: the free lists are guarded by this object's monitor; driver calls are made outside.
 */
final class PinnedHostMemory implements HostMemory {

    /**
     * Idle pinned bytes kept for reuse: a sixteenth of the host's memory, at least 256 MiB. Pinning a
     * large block costs far more than using it (about 100 ms for 256 MiB on the H200's host), so an
     * array size a program applies again and again must find its block here.
     */
    private static final long MAX_IDLE_BYTES = Math.max(256L << 20, hostMemoryBytes() / 16);
    private static final int MAX_IDLE_PER_CLASS = 8;

    private final DeviceContext owner;
    private final Map<Long, ArrayDeque<PinnedBlock>> idle = new HashMap<>();
    private long idleBytes;
    private boolean closed;

    /**
     * One mapped driver buffer; {@code start} is a JOCL pointer to its first byte, made once: a
     * transfer to or from the block's start needs no new {@code ByteBuffer} (a JOCL pointer to native
     * memory is made from one, and making one enters about a dozen JDK methods, each of which costs an
     * apply an entry barrier after a full collection: docs/runtime.md).
     */
    private record PinnedBlock(cl_mem memory, ByteBuffer mapped, MemorySegment segment, Pointer start) {
        long capacity() {
            return segment.byteSize();
        }
    }

    PinnedHostMemory(DeviceContext owner) {
        this.owner = owner;
    }

    /**
     * A JOCL pointer to the first byte of {@code allocation}'s memory, made when its block was, when
     * it is pinned by this runtime; else null (make one from the segment).
     */
    static Pointer startOf(HostAllocation allocation) {
        return allocation instanceof PinnedAllocation pinned ? pinned.start() : null;
    }

    /** Whether a block of {@code bytes} can be pinned: a mapped {@code ByteBuffer} holds at most 2^31-1 bytes. */
    static boolean isPinnable(long bytes) {
        return SizeClasses.classOf(Math.max(1, bytes)) <= Integer.MAX_VALUE;
    }

    @Override
    public HostAllocation allocate(long bytes, long alignment) {
        return allocate(bytes, alignment, true);
    }

    @Override
    public HostAllocation allocateUninitialized(long bytes, long alignment) {
        return allocate(bytes, alignment, false);
    }

    private HostAllocation allocate(long bytes, long alignment, boolean zeroed) {
        long capacity = SizeClasses.classOf(Math.max(1, bytes));
        if (!isPinnable(bytes) || owner.isLost()) {
            return PlainHostMemory.INSTANCE.allocate(bytes, alignment);
        }
        PinnedBlock block = takeIdle(capacity);
        if (block == null) {
            try {
                block = create(capacity);
            } catch (CLException e) {
                Explain.notice("pinned host memory of " + owner.device().name() + " is exhausted (" + e.getMessage()
                        + "); new arrays use plain memory, which transfers more slowly");
                return PlainHostMemory.INSTANCE.allocate(bytes, alignment);
            }
        }
        if (block.segment().address() % alignment != 0) {
            giveBack(block);
            return PlainHostMemory.INSTANCE.allocate(bytes, alignment);
        }
        MemorySegment segment = block.segment().asSlice(0, Math.max(1, bytes));
        if (zeroed) {
            segment.fill((byte) 0); // a reused block holds an old array's data; a new one is undefined
        }
        return new PinnedAllocation(this, block, segment);
    }

    @Override
    public String describe() {
        return "pinned by " + owner.device().platformName();
    }

    /** Unmaps and frees every idle block. */
    void clear() {
        ArrayDeque<PinnedBlock> toFree = new ArrayDeque<>();
        synchronized (this) {
            idle.values().forEach(toFree::addAll);
            idle.clear();
            idleBytes = 0;
        }
        toFree.forEach(this::free);
    }

    /** Frees the idle blocks and every block given back from now on. */
    void close() {
        synchronized (this) {
            closed = true;
        }
        clear();
    }

    private synchronized PinnedBlock takeIdle(long capacity) {
        ArrayDeque<PinnedBlock> free = idle.get(SizeClasses.key(capacity));
        if (free == null || free.isEmpty()) {
            return null;
        }
        idleBytes -= capacity;
        return free.pop();
    }

    /**
     * Keeps {@code block} for reuse, making room by freeing idle blocks of other sizes when the pool is
     * full: the block just used is the likeliest to be wanted again.
     */
    private void giveBack(PinnedBlock block) {
        List<PinnedBlock> toFree = List.of(); // made only when the pool is full: most give-backs free nothing
        boolean kept = false;
        synchronized (this) {
            ArrayDeque<PinnedBlock> free = idle.computeIfAbsent(SizeClasses.key(block.capacity()), c -> new ArrayDeque<>());
            if (!closed && !owner.isLost() && block.capacity() <= MAX_IDLE_BYTES && free.size() < MAX_IDLE_PER_CLASS) {
                if (idleBytes + block.capacity() > MAX_IDLE_BYTES) {
                    toFree = new ArrayList<>();
                    for (Iterator<Map.Entry<Long, ArrayDeque<PinnedBlock>>> classes = idle.entrySet().iterator(); idleBytes + block.capacity() > MAX_IDLE_BYTES && classes.hasNext();) {
                        ArrayDeque<PinnedBlock> other = classes.next().getValue();
                        while (other != free && !other.isEmpty() && idleBytes + block.capacity() > MAX_IDLE_BYTES) {
                            PinnedBlock evicted = other.pop();
                            idleBytes -= evicted.capacity();
                            toFree.add(evicted);
                        }
                    }
                }
                if (idleBytes + block.capacity() <= MAX_IDLE_BYTES) {
                    free.push(block);
                    idleBytes += block.capacity();
                    kept = true;
                }
            }
        }
        for (int i = 0; i < toFree.size(); i++) {
            free(toFree.get(i));
        }
        if (!kept) {
            free(block);
        }
    }

    /** The host's memory from /proc/meminfo (no jdk.management module needed), or 0 when unknown. */
    private static long hostMemoryBytes() {
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // not Linux, or unreadable: the floor applies
        }
        return 0;
    }

    private PinnedBlock create(long capacity) {
        DriverCalls.count(DriverCalls.Call.CREATE_BUFFER);
        cl_mem memory = clCreateBuffer(owner.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, capacity, null, null);
        ByteBuffer mapped;
        try {
            DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
            mapped = clEnqueueMapBuffer(owner.mappingQueue(), memory, true, CL_MAP_READ | CL_MAP_WRITE, 0, capacity, 0, null, null, null);
        } catch (CLException e) {
            DriverCalls.count(DriverCalls.Call.RELEASE_BUFFER);
            clReleaseMemObject(memory);
            throw e;
        }
        LiveResources.pinnedCreated(capacity);
        return new PinnedBlock(memory, mapped, MemorySegment.ofBuffer(mapped), Pointer.to(mapped.duplicate()));
    }

    private void free(PinnedBlock block) {
        try {
            DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
            clEnqueueUnmapMemObject(owner.mappingQueue(), block.memory(), block.mapped(), 0, null, null);
            DriverCalls.count(DriverCalls.Call.RELEASE_BUFFER);
            clReleaseMemObject(block.memory());
        } catch (CLException e) {
            // A lost device may refuse; the driver frees its memory with the context.
        }
        LiveResources.pinnedReleased(block.capacity());
    }

    /** An array's share of a pinned block; gives the block back to the pool once. */
    private static final class PinnedAllocation implements HostAllocation {
        private final PinnedHostMemory memory;
        private final PinnedBlock block;
        private final MemorySegment segment;
        private boolean released;

        PinnedAllocation(PinnedHostMemory memory, PinnedBlock block, MemorySegment segment) {
            this.memory = memory;
            this.block = block;
            this.segment = segment;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public Object deviceHandle() {
            return block.memory();
        }

        /** A JOCL pointer to the start of this allocation's memory (the start of its block). */
        Pointer start() {
            return block.start();
        }

        @Override
        public synchronized void release() {
            if (!released) {
                released = true;
                memory.giveBack(block);
            }
        }
    }
}
