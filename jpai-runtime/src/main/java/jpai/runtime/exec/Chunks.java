package jpai.runtime.exec;

import java.util.stream.LongStream;

/** Cuts {@code [0, length)} into contiguous chunks, a few per core, and runs them on the fork/join pool. */
public final class Chunks {

    /** Below this many elements per chunk, splitting costs more than it gains. */
    private static final long MIN_CHUNK = 4096;

    /** Work on one chunk {@code [from, to)}. */
    @FunctionalInterface
    public interface Range {
        void run(long from, long to);
    }

    private Chunks() {
    }

    /** The chunk size for {@code length} elements. */
    public static long chunkSize(long length) {
        int cores = Runtime.getRuntime().availableProcessors();
        return Math.max(MIN_CHUNK, (length + cores * 4L - 1) / (cores * 4L));
    }

    /** The number of chunks of {@code chunkSize(length)} covering {@code length} elements. */
    public static int count(long length) {
        long chunk = chunkSize(length);
        return (int) Math.max(1, (length + chunk - 1) / chunk);
    }

    /** Runs {@code range} on every chunk, in parallel when there is more than one. */
    public static void forEach(long length, Range range) {
        long chunk = chunkSize(length);
        int chunks = count(length);
        if (chunks == 1) {
            range.run(0, length);
            return;
        }
        LongStream.range(0, chunks).parallel().forEach(c -> range.run(c * chunk, Math.min(length, (c + 1) * chunk)));
    }
}
