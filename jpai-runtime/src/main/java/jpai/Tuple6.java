package jpai;

import java.util.Objects;

/**
 * A value of 6 components, the element type of a {@code PArray} that zips 6 arrays (stored as
 * 6 arrays, one per component). Components are never null. Lambdas may take and return tuples; on
 * OpenCL a tuple is its components, with no object.
 */
public record Tuple6<A, B, C, D, E, F>(A _1, B _2, C _3, D _4, E _5, F _6) implements Tuple {

    public Tuple6 {
        Objects.requireNonNull(_1, "component _1 of a Tuple6 is null; tuple components are values");
        Objects.requireNonNull(_2, "component _2 of a Tuple6 is null; tuple components are values");
        Objects.requireNonNull(_3, "component _3 of a Tuple6 is null; tuple components are values");
        Objects.requireNonNull(_4, "component _4 of a Tuple6 is null; tuple components are values");
        Objects.requireNonNull(_5, "component _5 of a Tuple6 is null; tuple components are values");
        Objects.requireNonNull(_6, "component _6 of a Tuple6 is null; tuple components are values");
    }

    @Override
    public int arity() {
        return 6;
    }

    @Override
    public Object get(int index) {
        return switch (index) {
            case 0 -> _1;
            case 1 -> _2;
            case 2 -> _3;
            case 3 -> _4;
            case 4 -> _5;
            case 5 -> _6;
            default -> throw new IndexOutOfBoundsException("component " + index + " of a Tuple6");
        };
    }

    @Override
    public String toString() {
        return "(" + _1 + ", " + _2 + ", " + _3 + ", " + _4 + ", " + _5 + ", " + _6 + ")";
    }
}
