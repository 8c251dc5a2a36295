package jpai.runtime.exec;

import java.util.function.BinaryOperator;

import jpai.PArray;
import jpai.runtime.memory.BufferLeases;

/**
 * Runs a reduction on the JVM in {@link CombiningTree}'s order: sequentially, or on the fork/join
 * pool with each chunk an aligned block of {@code 2^k} leaves (a node of the tree) and the chunks'
 * nodes combined in order by the same tree. So the result, bits of floats included, is the device's.
 *
 * <p>The input is read under its leases, not through an arena: a reduction's input is often an
 * intermediate closed right after it, and closing an array whose shared segment was made costs a
 * handshake with every JVM thread (170 µs per apply of a 40-element map then sum on a 64-core host).
 */
public final class JavaReduce {

    private JavaReduce() {
    }

    @SuppressWarnings("unchecked")
    public static <T> T sequential(BinaryOperator<T> operator, T identity, PArray<T> input) {
        try (BufferLeases leases = BufferLeases.of(input)) {
            return (T) CombiningTree.node(ChunkLoopCopies.of(operator), erased(operator), identity, ElementReader.ofLeased(input), 0, input.length());
        }
    }

    @SuppressWarnings("unchecked")
    public static <T> T threads(BinaryOperator<T> operator, T identity, PArray<T> input) {
        long length = input.length();
        if (length == 0) {
            return identity;
        }
        // Chunks of 2^k leaves, at least as many as Chunks would cut: each is a node of the tree.
        long wanted = Math.max(1, (Chunks.chunkSize(length) + CombiningTree.LEAF - 1) / CombiningTree.LEAF);
        int level = 63 - Long.numberOfLeadingZeros(wanted); // the largest 2^level <= wanted
        long chunk = CombiningTree.LEAF * (1L << level);
        ChunkLoops loops = ChunkLoopCopies.of(operator);
        Object[] nodes = new Object[Chunks.count(length, chunk)];
        // Taken once here, on the calling thread: the workers then only read memory, and they are done when forEach returns.
        try (BufferLeases leases = BufferLeases.of(input)) {
            ElementReader reader = ElementReader.ofLeased(input);
            Chunks.forEach(length, chunk, (from, to) -> nodes[(int) (from / chunk)] = CombiningTree.node(loops, erased(operator), identity, reader, from, to));
        }
        CombiningTree.Accumulator tree = new CombiningTree.Accumulator(erased(operator));
        for (Object node : nodes) {
            tree.push(node, level);
        }
        return (T) tree.root(identity);
    }

    /** The exception for a null result of the operator. */
    static NullPointerException nullResult() {
        return new NullPointerException("the reduce operator returned null; PArray elements cannot be null");
    }

    /** The element type is checked by the reader, not by the loop. */
    @SuppressWarnings("unchecked")
    private static BinaryOperator<Object> erased(BinaryOperator<?> operator) {
        return (BinaryOperator<Object>) operator;
    }
}
