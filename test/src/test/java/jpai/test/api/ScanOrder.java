package jpai.test.api;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

import jpai.PArray;

/**
 * The reference for scans in the tests: JPAI's one scan order (docs/java-semantics.md, "Scans"),
 * written out plainly. Leaves of 16 elements; the carry into leaf {@code k} is the fold, from the
 * identity, of the aligned tree's nodes covering leaves {@code 0..k-1}, largest first (the binary
 * digits of {@code k}); each leaf's outputs are the left fold of its elements from its carry.
 */
final class ScanOrder {

    private ScanOrder() {
    }

    static <T> List<T> scan(BinaryOperator<T> operator, T identity, PArray<T> input, boolean exclusive) {
        long n = input.length();
        List<List<T>> levels = new ArrayList<>();
        List<T> leaves = new ArrayList<>();
        for (long from = 0; from < n; from += 16) {
            T leaf = identity;
            for (long i = from; i < Math.min(n, from + 16); i++) {
                leaf = operator.apply(leaf, input.get(i));
            }
            leaves.add(leaf);
        }
        levels.add(leaves);
        while (levels.get(levels.size() - 1).size() > 1) {
            List<T> below = levels.get(levels.size() - 1);
            List<T> above = new ArrayList<>();
            for (int m = 0; m + 1 < below.size(); m += 2) {
                above.add(operator.apply(below.get(m), below.get(m + 1)));
            }
            levels.add(above);
        }
        List<T> out = new ArrayList<>();
        for (int k = 0; k < leaves.size(); k++) {
            T carry = identity;
            int covered = 0;
            for (int level = levels.size() - 1; level >= 0; level--) {
                if ((k >> level & 1) != 0) {
                    carry = operator.apply(carry, levels.get(level).get(covered >> level));
                    covered += 1 << level;
                }
            }
            T accumulator = carry;
            for (long i = 16L * k; i < Math.min(n, 16L * k + 16); i++) {
                if (exclusive) {
                    out.add(accumulator);
                }
                accumulator = operator.apply(accumulator, input.get(i));
                if (!exclusive) {
                    out.add(accumulator);
                }
            }
        }
        return out;
    }
}
