package jpai.test.fuzz;

import java.util.List;

/**
 * The reduce of a {@link Feature#REDUCTIONS} program: {@code AF.map(make(), type).reduce(combiner(),
 * identity())}. Every family is associative with a two-sided identity (so any order-preserving
 * combining tree must give the sequential fold's result, bit for bit); most are not commutative.
 *
 * @param family which operator
 * @param elements the element's components (the map's result type)
 * @param combiner the Java source of the combiner lambda, {@code (a, b) -> ...}
 * @param identity the Java source of the identity
 * @param wrapper the static helper the map's results go through (it makes results that the
 *        operator treats alike equal, so the identity is neutral), with its source; null when none
 */
record Reduction(Family family, List<Prim> elements, String combiner, String identity, String wrapper, String wrapperSource) {

    enum Family {
        /** (found, value): the first element whose flag is set; values of unset elements are zero. Not commutative. */
        FIRST_MATCH(false),
        /** 2x2 integer matrices (row-major), multiplied with Java's wrapping arithmetic. Not commutative. */
        MATRIX_PRODUCT(false),
        /** (a, b) as x -> a*x + b, composed left then right. Not commutative. */
        AFFINE_COMPOSITION(false),
        /** (hash, power): the polynomial hash of a concatenation. Not commutative. */
        POLYNOMIAL_HASH(false),
        /** (value, payload): the first element of largest value (ties keep the left one). Not commutative. */
        ARG_MAX(false),
        /** +, *, ^, &, |, min, max on int or long; Math.min/max on float or double. */
        COMMUTATIVE(true);

        final boolean commutative;

        Family(boolean commutative) {
            this.commutative = commutative;
        }
    }

    boolean tuple() {
        return elements.size() > 1;
    }
}
