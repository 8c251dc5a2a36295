package jpai.runtime.memory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Off-heap memory from the C library ({@code calloc}, {@code malloc}, {@code free}): the storage
 * when no device is in use, and for arrays pinned memory cannot hold.
 *
 * <p>Not from an {@code Arena}: the array's {@link ComponentBuffer} already bounds every Java access
 * with an arena of its own and frees the block only when nothing can reach it, and closing a
 * shared arena is a handshake with every JVM thread (tens of microseconds), which a second arena
 * per array would add to every close. {@code calloc} also gets large zeroed blocks from the
 * operating system's zero pages instead of writing zeros.
 */
public final class PlainHostMemory implements HostMemory {

    public static final PlainHostMemory INSTANCE = new PlainHostMemory();

    /** malloc's alignment on every 64-bit platform the JDK runs on (glibc, macOS, Windows x64). */
    private static final long MALLOC_ALIGNMENT = 16;

    private static final MethodHandle CALLOC;
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;

    static {
        Linker linker = Linker.nativeLinker();
        CALLOC = linker.downcallHandle(linker.defaultLookup().find("calloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        MALLOC = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        FREE = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    }

    /** Blocks allocated and not yet released: tests use it to see that arrays free their memory. */
    private static final AtomicLong LIVE = new AtomicLong();

    private PlainHostMemory() {
    }

    @Override
    public HostAllocation allocate(long bytes, long alignment) {
        return allocate(bytes, alignment, true);
    }

    @Override
    public HostAllocation allocateUninitialized(long bytes, long alignment) {
        return allocate(bytes, alignment, false);
    }

    private static HostAllocation allocate(long bytes, long alignment, boolean zeroed) {
        if (alignment > MALLOC_ALIGNMENT || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("plain memory is aligned to " + MALLOC_ALIGNMENT + " bytes, not " + alignment);
        }
        long size = Math.max(1, bytes);
        MemorySegment block;
        try {
            block = zeroed ? (MemorySegment) CALLOC.invokeExact(1L, size) : (MemorySegment) MALLOC.invokeExact(size);
        } catch (Throwable e) {
            throw new IllegalStateException("calling the C library's allocator failed", e);
        }
        if (block.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("the host could not give " + size + " bytes of off-heap memory for a PArray");
        }
        MemorySegment segment = block.reinterpret(size);
        LIVE.incrementAndGet();
        return new HostAllocation() {
            private boolean released;

            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public synchronized void release() {
                if (released) {
                    return;
                }
                released = true;
                try {
                    FREE.invokeExact(segment);
                } catch (Throwable e) {
                    throw new IllegalStateException("calling the C library's free failed", e);
                }
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
