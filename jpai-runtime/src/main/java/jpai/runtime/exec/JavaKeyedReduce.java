package jpai.runtime.exec;

import java.util.Arrays;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.PArray;

/**
 * A keyed reduction on the JVM: the elements in order, each element's key then value computed as
 * the sequential loop computes them (so an exception, an out-of-range key included, is Java's, at
 * Java's element), combined in {@link KeyedChunks}' order (so the bits are the device's).
 */
public final class JavaKeyedReduce {

    private JavaKeyedReduce() {
    }

    /**
     * The per-key results of {@code input}: {@code result[k]} is {@code identity} combined with the
     * values of the elements whose key is {@code k}.
     *
     * @throws ArrayIndexOutOfBoundsException at the first element whose key is outside {@code 0 .. keys-1},
     *             with the message Java gives for {@code result[key]}
     */
    @SuppressWarnings("unchecked")
    public static <T, V> Object[] run(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, PArray<T> input) {
        long length = input.length();
        Object[] result = new Object[keys];
        Arrays.fill(result, identity);
        if (length == 0) {
            return result;
        }
        long chunkLength = KeyedChunks.chunkLength(length, keys);
        Object[] row = new Object[keys];
        for (long start = 0; start < length; start += chunkLength) {
            Arrays.fill(row, identity);
            long end = Math.min(length, start + chunkLength);
            for (long i = start; i < end; i++) {
                T element = input.get(i);
                Integer k = key.apply(element);
                if (k < 0 || k >= keys) {
                    throw new ArrayIndexOutOfBoundsException("Index " + k + " out of bounds for length " + keys);
                }
                row[k] = nonNull(operator.apply((V) row[k], value.apply(element)));
            }
            for (int k = 0; k < keys; k++) {
                result[k] = nonNull(operator.apply((V) result[k], (V) row[k]));
            }
        }
        return result;
    }

    private static Object nonNull(Object value) {
        if (value == null) {
            throw new NullPointerException("the reduceByKey operator returned null; PArray elements cannot be null");
        }
        return value;
    }
}
