package jpai.runtime.exec;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Cuts {@code [0, length)} into contiguous chunks, a few per core, and runs them on the common
 * fork/join pool (as many workers as cores, counting the caller, which helps). A failure is
 * reported as the sequential loop would report it: the exception of the first chunk that threw,
 * which is the exception of the first failing element, since each chunk runs its elements in order
 * and stops at its first failure.
 */
public final class Chunks {

    /**
     * Below this many elements per chunk, splitting costs more than it gains: handing a chunk to a
     * worker costs a few microseconds, about what a few thousand cheap elements take.
     */
    private static final long MIN_CHUNK = 4096;

    /** Chunks per core: more than one, so that a core slowed by other work does not hold the others up. */
    private static final int CHUNKS_PER_CORE = 4;

    /** Work on one chunk {@code [from, to)}. */
    @FunctionalInterface
    public interface Range {
        void run(long from, long to);
    }

    private Chunks() {
    }

    /** The chunk size for {@code length} elements. */
    public static long chunkSize(long length) {
        long chunks = (long) Runtime.getRuntime().availableProcessors() * CHUNKS_PER_CORE;
        return Math.max(MIN_CHUNK, (length + chunks - 1) / chunks);
    }

    /** The number of chunks of {@code chunk} elements covering {@code length} elements (1 for none). */
    public static int count(long length, long chunk) {
        return (int) Math.max(1, (length + chunk - 1) / chunk);
    }

    /**
     * Runs {@code range} on every chunk, in parallel when there is more than one, and returns when
     * all have finished or stopped. If any threw, rethrows the exception of the first such chunk
     * (the same object, not wrapped); chunks after a failed one may be skipped.
     */
    public static void forEach(long length, Range range) {
        forEach(length, chunkSize(length), range);
    }

    /** {@link #forEach(long, Range)} with chunks of {@code chunk} elements (the last may be shorter). */
    public static void forEach(long length, long chunk, Range range) {
        int chunks = count(length, chunk);
        if (chunks == 1) {
            range.run(0, length);
            return;
        }
        Throwable[] thrown = new Throwable[chunks];
        AtomicInteger firstFailed = new AtomicInteger(chunks);
        IntStream.range(0, chunks).parallel().forEach(c -> {
            if (c > firstFailed.get()) {
                return; // an earlier chunk failed: its exception is the one reported, this work is wasted
            }
            try {
                range.run(c * chunk, Math.min(length, (c + 1) * chunk));
            } catch (Throwable e) { // also Errors and checked exceptions a lambda threw sneakily: all go to the caller
                thrown[c] = e;
                firstFailed.accumulateAndGet(c, Math::min);
            }
        });
        int first = firstFailed.get();
        if (first < chunks) {
            throw Chunks.<RuntimeException>sneaky(thrown[first]);
        }
    }

    /** Rethrows {@code e} as it is, checked or not, as the lambda threw it. */
    @SuppressWarnings("unchecked")
    static <E extends Throwable> E sneaky(Throwable e) throws E {
        throw (E) e;
    }
}
