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

    @SuppressWarnings("unchecked")
    public static <T> T sequential(BinaryOperator<T> operator, T identity, PArray<T> input) {
        return (T) ChunkLoopCopies.of(operator).fold(erased(operator), identity, ElementReader.of(input), 0, input.length());
    }

    @SuppressWarnings("unchecked")
    public static <T> T threads(BinaryOperator<T> operator, T identity, PArray<T> input) {
        long length = input.length();
        long chunk = Chunks.chunkSize(length);
        ChunkLoops loops = ChunkLoopCopies.of(operator);
        // Taken once here, on the calling thread: the workers then only read memory.
        ElementReader reader = ElementReader.of(input);
        @SuppressWarnings("unchecked")
        T[] partials = (T[]) new Object[Chunks.count(length)];
        Chunks.forEach(length, (from, to) -> partials[(int) (from / chunk)] = (T) loops.fold(erased(operator), identity, reader, from, to));
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

    private static <T> T combine(BinaryOperator<T> operator, T left, T right) {
        T result = operator.apply(left, right);
        if (result == null) {
            throw nullResult();
        }
        return result;
    }

    /** The exception for a null result of the operator. */
    static NullPointerException nullResult() {
        return new NullPointerException("the reduce operator returned null; PArray elements cannot be null");
    }

    /** The element type is checked by the reader, not by the loop. */
    @SuppressWarnings("unchecked")
    private static BinaryOperator<Object> erased(BinaryOperator<?> operator) {
        return (BinaryOperator<Object>) operator;
    }
}
