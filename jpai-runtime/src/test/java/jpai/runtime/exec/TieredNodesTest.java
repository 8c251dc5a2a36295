package jpai.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BinaryOperator;

import org.junit.jupiter.api.Test;

import jpai.PArray;

/**
 * {@link CombiningTree#alignedNodes} and {@link JavaReduce.TieredNodes}: however a reduction's
 * elements are cut into ranges of whole leaves (Java threads' chunks, a gap, a device's groups), the
 * nodes pushed left to right give the root of the one tree. Checked with an operator that is neither
 * associative nor commutative, so that any other combining order gives another value.
 */
class TieredNodesTest {

    /** Neither associative nor commutative: a different tree gives a different value. */
    private static final BinaryOperator<Long> MIX = (a, b) -> a * 31 + b * 7 + 1;

    @SuppressWarnings("unchecked")
    private static BinaryOperator<Object> mix() {
        return (BinaryOperator<Object>) (BinaryOperator<?>) MIX;
    }

    @Test
    void anyCutIntoWholeLeavesGivesTheTreesRoot() {
        Random random = new Random(7);
        for (int n : new int[] {1, 15, 16, 17, 1000, 4096, 4097, 65_537}) {
            long[] values = random.longs(n, -1000, 1000).toArray();
            try (PArray<Long> input = PArray.of(values)) {
                Object expected = JavaReduce.sequential(MIX, 0L, input);
                for (int trial = 0; trial < 20; trial++) {
                    CombiningTree.Accumulator tree = new CombiningTree.Accumulator(mix());
                    long from = 0;
                    while (from < n) {
                        long to = Math.min(n, from + CombiningTree.LEAF * (1 + random.nextInt(trial < 10 ? 4 : 300)));
                        CombiningTree.alignedNodes(ChunkLoopCopies.of(MIX), null, mix(), 0L, ElementReader.ofLeased(input), from, to, tree::push);
                        from = to;
                    }
                    assertEquals(expected, tree.root(0L), "n = " + n + ", trial " + trial);
                }
            }
        }
    }

    @Test
    void aMapperIsFoldedAsTheMappedArrayWouldBe() {
        long[] values = new Random(3).longs(5000, -50, 50).toArray();
        long[] mapped = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            mapped[i] = values[i] * values[i] - 3;
        }
        try (PArray<Long> input = PArray.of(values); PArray<Long> mappedInput = PArray.of(mapped)) {
            CombiningTree.Accumulator tree = new CombiningTree.Accumulator(mix());
            CombiningTree.alignedNodes(ChunkLoopCopies.of(MIX), x -> (Long) x * (Long) x - 3, mix(), 0L, ElementReader.ofLeased(input), 0, values.length, tree::push);
            assertEquals(JavaReduce.sequential(MIX, 0L, mappedInput), tree.root(0L));
        }
    }

    /**
     * A takeover from a claimed chunk's end: the leaves up to its first whole group on Java threads
     * (the gap), its groups' nodes at their level, Java's chunks before; the root is the tree's.
     */
    @Test
    void javaChunksAGapAndGroupNodesGiveTheTreesRoot() {
        int n = 300_000 + 11;
        long[] values = new Random(5).longs(n, -1000, 1000).toArray();
        long groupElements = CombiningTree.LEAF * 64; // a "device" of 64 leaves per work-group
        try (PArray<Long> input = PArray.of(values)) {
            Object expected = JavaReduce.sequential(MIX, 0L, input);
            for (int afterCalls : new int[] {0, 1, 3}) {
                List<Object> groupNodes = new ArrayList<>();
                long[] deviceFrom = {-1};
                try (JavaReduce.TieredNodes nodes = JavaReduce.tieredNodes(MIX, 0L, input, null)) {
                    ClaimedChunks.Outcome outcome = nodes.runUntilTakenOver(new ClaimedChunks.Takeover() {
                        int calls;

                        @Override
                        public boolean wants(long elapsedNanos, long claimed, long length) {
                            return ++calls > afterCalls;
                        }

                        @Override
                        public long run(long first, long length) {
                            assertEquals(0, first % CombiningTree.LEAF, "a takeover starts at a whole leaf");
                            long from = (first + groupElements - 1) / groupElements * groupElements;
                            nodes.runOnThreads(first, from);
                            ElementReader reader = ElementReader.ofLeased(input);
                            for (long g = from; g < length; g += groupElements) {
                                groupNodes.add(CombiningTree.node(ChunkLoopCopies.of(MIX), mix(), 0L, reader, g, Math.min(length, g + groupElements)));
                            }
                            deviceFrom[0] = from;
                            return length;
                        }
                    });
                    assertTrue(outcome.tookOver(), "took over: " + outcome);
                    CombiningTree.Accumulator tree = new CombiningTree.Accumulator(mix());
                    nodes.pushInto(tree, deviceFrom[0]);
                    for (Object node : groupNodes) {
                        tree.push(node, Long.numberOfTrailingZeros(groupElements / CombiningTree.LEAF));
                    }
                    assertEquals(expected, tree.root(0L), "takeover after " + afterCalls + " questions, the device from " + deviceFrom[0]);
                }
            }
        }
    }
}
