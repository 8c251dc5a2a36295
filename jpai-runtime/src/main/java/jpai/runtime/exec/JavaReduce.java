package jpai.runtime.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BinaryOperator;
import java.util.function.Function;

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

    /**
     * Tiering's first apply of a reduction ({@code mapper} null) or of a fused map then reduce:
     * the tree's nodes computed on Java threads over chunks of whole leaves (aligned nodes, as
     * {@link CombiningTree#alignedNodes} cuts them), until something else (the device) takes the
     * rest. Reads {@code input} under its leases until closed.
     */
    public static TieredNodes tieredNodes(BinaryOperator<?> operator, Object identity, PArray<?> input, Function<Object, Object> mapper) {
        return new TieredNodes(erased(operator), identity, input, mapper);
    }

    /**
     * The nodes a tiered reduction computed in Java, by the first element of the chunk that computed
     * them; a range the takeover ran has none. Thread-safe: chunks add theirs from the workers.
     */
    public static final class TieredNodes implements AutoCloseable {
        private final ChunkLoops loops;
        private final BinaryOperator<Object> operator;
        private final Object identity;
        private final Function<Object, Object> mapper;
        private final long length;
        private final BufferLeases leases;
        private final ElementReader reader;
        /** Each chunk's nodes, left to right: value, level, value, level, ... */
        private final ConcurrentSkipListMap<Long, Object[]> byChunk = new ConcurrentSkipListMap<>();

        private TieredNodes(BinaryOperator<Object> operator, Object identity, PArray<?> input, Function<Object, Object> mapper) {
            this.loops = ChunkLoopCopies.of(operator);
            this.operator = operator;
            this.identity = identity;
            this.mapper = mapper;
            this.length = input.length();
            // taken once here, on the calling thread: the workers then only read memory
            this.leases = BufferLeases.of(input);
            this.reader = ElementReader.ofLeased(input);
        }

        /**
         * Computes the nodes of every element on Java threads ({@link ClaimedChunks}, chunks of whole
         * leaves), offering the leaves not claimed yet to {@code takeover}; what it leaves (from the
         * element its run returns) runs on Java threads after it. Throws the first failing chunk's
         * exception.
         */
        public ClaimedChunks.Outcome runUntilTakenOver(ClaimedChunks.Takeover takeover) {
            return ClaimedChunks.forEach(length, CombiningTree.LEAF, this::computeChunk, takeover);
        }

        /** Computes the nodes of {@code [from, to)} ({@code from} a whole leaf) on Java threads: the part before a takeover's first whole work-group. */
        public void runOnThreads(long from, long to) {
            ClaimedChunks.forEach(to - from, CombiningTree.LEAF, (a, b) -> computeChunk(from + a, from + b), ClaimedChunks.Takeover.NONE);
        }

        private void computeChunk(long from, long to) {
            List<Object> nodes = new ArrayList<>(8);
            CombiningTree.alignedNodes(loops, mapper, operator, identity, reader, from, to, (value, level) -> {
                nodes.add(value);
                nodes.add(level);
            });
            byChunk.put(from, nodes.toArray());
        }

        /** Forgets the nodes of chunks from {@code from} on: Java runs them again. */
        public void discardFrom(long from) {
            byChunk.tailMap(from, true).clear();
        }

        /** Pushes the nodes of the chunks that start before {@code end} into {@code tree}, left to right. */
        public void pushInto(CombiningTree.Accumulator tree, long end) {
            for (Object[] nodes : byChunk.headMap(end, false).values()) {
                for (int i = 0; i < nodes.length; i += 2) {
                    tree.push(nodes[i], (Integer) nodes[i + 1]);
                }
            }
        }

        /** The input's length. */
        public long length() {
            return length;
        }

        @Override
        public void close() {
            leases.close();
        }
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
