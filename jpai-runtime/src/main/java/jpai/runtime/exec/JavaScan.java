package jpai.runtime.exec;

import java.util.function.BinaryOperator;

import jpai.PArray;
import jpai.runtime.memory.BufferLeases;

/**
 * Runs a scan on the JVM in JPAI's one scan order (docs/java-semantics.md, "Scans"), so that every
 * executor, the device included, gives the same bits. Leaves of {@link CombiningTree#LEAF} elements;
 * the carry into a leaf comes from {@link ScanCarries}; each leaf's outputs are the left fold of its
 * elements from its carry (inclusive: after each element; exclusive: before it). Sequentially one
 * range from the identity; on threads, chunks of {@code LEAF * 2^k} elements (nodes of the tree):
 * their totals first, in parallel, then the chunks' carries in order, then each chunk's outputs in
 * parallel from its carry.
 */
public final class JavaScan {

    private JavaScan() {
    }

    /** On the calling thread. */
    public static <T> void sequential(BinaryOperator<T> operator, T identity, PArray<T> input, PArray<T> output, boolean exclusive) {
        try (BufferLeases leases = BufferLeases.of(input, output)) {
            scanRange(erased(operator), identity, identity, ElementReader.ofLeased(input), ElementWriter.ofLeased(output), 0, input.length(), exclusive);
        }
    }

    /** On the fork/join pool. */
    public static <T> void threads(BinaryOperator<T> operator, T identity, PArray<T> input, PArray<T> output, boolean exclusive) {
        long length = input.length();
        if (length == 0) {
            return;
        }
        BinaryOperator<Object> op = erased(operator);
        long wanted = Math.max(1, (Chunks.chunkSize(length) + CombiningTree.LEAF - 1) / CombiningTree.LEAF);
        int level = 63 - Long.numberOfLeadingZeros(wanted); // the largest 2^level <= wanted
        long chunk = CombiningTree.LEAF * (1L << level);
        int chunks = Chunks.count(length, chunk);
        try (BufferLeases leases = BufferLeases.of(input, output)) {
            ElementReader reader = ElementReader.ofLeased(input);
            ElementWriter writer = ElementWriter.ofLeased(output);
            ChunkLoops loops = ChunkLoopCopies.of(operator);
            // the last chunk's total is nobody's carry
            Object[] totals = new Object[chunks - 1];
            if (totals.length > 0) {
                Chunks.forEach((long) totals.length * chunk, chunk,
                                (from, to) -> totals[(int) (from / chunk)] = CombiningTree.node(loops, op, identity, reader, from, to));
            }
            Object[] carries = new Object[chunks];
            ScanCarries before = new ScanCarries(op, identity);
            for (int c = 0; c < chunks; c++) {
                carries[c] = before.carry();
                if (c < totals.length) {
                    before.push(totals[c], level);
                }
            }
            Chunks.forEach(length, chunk, (from, to) -> scanRange(op, identity, carries[(int) (from / chunk)], reader, writer, from, to, exclusive));
        }
    }

    /**
     * The outputs of elements {@code [from, to)}, {@code from} a multiple of {@link CombiningTree#LEAF}
     * and the start of an aligned node of the tree, {@code carryIn} the carry into it.
     */
    private static void scanRange(BinaryOperator<Object> operator, Object identity, Object carryIn, ElementReader input, ElementWriter output, long from, long to,
                    boolean exclusive) {
        ScanCarries carries = new ScanCarries(operator, carryIn);
        for (long leaf = from; leaf < to; leaf += CombiningTree.LEAF) {
            long end = Math.min(to, leaf + CombiningTree.LEAF);
            Object accumulator = carries.carry();
            for (long i = leaf; i < end; i++) {
                Object element = input.read(i);
                if (exclusive) {
                    output.write(i, accumulator);
                }
                accumulator = CombiningTree.combine(operator, accumulator, element);
                if (!exclusive) {
                    output.write(i, accumulator);
                }
            }
            if (end < to) {
                // the leaf's own value, folded from the identity, is a node of the tree: the next leaves' carries need it
                Object total = identity;
                for (long i = leaf; i < end; i++) {
                    total = CombiningTree.combine(operator, total, input.read(i));
                }
                carries.push(total, 0);
            }
        }
    }

    /**
     * The operator, its element type checked by the reader and writer, and a null result refused
     * with a scan's message (before {@link CombiningTree}'s own check, which names a reduction).
     */
    @SuppressWarnings("unchecked")
    private static BinaryOperator<Object> erased(BinaryOperator<?> operator) {
        BinaryOperator<Object> plain = (BinaryOperator<Object>) operator;
        return (left, right) -> {
            Object result = plain.apply(left, right);
            if (result == null) {
                throw new NullPointerException("the scan operator returned null; PArray elements cannot be null");
            }
            return result;
        };
    }
}
