package jpai;

/**
 * A function of three arguments: what {@link AF#map3D} maps over the index triples of
 * {@code PArray.range(d0, d1, d2)}, as {@code (i, j, k) -> ...}.
 *
 * @param <A> the first argument's type
 * @param <B> the second argument's type
 * @param <C> the third argument's type
 * @param <R> the result's type
 */
@FunctionalInterface
public interface TriFunction<A, B, C, R> {

    R apply(A a, B b, C c);
}
