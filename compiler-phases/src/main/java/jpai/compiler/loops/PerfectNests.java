package jpai.compiler.loops;

import java.util.ArrayList;
import java.util.List;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.EndNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.memory.MemoryKill;
import jpai.compiler.KernelBailoutException;

/**
 * Finds the {@code @Parallel} loops perfectly nested in an accelerated method's parallel loop, which
 * with it become a 2-D or 3-D index space: the outer loop's body, from its test to its one back
 * edge, is straight code without effects (loads, arithmetic, Java's exception checks), then the
 * inner loop, then nothing with an effect; the inner loop counts a {@code @Parallel} variable up by
 * one from a first value to a limit that the runtime computes from the arguments ({@link LoopBound}:
 * so they do not depend on an outer index) and carries nothing else from one iteration to the next.
 * Such a nest runs each (outer, inner) pair exactly once whatever the order, as Java's loops do.
 *
 * Every array element the nest writes has an index that depends on the inner loop's variable, so that
 * the inner iterations, now concurrent, do not write one element (which they did in order as a
 * sequential loop of one work-item).
 *
 * <p>A nest that is not perfect is not refused: its inner loops run sequentially inside each
 * work-item, and the reason is kept ({@link ParallelLoop#innerNotParallel()}) for
 * {@code -Djpai.explain=true}. This includes a triangular nest ({@code j < i}): its inner bound
 * depends on the outer index, so the index space would not be a box; the outer loop alone is the
 * kernel, which gives Java's result with uneven work per work-item.
 *
 * <p>Expects the graph {@link ParallelLoops#find} checked the outer loop of.
 */
final class PerfectNests {

    private PerfectNests() {
    }

    /** {@code outer} with the {@code @Parallel} loops perfectly nested in it, at most two. */
    static ParallelLoop withInnerLoops(ParallelLoop outer, List<MarkedVariable> parallel) {
        StructuredGraph graph = outer.loop().graph();
        int marked = 0;
        for (LoopBeginNode candidate : graph.getNodes(LoopBeginNode.TYPE)) {
            if (ParallelLoops.parallelIndex(candidate, parallel) != null) {
                marked++;
            }
        }
        List<ParallelLoop> inner = new ArrayList<>();
        String why = null;
        ParallelLoop enclosing = outer;
        while (marked > 1 + inner.size() && inner.size() < 2) {
            try {
                enclosing = innerOf(enclosing, parallel);
                inner.add(enclosing);
            } catch (KernelBailoutException e) {
                why = e.getMessage();
                break;
            }
        }
        if (why == null && marked > 1 + inner.size()) {
            why = "an index space has at most 3 dimensions, so the @Parallel loops inside the third run sequentially in each work-item";
        }
        return new ParallelLoop(outer.loop(), outer.index(), outer.header(), outer.start(), outer.first(), outer.limit(), outer.reduction(), inner, why);
    }

