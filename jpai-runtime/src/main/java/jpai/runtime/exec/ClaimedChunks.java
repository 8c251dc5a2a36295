package jpai.runtime.exec;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@code [0, length)} on Java threads in chunks claimed in order from one counter, so that
 * something else (the device, once its kernel is compiled) can take over every chunk not claimed
 * yet: tiering's first apply ({@code -Djpai.tiering=true}). The caller runs chunks too and, between
 * two of its chunks, asks the {@link Takeover} whether it wants the rest; if it does, it closes the
 * counter, runs the rest there, and waits for the workers to finish the chunks they hold.
 *
 * <p>Failures are the sequential loop's: chunks are claimed in order and each runs its elements in
 * order and stops at its first failure, so when one throws, every chunk before it is claimed and
 * runs to its end (or its own earlier failure) and no chunk after it is claimed any more; the
 * exception reported is the one of the lowest chunk that threw, which wins over whatever the
 * takeover found in its part (which lies after every claimed chunk).
 */
public final class ClaimedChunks {

    /** Elements per chunk at least: a claim costs an atomic add, a chunk a few of them. */
    private static final long MIN_CHUNK = 1024;
    /**
     * Chunks per worker: many, so that the chunks the workers still hold when the device takes over
     * are a small part of the work.
     */
    private static final int CHUNKS_PER_WORKER = 64;

    /** What may take over the chunks not claimed yet. */
    public interface Takeover {

        /**
         * Asked by the calling thread between its chunks: whether it wants the rest now.
         *
         * @param elapsedNanos since the run began
         * @param claimed elements claimed so far (the next chunk starts here)
         * @param length all elements
         */
        boolean wants(long elapsedNanos, long claimed, long length);

        /**
         * Runs {@code [first, length)} (called at most once, on the calling thread, while the workers
         * finish the chunks before {@code first}) and returns the first element from which Java must
         * still run them (a kernel exit's element; {@code first} when it ran none; {@code length}
         * when it ran all).
         */
        long run(long first, long length);
    }

    /**
     * How a run ended: where the takeover began and up to where it ran (both the length when there
     * was none), and how long Java threads ran the elements before it ({@code javaNanos}: from the
     * start to the takeover, or to the end when there was none), for their pace.
     */
    public record Outcome(long takenOverFrom, long takeoverRanUpTo, long javaNanos) {

        /** Whether the takeover ran any element. */
        public boolean tookOver() {
            return takeoverRanUpTo > takenOverFrom;
        }
    }

    private ClaimedChunks() {
    }

    /**
     * Runs {@code range} over {@code [0, length)}, in chunks whose size is a multiple of
     * {@code granule} (a takeover starts at a multiple of it: a whole row of a 2-D index space),
     * handing the unclaimed rest to {@code takeover} when it wants it; elements the takeover left
     * run in Java after it. Rethrows the first failing element's exception (the same object).
     */
    public static Outcome forEach(long length, long granule, Chunks.Range range, Takeover takeover) {
        int parallelism = ForkJoinPool.getCommonPoolParallelism();
        long chunk = Math.max(MIN_CHUNK, length / ((long) (parallelism + 1) * CHUNKS_PER_WORKER));
        chunk = Math.max(granule, chunk / granule * granule);
        Claims claims = new Claims(length, chunk, range);
        int workers = (int) Math.min(parallelism, (length + chunk - 1) / chunk - 1);
        ForkJoinTask<?>[] tasks = new ForkJoinTask<?>[Math.max(0, workers)];
        for (int w = 0; w < tasks.length; w++) {
            tasks[w] = ForkJoinPool.commonPool().submit(claims::runChunks);
        }
        long start = System.nanoTime();
        long takenOverFrom = length;
        long javaFrom = length;
        long javaNanos = -1;
        try {
            while (!claims.stopped()) {
                if (takeover.wants(System.nanoTime() - start, Math.min(length, claims.next.get()), length)) {
                    takenOverFrom = Math.min(length, claims.next.getAndSet(length));
                    javaNanos = System.nanoTime() - start;
                    if (takenOverFrom < length) {
                        javaFrom = Math.max(takenOverFrom, Math.min(length, takeover.run(takenOverFrom, length)));
                    }
                    break;
                }
                if (!claims.runOneChunk()) {
                    break;
                }
            }
        } finally {
            claims.stop(); // if the takeover threw: the workers claim nothing more
            for (ForkJoinTask<?> task : tasks) {
                // the workers catch what the lambda throws, so join itself does not throw; no one
                // returns (and the caller frees the arrays) while a worker still writes them
                task.join();
            }
        }
        if (javaNanos < 0) {
            javaNanos = System.nanoTime() - start;
        }
        claims.rethrowFirstFailure();
        if (javaFrom < length) {
            long from = javaFrom;
            Chunks.forEach(length - from, (a, b) -> range.run(from + a, from + b));
        }
        return new Outcome(takenOverFrom, javaFrom, javaNanos);
    }

    /** The claim counter and the first failure. */
    private static final class Claims {
        final AtomicLong next = new AtomicLong();
        final long length;
        final long chunk;
        final Chunks.Range range;
        private long failedChunk = Long.MAX_VALUE;
        private Throwable failure;
        private volatile boolean stop;

        Claims(long length, long chunk, Chunks.Range range) {
            this.length = length;
            this.chunk = chunk;
            this.range = range;
        }

        boolean stopped() {
            return stop;
        }

        void stop() {
            stop = true;
        }

        void runChunks() {
            while (runOneChunk()) {
                // claims the next chunk
            }
        }

        /** Claims and runs one chunk; false when none is left or one failed. */
        boolean runOneChunk() {
            if (stop) {
                return false;
            }
            long from = next.getAndAdd(chunk);
            if (from >= length) {
                return false;
            }
            try {
                range.run(from, Math.min(length, from + chunk));
                return true;
            } catch (Throwable e) { // also Errors and checked exceptions a lambda threw sneakily: all go to the caller
                failed(from, e);
                return false;
            }
        }

        private synchronized void failed(long from, Throwable e) {
            stop = true; // chunks claimed later lie after this one: their failures could not be the first
            if (from < failedChunk) {
                failedChunk = from;
                failure = e;
            }
        }

        synchronized void rethrowFirstFailure() {
            if (failure != null) {
                throw Chunks.<RuntimeException>sneaky(failure);
            }
        }
    }
}
