package jpai.runtime.exec;

import java.util.function.BinaryOperator;

import jpai.PArray;

/**
 * Runs a reduction on the JVM: sequentially, or per chunk on the fork/join pool (each chunk folded
 * from the identity) with the chunks' results combined in order.
 */
public final class JavaReduce {

    private JavaReduce() {
    }

    public static <T> T sequential(BinaryOperator<T> operator, T identity, PArray<T> input) {
        return fold(operator, identity, ElementReader.of(input), 0, input.length());
    }

    public static <T> T threads(BinaryOperator<T> operator, T identity, PArray<T> input) {
        long length = input.length();
        long chunk = Chunks.chunkSize(length);
        // Taken once here, on the calling thread: the workers then only read memory.
        ElementReader reader = ElementReader.of(input);
        @SuppressWarnings("unchecked")
        T[] partials = (T[]) new Object[Chunks.count(length)];
        Chunks.forEach(length, (from, to) -> partials[(int) (from / chunk)] = fold(operator, identity, reader, from, to));
        T result = partials[0];
        for (int i = 1; i < partials.length; i++) {
            result = combine(operator, result, partials[i]);
        }
        return result;
    }

    /** Folds {@code partials} (the device's per-work-group results) in order. */
    public static <T> T combineAll(BinaryOperator<T> operator, T identity, Iterable<T> partials) {
        T result = identity;
        for (T partial : partials) {
            result = combine(operator, result, partial);
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static <T> T fold(BinaryOperator<T> operator, T identity, ElementReader input, long from, long to) {
        T result = identity;
        for (long i = from; i < to; i++) {
            result = combine(operator, result, (T) input.read(i));
        }
        return result;
    }

    private static <T> T combine(BinaryOperator<T> operator, T left, T right) {
        T result = operator.apply(left, right);
        if (result == null) {
            throw new NullPointerException("the reduce operator returned null; PArray elements cannot be null");
        }
        return result;
    }
}
