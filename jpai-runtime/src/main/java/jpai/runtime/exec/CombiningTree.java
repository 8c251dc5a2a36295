package jpai.runtime.exec;

import java.util.function.BinaryOperator;

/**
 * The one order in which every JPAI reduction combines its elements, on every executor and device
 * (docs/java-semantics.md, "Reductions"). The elements are cut into <em>leaves</em> of
 * {@link #LEAF} consecutive elements (the last may be shorter), each folded left to right from the
 * identity; the leaves' values are then combined by the aligned binary tree over them: the node at
 * level {@code l} and index {@code m} covers leaves {@code [m 2^l, (m + 1) 2^l)} and is
 * {@code operator(left half, right half)}, or its left half alone where the right half lies past the
 * last leaf. The tree depends on the length only. So a float reduction has the same bits on the JVM
 * and on any device, whatever the work-group size or the number of Java threads; and since operands
 * are never reordered, any associative operator with a neutral identity gives exactly the result of
 * the sequential fold.
 *
 * <p>An aligned block of {@code 2^k} leaves is a node of the tree: a Java thread or an OpenCL
 * work-group computes one, and the nodes of consecutive blocks are combined by the same tree, a level
 * higher. {@link Accumulator} builds the tree from nodes pushed left to right, with memory for one
 * node per level.
 */
public final class CombiningTree {

    /** Elements per leaf. Part of the definition of every reduction's result: never depends on the device. */
    public static final int LEAF = 16;

    private CombiningTree() {
    }

    /**
     * Builds the tree from its nodes, pushed left to right: equal-level neighbours combine at once,
     * and {@link #root} combines what is left from the right.
     */
    public static final class Accumulator {
        private final BinaryOperator<Object> operator;
        private Object[] values = new Object[8];
        private int[] levels = new int[8];
        private int size;

        public Accumulator(BinaryOperator<Object> operator) {
            this.operator = operator;
        }

        /** Adds the next node, at {@code level} (leaves are level 0); every node pushed before it lies to its left. */
        public void push(Object node, int level) {
            Object value = node;
            int at = level;
            while (size > 0 && levels[size - 1] == at) {
                value = combine(operator, values[size - 1], value);
                size--;
                at++;
            }
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
                levels = java.util.Arrays.copyOf(levels, size * 2);
            }
            values[size] = value;
            levels[size] = at;
            size++;
        }

        /** The node covering everything pushed: the root when all leaves were pushed; {@code identity} when none. */
        public Object root(Object identity) {
            if (size == 0) {
                return identity;
            }
            Object value = values[--size];
            while (size > 0) {
                value = combine(operator, values[--size], value);
            }
            return value;
        }
    }

    /**
     * The node over elements {@code [from, to)} of {@code input}: {@code from} is a multiple of
     * {@link #LEAF}, and for a complete node {@code to - from} is {@code LEAF * 2^k}, or {@code to} is
     * the end of the input.
     */
    public static Object node(ChunkLoops loops, BinaryOperator<Object> operator, Object identity, ElementReader input, long from, long to) {
        return node(loops, null, operator, identity, input, from, to);
    }

    /** {@link #node} of {@code mapper}'s results (a fused map then reduce), or of the elements themselves with {@code mapper} null. */
    static Object node(ChunkLoops loops, java.util.function.Function<Object, Object> mapper, BinaryOperator<Object> operator, Object identity, ElementReader input, long from,
                    long to) {
        Accumulator tree = new Accumulator(operator);
        for (long leaf = from; leaf < to; leaf += LEAF) {
            long end = Math.min(to, leaf + LEAF);
            tree.push(mapper == null ? loops.fold(operator, identity, input, leaf, end) : loops.mapFold(mapper, operator, identity, input, leaf, end), 0);
        }
        return tree.root(identity);
    }

    /** Receives the nodes of {@link #alignedNodes}, left to right. */
    public interface NodeSink {
        void node(Object value, int level);
    }

    /**
     * The aligned nodes that cover {@code [from, to)}, left to right, each the largest node of the
     * tree that starts where the one before ends and ends by {@code to}: {@code from} is a multiple
     * of {@link #LEAF}, {@code to} one too or the end of the input. Pushed into an
     * {@link Accumulator} after the nodes of everything before {@code from}, they build the tree; so
     * any cut of the input into ranges of whole leaves (a tiered reduction's chunks, whose sizes
     * follow Java threads' pace) gives the tree's root.
     *
     * @param mapper applied to each element before it is folded (a fused map then reduce), or null
     */
    public static void alignedNodes(ChunkLoops loops, java.util.function.Function<Object, Object> mapper, BinaryOperator<Object> operator, Object identity,
                    ElementReader input, long from, long to, NodeSink sink) {
        if (from % LEAF != 0) {
            throw new IllegalArgumentException("aligned nodes start at a whole leaf, not at element " + from);
        }
        long leaf = from / LEAF;
        long endLeaf = (to + LEAF - 1) / LEAF;
        while (leaf < endLeaf) {
            int level = Math.min(leaf == 0 ? 62 : Long.numberOfTrailingZeros(leaf), 63 - Long.numberOfLeadingZeros(endLeaf - leaf));
            long next = leaf + (1L << level);
            sink.node(node(loops, mapper, operator, identity, input, leaf * LEAF, Math.min(to, next * LEAF)), level);
            leaf = next;
        }
    }

    /** {@code operator(left, right)}, which a PArray element may never be null. */
    static Object combine(BinaryOperator<Object> operator, Object left, Object right) {
        Object result = operator.apply(left, right);
        if (result == null) {
            throw JavaReduce.nullResult();
        }
        return result;
    }
}
