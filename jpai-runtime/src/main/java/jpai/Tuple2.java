package jpai;

import java.util.Objects;

/**
 * A value of 2 components, the element type of a {@code PArray} that zips 2 arrays (stored as
 * 2 arrays, one per component). Components are never null. Lambdas may take and return tuples; on
 * OpenCL a tuple is its components, with no object.
 */
public record Tuple2<A, B>(A _1, B _2) implements Tuple {

    public Tuple2 {
        Objects.requireNonNull(_1, "component _1 of a Tuple2 is null; tuple components are values");
        Objects.requireNonNull(_2, "component _2 of a Tuple2 is null; tuple components are values");
    }

    @Override
    public int arity() {
        return 2;
    }

    @Override
    public Object get(int index) {
        return switch (index) {
            case 0 -> _1;
            case 1 -> _2;
            default -> throw new IndexOutOfBoundsException("component " + index + " of a Tuple2");
        };
    }

    @Override
    public String toString() {
        return "(" + _1 + ", " + _2 + ")";
    }
}
