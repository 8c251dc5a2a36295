package jpai.runtime.exec;

import java.util.Arrays;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.PArray;
import jpai.runtime.memory.BufferLeases;

/**
 * A keyed reduction on the JVM: the elements in order, each element's key then value computed as
 * the sequential loop computes them (so an exception, an out-of-range key included, is Java's, at
 * Java's element), combined in {@link KeyedChunks}' order (so the bits are the device's), on the
 * calling thread or with the chunks on the fork/join pool.
 */
public final class JavaKeyedReduce {

    private JavaKeyedReduce() {
    }

    /**
     * The per-key results of {@code input}, on the calling thread: {@code result[k]} is {@code identity}
     * combined with the values of the elements whose key is {@code k}.
     *
     * @throws ArrayIndexOutOfBoundsException at the first element whose key is outside {@code 0 .. keys-1},
     *             with the message Java gives for {@code result[key]}
     */
    public static <T, V> Object[] sequential(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, PArray<T> input) {
        long length = input.length();
        Object[] result = new Object[keys];
        Arrays.fill(result, identity);
        if (length == 0) {
            return result;
        }
        long chunkLength = KeyedChunks.chunkLength(length, keys);
        try (BufferLeases leases = BufferLeases.of(input)) { // leased, not through an arena: see JavaReduce
            ElementReader reader = ElementReader.ofLeased(input);
            for (long start = 0; start < length; start += chunkLength) {
                combineRow(operator, result, row(key, value, operator, identity, keys, reader, start, Math.min(length, start + chunkLength)));
            }
        }
        return result;
    }

    /**
     * As {@link #sequential}, the chunks' rows computed on the fork/join pool (whole chunks per task,
     * each task's in order, so the first exception thrown is the first failing element's: see
     * {@link Chunks}), then combined on the calling thread, chunk 0 first: the same bits.
     */
    public static <T, V> Object[] threads(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, PArray<T> input) {
        long length = input.length();
        Object[] result = new Object[keys];
        Arrays.fill(result, identity);
        if (length == 0) {
            return result;
        }
        long chunkLength = KeyedChunks.chunkLength(length, keys);
        Object[][] rows = new Object[(int) KeyedChunks.chunks(length, chunkLength)][];
        long span = Math.max(1, Chunks.chunkSize(length) / chunkLength) * chunkLength; // whole chunks per task
        // leased, not through an arena (see JavaReduce); taken on the calling thread: the workers only read memory, and are done when forEach returns
        try (BufferLeases leases = BufferLeases.of(input)) {
            ElementReader reader = ElementReader.ofLeased(input);
            Chunks.forEach(length, span, (from, to) -> {
                for (long start = from; start < to; start += chunkLength) {
                    rows[(int) (start / chunkLength)] = row(key, value, operator, identity, keys, reader, start, Math.min(to, start + chunkLength));
                }
            });
        }
        for (Object[] row : rows) {
            combineRow(operator, result, row);
        }
        return result;
    }

    /** The elements {@code [start, end)} folded left to right into a new row of {@code keys} values, each from the identity. */
    @SuppressWarnings("unchecked")
    private static <T, V> Object[] row(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, ElementReader reader, long start, long end) {
        Object[] row = new Object[keys];
        Arrays.fill(row, identity);
        for (long i = start; i < end; i++) {
            T element = (T) reader.read(i);
            Integer k = key.apply(element);
            if (k < 0 || k >= keys) {
                throw new ArrayIndexOutOfBoundsException("Index " + k + " out of bounds for length " + keys);
            }
            row[k] = nonNull(operator.apply((V) row[k], value.apply(element)));
        }
        return row;
    }

    @SuppressWarnings("unchecked")
    private static <V> void combineRow(BinaryOperator<V> operator, Object[] result, Object[] row) {
        for (int k = 0; k < result.length; k++) {
            result[k] = nonNull(operator.apply((V) result[k], (V) row[k]));
        }
    }

    private static Object nonNull(Object value) {
        if (value == null) {
            throw new NullPointerException("the reduceByKey operator returned null; PArray elements cannot be null");
        }
        return value;
    }
}
