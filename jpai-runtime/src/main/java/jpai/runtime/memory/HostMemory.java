package jpai.runtime.memory;

import java.util.Objects;

/**
 * Where {@code PArray} storage comes from. The runtime installs pinned driver memory when an OpenCL
 * device is in use (transfers from pinned memory run several times faster than from pageable
 * memory), and plain off-heap memory otherwise.
 */
public interface HostMemory {

    /** A new zero-filled block of {@code bytes} bytes (at least 1), aligned to {@code alignment}. */
    HostAllocation allocate(long bytes, long alignment);

    /**
     * A new block whose contents are undefined, for arrays that will be written in full before they
     * are read (the outputs of kernels): it saves zeroing memory that is about to be overwritten.
     */
    default HostAllocation allocateUninitialized(long bytes, long alignment) {
        return allocate(bytes, alignment);
    }

    /** A short description for profiles and messages ("plain off-heap", "pinned by NVIDIA CUDA"). */
    String describe();

    /** The memory {@code PArray}s are allocated from now. */
    static HostMemory current() {
        return Holder.current;
    }

    /**
     * Makes {@code memory} the source of new arrays; existing arrays keep theirs. For the runtime,
     * when it picks a device, and for tests.
     */
    static void install(HostMemory memory) {
        Holder.current = Objects.requireNonNull(memory);
    }

    /** The installed memory; plain until the runtime installs another. */
    final class Holder {
        private static volatile HostMemory current = PlainHostMemory.INSTANCE;

        private Holder() {
        }
    }
}
