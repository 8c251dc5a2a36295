package jpai.runtime.exec;

import java.util.function.Function;
import java.util.stream.LongStream;

import jpai.PArray;

/**
 * Runs a map on the JVM's fork/join pool: the input is cut into contiguous chunks, a few per core,
 * each chunk a plain loop. The fallback for everything OpenCL cannot do, and the reference the
 * device's results are tested against.
 */
public final class JavaThreadsMap {

    /** Below this many elements per chunk, splitting costs more than it gains. */
    private static final long MIN_CHUNK = 4096;

    private JavaThreadsMap() {
    }

    public static <T, R> void run(Function<T, R> function, PArray<T> input, PArray<R> output) {
        long length = input.length();
        int cores = Runtime.getRuntime().availableProcessors();
        long chunk = Math.max(MIN_CHUNK, (length + cores * 4L - 1) / (cores * 4L));
        long chunks = (length + chunk - 1) / chunk;
        if (chunks <= 1) {
            runRange(function, input, output, 0, length);
            return;
        }
        LongStream.range(0, chunks).parallel().forEach(c -> runRange(function, input, output, c * chunk, Math.min(length, (c + 1) * chunk)));
    }

    /** The sequential executor: one loop on the calling thread. */
    public static <T, R> void runSequential(Function<T, R> function, PArray<T> input, PArray<R> output) {
        runRange(function, input, output, 0, input.length());
    }

    private static <T, R> void runRange(Function<T, R> function, PArray<T> input, PArray<R> output, long from, long to) {
        for (long i = from; i < to; i++) {
            R value = function.apply(input.get(i));
            if (value == null) {
                throw new NullPointerException("the mapped function returned null for element " + i + "; PArray elements cannot be null");
            }
            output.put(i, value);
        }
    }
}
