package jpai.runtime.exec;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@code [0, length)} on Java threads in chunks claimed in order from one counter: the
 * Java-threads executor's maps, and tiering's first apply ({@code -Djpai.tiering=true}), where
 * something else (the device, once its kernel is compiled) can take over every chunk not claimed
 * yet. The caller runs chunks too and, between two of its chunks, asks the {@link Takeover} whether
 * it wants the rest; if it does, it closes the counter, runs the rest there, and waits for the
 * workers to finish the chunks they hold.
 *
 * <p>Chunks are sized by time, not by count: the caller runs a first small chunk alone, and its time
 * per element sets the others' size (about 100 µs each, between 8 and 64 per thread where there are
 * elements enough) and whether to wake the fork/join pool's workers at all. So 4,096 elements of
 * a DFT (a millisecond each) spread over every core, and 4,096 of a saxpy stay on the calling thread.
 *
 * <p>Failures are the sequential loop's: chunks are claimed in order and each runs its elements in
 * order and stops at its first failure, so when one throws, every chunk before it is claimed and
 * runs to its end (or its own earlier failure) and no chunk after it is claimed any more; the
 * exception reported is the one of the lowest chunk that threw, which wins over whatever the
 * takeover found in its part (which lies after every claimed chunk).
 */
public final class ClaimedChunks {

    /** Elements of the first chunk, which the calling thread runs alone and times (rounded up to the granule). */
    private static final long PROBE_ELEMENTS = 64;
    /**
     * What a chunk should take: long enough that claiming it (an atomic add) is noise, short enough
     * that a takeover or a slow core waits for little.
     */
    private static final double CHUNK_NANOS = 100_000;
    /** Chunks per thread at least, where there are enough elements: a core slowed by other work does not hold the others up. */
    private static final int CHUNKS_PER_THREAD = 8;
    /** Chunks per thread at most: each claim and each chunk's loop set-up costs a little. */
    private static final int MAX_CHUNKS_PER_THREAD = 64;
    /** Waking the workers costs tens of microseconds: a rest that takes one thread less than this runs on the calling thread alone. */
    private static final double FORK_NANOS = 50_000;

    /** What may take over the chunks not claimed yet. */
    public interface Takeover {

        /**
         * How many workers should stop claiming chunks now (asked after each {@link #wants}): cores
         * left to a compilation running meanwhile. Workers that stopped do not start again.
         */
        default int workersToRetire() {
            return 0;
        }

        /** Never wants anything: the plain Java-threads executor. */
        Takeover NONE = new Takeover() {
            @Override
            public boolean wants(long elapsedNanos, long claimed, long length) {
                return false;
            }

            @Override
            public long run(long first, long length) {
                throw new IllegalStateException("no takeover");
            }
        };

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
        Claims claims = new Claims(length, range);
        long start = System.nanoTime();
        ForkJoinTask<?>[] tasks = new ForkJoinTask<?>[0];
        // The first chunk runs on the calling thread alone: its time sets the others' size (about
        // CHUNK_NANOS each, so a map of few expensive elements still spreads over every core) and
        // says whether waking the workers pays at all (a small cheap map does not).
        long probe = Math.min(length, Math.max(granule, (PROBE_ELEMENTS + granule - 1) / granule * granule));
        if (claims.runOneChunk(probe) && probe < length) {
            double perElement = Math.max(1, System.nanoTime() - start) / (double) probe;
            long remaining = length - probe;
            int parallelism = ForkJoinPool.getCommonPoolParallelism();
            // about CHUNK_NANOS each, but between 8 and 64 chunks per thread: the probe ran in the
            // interpreter, whose pace would cut a cheap map into millions of chunks
            long threads = parallelism + 1L;
            long chunk = Math.min(Math.max((long) (CHUNK_NANOS / perElement), remaining / (threads * MAX_CHUNKS_PER_THREAD)), remaining / (threads * CHUNKS_PER_THREAD));
            claims.chunk = Math.max(granule, chunk / granule * granule);
            if (perElement * remaining > FORK_NANOS) {
                tasks = new ForkJoinTask<?>[(int) Math.max(0, Math.min(parallelism, (remaining + claims.chunk - 1) / claims.chunk - 1))];
                for (int w = 0; w < tasks.length; w++) {
                    tasks[w] = ForkJoinPool.commonPool().submit(claims::runChunks);
                }
            }
        }
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
                claims.retire(takeover.workersToRetire());
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
            // in chunks of whole granules where the rest starts at one (a reduction's leaves), else of any size (a map's exit)
            forEach(length - from, from % granule == 0 ? granule : 1, (a, b) -> range.run(from + a, from + b), Takeover.NONE);
        }
        return new Outcome(takenOverFrom, javaFrom, javaNanos);
    }

    /** The claim counter, the chunk size and the first failure. */
    private static final class Claims {
        final AtomicLong next = new AtomicLong();
        final long length;
        /** Set by the calling thread after its first chunk, before any worker starts (the submit orders the write before their reads). */
        long chunk = 1;
        final Chunks.Range range;
        private long failedChunk = Long.MAX_VALUE;
        private Throwable failure;
        private volatile boolean stop;

        Claims(long length, Chunks.Range range) {
            this.length = length;
            this.range = range;
        }

        boolean stopped() {
            return stop;
        }

        void stop() {
            stop = true;
        }

        void runChunks() {
            while (!retiring() && runOneChunk()) {
                // claims the next chunk
            }
        }

        /** Workers asked to stop and not stopped yet. */
        private final java.util.concurrent.atomic.AtomicInteger toRetire = new java.util.concurrent.atomic.AtomicInteger();
        private int retired;

        /** Asks for {@code workers} stopped in all (called by the calling thread only). */
        void retire(int workers) {
            if (workers > retired) {
                toRetire.addAndGet(workers - retired);
                retired = workers;
            }
        }

        /** Whether this worker is to stop (it then counts as stopped). */
        private boolean retiring() {
            return toRetire.get() > 0 && toRetire.getAndDecrement() > 0;
        }

        /** Claims and runs one chunk; false when none is left or one failed. */
        boolean runOneChunk() {
            return runOneChunk(chunk);
        }

        /** Claims and runs a chunk of {@code size} elements; false when none is left or one failed. */
        boolean runOneChunk(long size) {
            if (stop) {
                return false;
            }
            long from = next.getAndAdd(size);
            if (from >= length) {
                return false;
            }
            try {
                range.run(from, Math.min(length, from + size));
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
