package jpai;

import java.util.Objects;

/**
 * A value of 3 components, the element type of a {@code PArray} that zips 3 arrays (stored as
 * 3 arrays, one per component). Components are never null. Lambdas may take and return tuples; on
 * OpenCL a tuple is its components, with no object.
 */
public record Tuple3<A, B, C>(A _1, B _2, C _3) implements Tuple {

    public Tuple3 {
        Objects.requireNonNull(_1, "component _1 of a Tuple3 is null; tuple components are values");
        Objects.requireNonNull(_2, "component _2 of a Tuple3 is null; tuple components are values");
        Objects.requireNonNull(_3, "component _3 of a Tuple3 is null; tuple components are values");
    }

    @Override
    public int arity() {
        return 3;
    }

    @Override
    public Object get(int index) {
        return switch (index) {
            case 0 -> _1;
            case 1 -> _2;
            case 2 -> _3;
            default -> throw new IndexOutOfBoundsException("component " + index + " of a Tuple3");
        };
    }

    @Override
    public String toString() {
        return "(" + _1 + ", " + _2 + ", " + _3 + ")";
    }
}
