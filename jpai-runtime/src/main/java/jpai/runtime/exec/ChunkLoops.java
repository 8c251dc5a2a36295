package jpai.runtime.exec;

import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The per-element loops of the Java executors, over one chunk {@code [from, to)}. Every function
 * runs them in its own copy ({@link ChunkLoopCopies}), so that the JIT compiles each loop for one
 * function and one element type.
 */
interface ChunkLoops {

    /**
     * {@code output[i] = function(input[i])} for {@code i} in {@code [from, to)}, in order; stops at
     * the first element that throws or whose result the output cannot hold (null included).
     */
    void map(Function<Object, Object> function, ElementReader input, ElementWriter output, long from, long to);

    /** {@code accumulator = operator(accumulator, input[i])} for {@code i} in {@code [from, to)}, in order, from {@code identity}. */
    Object fold(BinaryOperator<Object> operator, Object identity, ElementReader input, long from, long to);

    /** {@link #fold} of {@code mapper(input[i])}: a fused map then reduce on Java threads. */
    Object mapFold(Function<Object, Object> mapper, BinaryOperator<Object> operator, Object identity, ElementReader input, long from, long to);
}
