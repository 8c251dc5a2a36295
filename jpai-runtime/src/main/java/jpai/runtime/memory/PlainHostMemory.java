package jpai.runtime.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Off-heap memory from a shared {@link Arena} per block: the storage when no device is in use. */
public final class PlainHostMemory implements HostMemory {

    public static final PlainHostMemory INSTANCE = new PlainHostMemory();

    private PlainHostMemory() {
    }

    @Override
    public HostAllocation allocate(long bytes, long alignment) {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(Math.max(1, bytes), alignment);
        return new HostAllocation() {
            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public void release() {
                arena.close();
            }
        };
    }

    @Override
    public String describe() {
        return "plain off-heap";
    }
}
