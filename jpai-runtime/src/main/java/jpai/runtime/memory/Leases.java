package jpai.runtime.memory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts who is using a block of host memory outside the JVM's checks (a driver copying to or
 * from it, code reading it through an unscoped segment), so that the block is freed exactly once,
 * when it is closed and the last user is done: a {@code close()} on one thread while another
 * thread's transfer is in flight then delays the free instead of pulling the memory from under
 * the transfer.
 *
 * <p>After {@link #close()} no new lease is given ({@link #acquire()} throws), so the count can
 * only fall to zero, and the free runs on the thread that brings it there.
 *
 * <p>Thread-safe and lock-free: one atomic word holds the count and the closed bit.
 */
final class Leases {

    /** The closed bit: the sign bit, so that "closed, no lease" is exactly {@code Long.MIN_VALUE}. */
    private static final long CLOSED = Long.MIN_VALUE;

    private final AtomicLong state = new AtomicLong();
    private final Runnable free;

    /** @param free what releases the memory; run once, on the thread that ends the last use */
    Leases(Runnable free) {
        this.free = free;
    }

    /**
     * Takes a lease: the memory stays allocated until the matching {@link #release()}.
     *
     * @throws IllegalStateException if the memory is closed
     */
    void acquire() {
        if (!tryAcquire()) {
            throw new IllegalStateException("this array's memory was released (the PArray is closed)");
        }
    }

    /** Takes a lease unless the memory is closed; returns whether it did. */
    boolean tryAcquire() {
        long current;
        do {
            current = state.get();
            if ((current & CLOSED) != 0) {
                return false;
            }
        } while (!state.compareAndSet(current, current + 1));
        return true;
    }

    /** Ends a lease; the last one after {@link #close()} frees the memory. */
    void release() {
        long now = state.decrementAndGet();
        if (now == CLOSED) {
            free.run();
        } else if ((now & ~CLOSED) == ~CLOSED) {
            throw new IllegalStateException("a lease was released that was never taken");
        }
    }

    /**
     * Refuses new leases from now on. The caller must hold a lease itself (it releases it after
     * whatever must happen between refusing leases and the free), so the free never runs inside.
     *
     * @return whether this call closed it (false if it was closed already)
     */
    boolean close() {
        long current;
        do {
            current = state.get();
            if ((current & CLOSED) != 0) {
                return false;
            }
        } while (!state.compareAndSet(current, current | CLOSED));
        return true;
    }

    boolean isClosed() {
        return state.get() < 0;
    }
}
