package jpai.compiler.loops;

/**
 * A value the runtime computes from a call's arguments before the launch: the first index and the
 * limit of a parallel loop, or a reduction's initial value. Constants, integral parameters, array
 * parameters' lengths, and Java's integer arithmetic on them ({@link Computed}: {@code n - 1},
 * {@code a.length / 2}), so that the runtime needs no code of the method to know how many work-items
 * to launch. Every form is free of effects and reads nothing the loop writes, so its value is the
 * same at every test of the loop's condition, as Java evaluates it.
 */
public sealed interface LoopBound {

    /** The value for a call with {@code arguments} (the method's, boxed, arrays not null; see {@link ArrayLength} for indexed parameters). */
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

    /**
     * The length of array parameter {@code index}. An indexed parameter ({@link IndexedElements}, a
     * {@code PArray}) is an array in the kernel; the runtime passes it to {@link #valueFor} as a
     * {@link java.util.function.LongSupplier} of its length, since the compiler knows no API class.
     */
    record ArrayLength(int index) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            return arguments[index] instanceof java.util.function.LongSupplier length ? length.getAsLong() : java.lang.reflect.Array.getLength(arguments[index]);
        }
    }

    /**
     * The length of row {@code row} (a constant) of 2-D array parameter {@code index}:
     * {@code b[0].length}. Throws {@link ArrayIndexOutOfBoundsException} where Java would, when the
     * array has no such row (the runtime then runs the method in Java), or
     * {@link NullPointerException} for a null row.
     */
    record RowLength(int index, int row) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            return java.lang.reflect.Array.getLength(((Object[]) arguments[index])[row]);
        }
    }

    /** Java's integer operators a bound may use; {@code bits} is 32 for int, 64 for long arithmetic. */
    enum Operator {
        ADD, SUB, MUL, DIV, REM, SHL, SHR, USHR, AND, OR, XOR;

        long apply(long x, long y, int bits) {
            if (bits == 32) {
                int a = (int) x;
                int b = (int) y;
                return switch (this) {
                    case ADD -> a + b;
                    case SUB -> a - b;
                    case MUL -> a * b;
                    case DIV -> a / b; // b == 0 throws as the method would, before its loop
                    case REM -> a % b;
                    case SHL -> a << b;
                    case SHR -> a >> b;
                    case USHR -> a >>> b;
                    case AND -> a & b;
                    case OR -> a | b;
                    case XOR -> a ^ b;
                };
            }
            return switch (this) {
                case ADD -> x + y;
                case SUB -> x - y;
                case MUL -> x * y;
                case DIV -> x / y;
                case REM -> x % y;
                case SHL -> x << y;
                case SHR -> x >> y;
                case USHR -> x >>> y;
                case AND -> x & y;
                case OR -> x | y;
                case XOR -> x ^ y;
            };
        }
    }

    /**
     * {@code x operator y} in Java's {@code int} ({@code bits} 32) or {@code long} ({@code bits} 64)
     * arithmetic, wrapping as Java does. A division by zero throws {@link ArithmeticException} here,
     * where the method would throw it before its loop: the runtime then runs the method in Java.
     */
    record Computed(Operator operator, LoopBound x, LoopBound y, int bits) implements LoopBound {
        @Override
        public long valueFor(Object[] arguments) {
            return operator.apply(x.valueFor(arguments), y.valueFor(arguments), bits);
        }
    }
}
