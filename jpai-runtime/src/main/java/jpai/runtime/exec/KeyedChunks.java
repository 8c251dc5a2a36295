package jpai.runtime.exec;

/**
 * The fixed combining order of a keyed reduction whose bits may depend on it (floats, operators
 * not recognised as order-independent): the elements are cut into chunks of
 * {@link #chunkLength(long, int)} consecutive elements, each chunk folded left to right into its own
 * row of per-key values (each starting at the identity), and then each key's row values folded
 * chunk 0 first, from the identity. The device's kernels ({@code KeyedReduceKernels}) and the Java
 * executors ({@link JavaKeyedReduce}) use this one order, so a float result has the same bits on
 * every executor; with an associative operator and its identity it is the sequential loop's result.
 * The chunk length depends on the length and the number of keys only, never on the device.
 */
public final class KeyedChunks {

    /** At most this many per-key partial values in all rows (4 Mi: 16 MiB of floats); one row when the keys alone are more. */
    static final long MAX_PARTIALS = 1L << 22;

    /** No chunk shorter than this: a row of partial values costs its keys to set up and to combine. */
    static final long MIN_CHUNK = 64;

    private KeyedChunks() {
    }

    /** The elements per chunk for {@code length} elements and {@code keys} keys (at least 1). */
    public static long chunkLength(long length, int keys) {
        long byLength = Math.max(1, (length + MIN_CHUNK - 1) / MIN_CHUNK);
        long byMemory = Math.max(1, MAX_PARTIALS / Math.max(1, keys));
        long chunks = Math.min(byLength, byMemory);
        return Math.max(1, (length + chunks - 1) / chunks);
    }

    /** The number of chunks of {@code chunkLength} elements covering {@code length} (0 for none). */
    public static long chunks(long length, long chunkLength) {
        return (length + chunkLength - 1) / chunkLength;
    }
}