    /** The {@code @Parallel} loop perfectly nested in {@code outer}; throws, saying why, when there is none. */
    private static ParallelLoop innerOf(ParallelLoop outer, List<MarkedVariable> parallel) {
        LoopBeginNode loop = outer.loop();
        if (loop.getLoopEndCount() != 1) {
            throw KernelBailoutException.at(loop, "the inner @Parallel loop stays sequential in each work-item: the outer loop has a continue, so the nest is not perfect");
        }
        LoopBeginNode innerLoop = loopEntered(outer.header().trueSuccessor());
        ValuePhiNode index = innerLoop == null ? null : ParallelLoops.parallelIndex(innerLoop, parallel);
        if (index == null) {
            throw KernelBailoutException.at(loop, "the inner @Parallel loop stays sequential in each work-item: the outer loop's body is not that loop alone (code with effects, a branch, or another loop precedes it)");
        }
        if (index.getStackKind() != jdk.vm.ci.meta.JavaKind.Int) {
            throw KernelBailoutException.at(innerLoop, "the inner @Parallel variable is not an int, so it stays sequential in each work-item");
        }
        for (LoopEndNode end : innerLoop.loopEnds()) {
            ValueNode next = index.valueAt(end);
            if (!(next instanceof AddNode add && add.getX() == index && add.getY() instanceof ConstantNode step && step.asJavaConstant().asLong() == 1)) {
                throw KernelBailoutException.at(end, "the inner @Parallel loop does not count up by one (j++) on every path, so it stays sequential in each work-item");
            }
        }
        for (PhiNode phi : innerLoop.phis()) {
            if (phi != index) {
                throw KernelBailoutException.at(innerLoop, "the inner @Parallel loop carries a value from one iteration to the next, so it stays sequential in each work-item");
            }
        }
        IfNode header = ParallelLoops.header(innerLoop);
        IntegerLessThanNode test = (IntegerLessThanNode) header.condition();
        ValueNode start = index.valueAt(innerLoop.forwardEnd());
        LoopBound first;
        LoopBound limit;
        try {
            first = ParallelLoops.bound(start, "first value", header);
            limit = ParallelLoops.bound(test.getY(), "limit", header);
        } catch (KernelBailoutException e) {
            throw KernelBailoutException.at(header, "the inner @Parallel loop's bounds are not computed from the arguments alone (in a triangular nest, j < i, they depend on the outer index),"
                            + " so the outer loop is the kernel and the inner one runs sequentially in each work-item");
        }
        for (LoopExitNode exit : innerLoop.loopExits()) {
            if (ParallelLoops.endsInException(exit)) {
                continue;
            }
            if (exit != header.falseSuccessor() || !reachesWithoutEffect(exit, loop.getSingleLoopEnd())) {
                throw KernelBailoutException.at(exit, "code with an effect follows the inner @Parallel loop in the outer one (or a break leaves it), so the nest is not perfect and the inner loop stays sequential");
            }
        }
        for (jdk.graal.compiler.nodes.java.StoreIndexedNode store : innerLoop.graph().getNodes().filter(jdk.graal.compiler.nodes.java.StoreIndexedNode.class)) {
            if (!ParallelLoops.dependsOn(store.index(), index)) {
                // as one kernel loop it ran in order in each work-item; as a dimension its iterations would race
                throw KernelBailoutException.at(store, "the inner @Parallel loop writes an array element whose index does not depend on its variable (an accumulation such as c[i] += ...),"
                                + " so its iterations would write one element at once; it runs sequentially in each work-item");
            }
        }
        return new ParallelLoop(innerLoop, index, header, start, first, limit, null, List.of(), null);
    }

    /**
     * The loop that straight code from {@code begin} enters: past nodes without effects and Java's
     * exception checks (a branch whose other side ends in an exception), or null.
     */
    private static LoopBeginNode loopEntered(FixedNode begin) {
        FixedNode node = begin;
        for (int steps = 0; steps < 10000; steps++) {
            if (node instanceof EndNode end) {
                return end.merge() instanceof LoopBeginNode inner ? inner : null;
            }
            if (node instanceof IfNode check) {
                if (ParallelLoops.endsInException(check.trueSuccessor())) {
                    node = check.falseSuccessor();
                } else if (ParallelLoops.endsInException(check.falseSuccessor())) {
                    node = check.trueSuccessor();
                } else {
                    return null;
                }
            } else if (node instanceof FixedWithNextNode with && (node instanceof AbstractBeginNode || !MemoryKill.isMemoryKill(node))) {
                node = with.next();
            } else {
                return null;
            }
        }
        return null;
    }

    /** Whether straight code from {@code exit} reaches {@code target} past begins and nodes without effects only. */
    private static boolean reachesWithoutEffect(FixedNode exit, Node target) {
        FixedNode node = exit;
        for (int steps = 0; steps < 10000; steps++) {
            if (node == target) {
                return true;
            }
            if (node instanceof FixedWithNextNode with && (node instanceof AbstractBeginNode || !MemoryKill.isMemoryKill(node))) {
                node = with.next();
            } else {
                return false;
            }
        }
        return false;
    }
}
