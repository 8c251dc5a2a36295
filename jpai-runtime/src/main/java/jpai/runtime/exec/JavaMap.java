package jpai.runtime.exec;

import java.util.function.Function;

import jpai.PArray;
import jpai.runtime.memory.BufferLeases;

/**
 * Runs a map on the JVM: sequentially on the calling thread, or on the fork/join pool with the
 * input cut into contiguous chunks claimed in order, sized by the time of a first one
 * ({@link ClaimedChunks}). The fallback for everything OpenCL cannot do,
 * and the reference the device's results are tested against.
 *
 * <p>Both give the sequential loop's results and failures: each element's result is checked (not
 * null, of the output's type) before the next element is mapped, and on threads the failure
 * reported is the one of the first failing element ({@link ClaimedChunks}).
 */
public final class JavaMap {

    private JavaMap() {
    }

    /** The sequential executor: one loop on the calling thread. */
    public static <T, R> void sequential(Function<T, R> function, PArray<T> input, PArray<R> output) {
        try (BufferLeases leases = BufferLeases.of(input, output)) {
            ChunkLoopCopies.of(function).map(erased(function), ElementReader.ofLeased(input), ElementWriter.ofLeased(output), 0, input.length());
        }
    }

    /** The Java-threads executor. */
    public static <T, R> void threads(Function<T, R> function, PArray<T> input, PArray<R> output) {
        threads(function, input, output, 0);
    }

    /**
     * The Java-threads executor on elements {@code first} to the last only: the others of
     * {@code output} keep what they hold (a kernel's results, brought back to the host first).
     * A failure is the one of the first failing element from {@code first} on.
     */
    public static <T, R> void threads(Function<T, R> function, PArray<T> input, PArray<R> output, long first) {
        claimedChunks(function, input, output, first, 1, ClaimedChunks.Takeover.NONE);
    }

    /**
     * The Java-threads executor, handing the elements it has not claimed yet to {@code takeover}
     * when it wants them ({@link ClaimedChunks}): tiering's first apply. Elements the takeover did
     * not complete run in Java after it. Failures are the sequential loop's.
     *
     * @param granule takeovers start at a multiple of it (a row of a 2-D index space)
     */
    public static <T, R> ClaimedChunks.Outcome threadsUntilTakenOver(Function<T, R> function, PArray<T> input, PArray<R> output, long granule, ClaimedChunks.Takeover takeover) {
        return claimedChunks(function, input, output, 0, granule, takeover);
    }

    /** Elements {@code first} to the last in claimed chunks ({@link ClaimedChunks}), offered to {@code takeover}. */
    private static <T, R> ClaimedChunks.Outcome claimedChunks(Function<T, R> function, PArray<T> input, PArray<R> output, long first, long granule,
                    ClaimedChunks.Takeover takeover) {
        ChunkLoops loops = ChunkLoopCopies.of(function);
        // Leased, not through arenas: closing the output (every apply makes one) then costs no
        // thread handshake. Taken once here, on the calling thread: the workers then only read and
        // write memory, and they are done when forEach returns.
        try (BufferLeases leases = BufferLeases.of(input, output)) {
            ElementReader reader = ElementReader.ofLeased(input);
            ElementWriter writer = ElementWriter.ofLeased(output);
            return ClaimedChunks.forEach(input.length() - first, granule, (from, to) -> loops.map(erased(function), reader, writer, first + from, first + to), takeover);
        }
    }

    /** The exception for a null result of element {@code index}. */
    static NullPointerException nullResult(long index) {
        return new NullPointerException("the mapped function returned null for element " + index + "; PArray elements cannot be null");
    }

    /** The element types are checked by the reader and the writer, not by the loop. */
    @SuppressWarnings("unchecked")
    private static Function<Object, Object> erased(Function<?, ?> function) {
        return (Function<Object, Object>) function;
    }
}
