package jpai.compiler.loops;

import java.util.List;

import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.ValueNode;

/**
 * The parallel loop of an accelerated method, as {@link ParallelLoops} found and checked it.
 *
 * @param loop the loop's header
 * @param index the phi of the {@code @Parallel} variable: starts at {@code start}, counts up by one
 * @param header the loop's test {@code index < limit}, whose true successor stays in the loop
 * @param start the index's first value (computed before the loop)
 * @param first the runtime's view of {@code start}
 * @param limit the runtime's view of the limit
 * @param reduction the {@code @Reduce} variable's accumulation, or null
 * @param inner the {@code @Parallel} loops perfectly nested in this one, outermost first (at most
 *            two: with this one they make a 2-D or 3-D index space), each with no reduction and no
 *            inner loops of its own in this list
 * @param innerNotParallel why an inner {@code @Parallel} loop stays sequential inside each
 *            work-item (not perfectly nested, a bound that depends on an outer index...), or null
 */
public record ParallelLoop(LoopBeginNode loop, ValuePhiNode index, IfNode header, ValueNode start, LoopBound first, LoopBound limit, Reduction reduction, List<ParallelLoop> inner,
                String innerNotParallel) {

    public ParallelLoop {
        inner = List.copyOf(inner);
    }

    /** The loops of the index space, outermost first: this one and its inner ones. */
    public List<ParallelLoop> dimensions() {
        List<ParallelLoop> all = new java.util.ArrayList<>();
        all.add(this);
        all.addAll(inner);
        return all;
    }

    /**
     * A {@code @Reduce} variable: {@code phi} starts at {@code initial} and each iteration makes it
     * {@code operator(phi, contribution)}, where {@code contribution} does not depend on it.
     *
     * @param phi the variable's phi at the loop header
     * @param operator how it accumulates
     * @param contribution what one iteration combines into it
     * @param initial the runtime's view of its value before the loop
     */
    public record Reduction(ValuePhiNode phi, ReductionOperator operator, ValueNode contribution, LoopBound initial) {
    }
}
