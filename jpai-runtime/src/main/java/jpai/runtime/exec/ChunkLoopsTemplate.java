package jpai.runtime.exec;

import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The code of {@link ChunkLoops}, which {@link ChunkLoopCopies} copies once per function class.
 * Keep it free of lambdas and nested classes: the copies are made from this class file alone.
 */
final class ChunkLoopsTemplate implements ChunkLoops {

    ChunkLoopsTemplate() {
    }

    @Override
    public void map(Function<Object, Object> function, ElementReader input, ElementWriter output, long from, long to) {
        for (long i = from; i < to; i++) {
            Object value = function.apply(input.read(i));
            if (value == null) {
                throw JavaMap.nullResult(i);
            }
            output.write(i, value);
        }
    }

    @Override
    public Object fold(BinaryOperator<Object> operator, Object identity, ElementReader input, long from, long to) {
        Object result = identity;
        for (long i = from; i < to; i++) {
            result = operator.apply(result, input.read(i));
            if (result == null) {
                throw JavaReduce.nullResult();
            }
        }
        return result;
    }

    @Override
    public Object mapFold(Function<Object, Object> mapper, BinaryOperator<Object> operator, Object identity, ElementReader input, long from, long to) {
        Object result = identity;
        for (long i = from; i < to; i++) {
            result = operator.apply(result, mapper.apply(input.read(i)));
            if (result == null) {
                throw JavaReduce.nullResult();
            }
        }
        return result;
    }
}
