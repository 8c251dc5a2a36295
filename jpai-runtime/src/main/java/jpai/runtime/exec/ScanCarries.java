package jpai.runtime.exec;

import java.util.Arrays;
import java.util.function.BinaryOperator;

/**
 * The carries of JPAI's one scan order (docs/java-semantics.md, "Scans"): the carry into leaf
 * {@code k} is the fold, from the carry into the range, of the aligned nodes of
 * {@link CombiningTree} that cover the leaves before {@code k}, largest (leftmost) first. Nodes are
 * pushed left to right as in {@link CombiningTree.Accumulator}; next to each, the fold of the carry
 * and every node up to it, so that a carry costs one operator call per push (amortised), not one
 * per level. The device's down-sweep computes the same folds (OpenCLKernelGenerator.scan).
 */
final class ScanCarries {

    private final BinaryOperator<Object> operator;
    private final Object carryIn;
    private Object[] nodes = new Object[8];
    private Object[] folds = new Object[8];
    private int[] levels = new int[8];
    private int size;

    /** @param carryIn the carry into the range's first leaf (the identity for the first range) */
    ScanCarries(BinaryOperator<Object> operator, Object carryIn) {
        this.operator = operator;
        this.carryIn = carryIn;
    }

    /** Adds the next node at {@code level}; every node pushed before it lies to its left. */
    void push(Object node, int level) {
        Object value = node;
        int at = level;
        while (size > 0 && levels[size - 1] == at) {
            value = CombiningTree.combine(operator, nodes[size - 1], value);
            size--;
            at++;
        }
        if (size == nodes.length) {
            nodes = Arrays.copyOf(nodes, size * 2);
            folds = Arrays.copyOf(folds, size * 2);
            levels = Arrays.copyOf(levels, size * 2);
        }
        nodes[size] = value;
        levels[size] = at;
        folds[size] = CombiningTree.combine(operator, size == 0 ? carryIn : folds[size - 1], value);
        size++;
    }

    /** The carry into the next leaf: the fold from the carry into the range of every node pushed. */
    Object carry() {
        return size == 0 ? carryIn : folds[size - 1];
    }
}
