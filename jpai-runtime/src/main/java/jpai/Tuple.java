package jpai;

/**
 * The tuples {@link Tuple2} to {@link Tuple8}: immutable values with components {@code _1()},
 * {@code _2()}, ... of the {@link ElementType}s a {@link PArray} stores.
 */
public sealed interface Tuple extends java.io.Serializable permits Tuple2, Tuple3, Tuple4, Tuple5, Tuple6, Tuple7, Tuple8 {

    /** The number of components. */
    int arity();

    /** Component {@code index}, counted from 0 ({@code get(0)} is {@code _1()}). */
    Object get(int index);

    /** The tuple class of {@code arity} components. */
    static Class<? extends Tuple> classOf(int arity) {
        return switch (arity) {
            case 2 -> Tuple2.class;
            case 3 -> Tuple3.class;
            case 4 -> Tuple4.class;
            case 5 -> Tuple5.class;
            case 6 -> Tuple6.class;
            case 7 -> Tuple7.class;
            case 8 -> Tuple8.class;
            default -> throw new IllegalArgumentException("tuples have 2 to 8 components, not " + arity);
        };
    }

    /** A tuple of the given components (2 to 8, none null). */
    static Tuple of(Object... components) {
        return switch (components.length) {
            case 2 -> new Tuple2<>(components[0], components[1]);
            case 3 -> new Tuple3<>(components[0], components[1], components[2]);
            case 4 -> new Tuple4<>(components[0], components[1], components[2], components[3]);
            case 5 -> new Tuple5<>(components[0], components[1], components[2], components[3], components[4]);
            case 6 -> new Tuple6<>(components[0], components[1], components[2], components[3], components[4], components[5]);
            case 7 -> new Tuple7<>(components[0], components[1], components[2], components[3], components[4], components[5], components[6]);
            case 8 -> new Tuple8<>(components[0], components[1], components[2], components[3], components[4], components[5], components[6], components[7]);
            default -> throw new IllegalArgumentException("tuples have 2 to 8 components, not " + components.length);
        };
    }
}
