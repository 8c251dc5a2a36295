package jpai.runtime.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The segments through which Java code reads and writes one block of host memory, each bound to a
 * shared {@link Arena} that is closed with the block's owner: once {@link #close()} returns, every
 * such segment throws {@link IllegalStateException} on access, on every thread, and no access is
 * still in progress (closing a shared arena waits for accesses in flight or makes them throw), so
 * the memory can be freed or given to another array without any old segment reaching it.
 *
 * <ul>
 * <li>{@link #shared()}: one segment for the runtime's host reads and writes and the user's
 * read-only {@code PArray.segment()}, made on first need (an array only ever used by kernels and
 * bulk copies never pays for an arena).</li>
 * <li>{@link #openWrite()}: a segment of its own per write scope, dead when the write scope ends or
 * the block closes, whichever comes first.</li>
 * </ul>
 *
 * <p>Closing a shared arena is a handshake with every JVM thread (tens of microseconds), which is
 * why a block makes its shared segment only when Java code accesses it.
 *
 * <p>Thread-safe: this object's monitor guards the arenas; a segment once made is read without it.
 */
final class AccessScopes {

    private final MemorySegment memory;
    private volatile MemorySegment shared;
    private Arena sharedArena;
    /** The open write scopes' arenas; made on the first write scope (most arrays never have one). */
    private Set<Arena> writes;
    private boolean closed;

    /** @param memory the block, unscoped: it is never handed out itself */
    AccessScopes(MemorySegment memory) {
        this.memory = memory;
    }

    /**
     * The block as a segment that dies at {@link #close()}.
     *
     * @throws IllegalStateException if the block is closed
     */
    MemorySegment shared() {
        MemorySegment segment = shared;
        return segment != null ? segment : makeShared();
    }

    /** Whether {@link #shared()} was made already (then using it costs no arena). */
    boolean hasShared() {
        return shared != null;
    }

    private synchronized MemorySegment makeShared() {
        checkOpen();
        if (shared == null) {
            sharedArena = Arena.ofShared();
            shared = memory.reinterpret(sharedArena, null);
        }
        return shared;
    }

    /**
     * A writable segment over the block for one write scope; it dies at {@link #endWrite} or
     * {@link #close()}.
     */
    synchronized Write openWrite() {
        checkOpen();
        Arena arena = Arena.ofShared();
        if (writes == null) {
            writes = new HashSet<>();
        }
        writes.add(arena);
        return new Write(arena, memory.reinterpret(arena, null));
    }

    /** Ends a write scope: its segment dies (a second call does nothing). */
    void endWrite(Write write) {
        boolean open;
        synchronized (this) {
            open = writes != null && writes.remove(write.arena());
        }
        if (open) {
            write.arena().close();
        }
    }

    /** Kills every segment made here; after it returns, no access through one is in progress. Idempotent. */
    void close() {
        List<Arena> arenas = new ArrayList<>(2);
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            if (sharedArena != null) {
                arenas.add(sharedArena);
            }
            if (writes != null) {
                arenas.addAll(writes);
                writes.clear();
            }
        }
        for (Arena arena : arenas) {
            arena.close();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this array's memory was released (the PArray is closed)");
        }
    }

    /** One write scope's arena and the segment bound to it. */
    record Write(Arena arena, MemorySegment segment) {
    }
}
