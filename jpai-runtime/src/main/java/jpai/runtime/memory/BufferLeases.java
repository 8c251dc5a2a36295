package jpai.runtime.memory;

import java.util.ArrayList;
import java.util.List;

import jpai.PArray;

/**
 * Leases on every component buffer of some arrays, taken together and released together: for an
 * operation that reads or writes their memory through {@link ComponentBuffer#leasedMemory()} (no
 * arena, so closing the arrays later costs no thread handshake) and must keep that memory
 * allocated until it is done, even if another thread closes an array meanwhile.
 *
 * <p>Not thread-safe: taken and closed by one thread (the work it covers may run on others, as long
 * as it is done when the leases are closed).
 */
public final class BufferLeases implements AutoCloseable {

    private final List<ComponentBuffer> leased = new ArrayList<>();

    private BufferLeases() {
    }

    /**
     * Leases every buffer of {@code arrays}.
     *
     * @throws IllegalStateException if one of them is closed (then none stays leased)
     */
    public static BufferLeases of(PArray<?>... arrays) {
        BufferLeases leases = new BufferLeases();
        try {
            for (PArray<?> array : arrays) {
                for (int i = 0; i < array.componentCount(); i++) {
                    leases.add(PArrayStorage.buffer(array, i));
                }
            }
        } catch (RuntimeException e) {
            leases.close();
            throw e;
        }
        return leases;
    }

    /** Leases one more buffer. */
    public void add(ComponentBuffer buffer) {
        buffer.acquireLease();
        leased.add(buffer);
    }

    /** Releases every lease; the last one of a closed array frees it. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int i = 0; i < leased.size(); i++) {
            ComponentBuffer buffer = leased.get(i);
            try {
                buffer.releaseLease();
            } catch (RuntimeException e) {
                failure = e; // release the others all the same
            }
        }
        leased.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
