package jpai.compiler.loops;

/**
 * A value the runtime computes from a call's arguments before the launch: the first index and the
 * limit of a parallel loop, or a reduction's initial value. Only these three forms, so that the
 * runtime needs no code of the method to know how many work-items to launch.
 */
public sealed interface LoopBound {

    /** The value for a call with {@code arguments} (the method's, boxed, arrays not null). */
    long valueFor(Object[] arguments);

    /** A constant in the code. */
    record Constant(long value) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            return value;
        }
    }

    /** Parameter {@code index} of the method (0 is the first), of an integral kind. */
    record Parameter(int index) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            Object value = arguments[index];
            return value instanceof Character c ? c : ((Number) value).longValue();
        }
    }

    /** The length of array parameter {@code index}. */
    record ArrayLength(int index) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            return java.lang.reflect.Array.getLength(arguments[index]);
        }
    }
}
