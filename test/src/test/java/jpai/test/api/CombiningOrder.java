package jpai.test.api;

import java.util.function.BinaryOperator;

import jpai.PArray;

/** The reference for reductions in the tests: JPAI's one combining order, written out plainly. */
final class CombiningOrder {

    private CombiningOrder() {
    }

    /**
     * docs/java-semantics.md's combining order, the same on every executor: leaves of 16 elements
     * folded from the identity, then the aligned binary tree over the leaves (pairs of neighbours,
     * level by level, an unpaired last node carried up). A non-associative operator shows any other order.
     */
    static <T> T fold(BinaryOperator<T> operator, T identity, PArray<T> input) {
        long n = input.length();
        java.util.List<T> level = new java.util.ArrayList<>();
        for (long from = 0; from < n; from += 16) {
            T leaf = identity;
            for (long i = from; i < Math.min(n, from + 16); i++) {
                leaf = operator.apply(leaf, input.get(i));
            }
            level.add(leaf);
        }
        if (level.isEmpty()) {
            return identity;
        }
        while (level.size() > 1) {
            java.util.List<T> next = new java.util.ArrayList<>();
            for (int m = 0; m + 1 < level.size(); m += 2) {
                next.add(operator.apply(level.get(m), level.get(m + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }
}
