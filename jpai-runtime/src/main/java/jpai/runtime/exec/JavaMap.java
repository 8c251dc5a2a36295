package jpai.runtime.exec;

import java.util.function.Function;

import jpai.PArray;

/**
 * Runs a map on the JVM: sequentially on the calling thread, or on the fork/join pool with the
 * input cut into contiguous chunks, a few per core. The fallback for everything OpenCL cannot do,
 * and the reference the device's results are tested against.
 */
public final class JavaMap {

    private JavaMap() {
    }

    /** The sequential executor: one loop on the calling thread. */
    public static <T, R> void sequential(Function<T, R> function, PArray<T> input, PArray<R> output) {
        runRange(function, input, output, 0, input.length());
    }

    /** The Java-threads executor. */
    public static <T, R> void threads(Function<T, R> function, PArray<T> input, PArray<R> output) {
        Chunks.forEach(input.length(), (from, to) -> runRange(function, input, output, from, to));
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
