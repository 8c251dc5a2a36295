package jpai.runtime.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/** Off-heap memory from a shared {@link Arena} per block: the storage when no device is in use. */
public final class PlainHostMemory implements HostMemory {

    public static final PlainHostMemory INSTANCE = new PlainHostMemory();

    /** Blocks allocated and not yet released: tests use it to see that arrays free their memory. */
    private static final AtomicLong LIVE = new AtomicLong();

    private PlainHostMemory() {
    }

    @Override
    public HostAllocation allocate(long bytes, long alignment) {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(Math.max(1, bytes), alignment);
        LIVE.incrementAndGet();
        return new HostAllocation() {
            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public void release() {
                arena.close();
                LIVE.decrementAndGet();
            }
        };
    }

    /** The number of blocks allocated and not yet released, in this JVM. */
    public static long liveAllocations() {
        return LIVE.get();
    }

    @Override
    public String describe() {
        return "plain off-heap";
    }
}
