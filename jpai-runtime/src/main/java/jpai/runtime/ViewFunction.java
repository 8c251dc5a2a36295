package jpai.runtime;

import jpai.ArrayFunction;
import jpai.PArray;
import jpai.TupleType;

/**
 * {@code AF.identity()} and {@code AF.zipN()}: returns its input as a view (no copy; the caller's
 * close of the result releases nothing). A zip checks that the input holds tuples of its arity, so
 * a mismatch is found before any later stage runs.
 */
public final class ViewFunction<T> implements ArrayFunction<T, T> {

    private final String name;
    private final int arity;

    /** @param arity the tuple arity a zip expects, or 0 for the identity */
    public ViewFunction(String name, int arity) {
        this.name = name;
        this.arity = arity;
    }

    @Override
    public PArray<T> apply(PArray<T> input) {
        check(input);
        return input.view();
    }

    /**
     * What {@link #apply} checks of {@code input}, without making the view: a pipeline whose next
     * stage reads the input passes it on as it is ({@link Pipeline}).
     *
     * @throws IllegalArgumentException if a zip's input does not hold tuples of its arity
     */
    void check(PArray<?> input) {
        Inputs.check(input, name);
        if (arity > 0 && !(input.type() instanceof TupleType tuple && tuple.arity() == arity)) {
            throw new IllegalArgumentException(name + " expects a PArray of Tuple" + arity + " (made by PArray.zip of " + arity
                            + " arrays), not a PArray<" + input.type().javaName() + ">");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
