package jpai;

import java.util.Objects;

/**
 * A value of 7 components, the element type of a {@code PArray} that zips 7 arrays (stored as
 * 7 arrays, one per component). Components are never null. Lambdas may take and return tuples; on
 * OpenCL a tuple is its components, with no object.
 */
public record Tuple7<A, B, C, D, E, F, G>(A _1, B _2, C _3, D _4, E _5, F _6, G _7) implements Tuple {

    public Tuple7 {
        Objects.requireNonNull(_1, "component _1 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_2, "component _2 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_3, "component _3 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_4, "component _4 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_5, "component _5 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_6, "component _6 of a Tuple7 is null; tuple components are values");
        Objects.requireNonNull(_7, "component _7 of a Tuple7 is null; tuple components are values");
    }

    @Override
    public int arity() {
        return 7;
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
            case 6 -> _7;
            default -> throw new IndexOutOfBoundsException("component " + index + " of a Tuple7");
        };
    }

    @Override
    public String toString() {
        return "(" + _1 + ", " + _2 + ", " + _3 + ", " + _4 + ", " + _5 + ", " + _6 + ", " + _7 + ")";
    }
}
