package jpai.compiler.loops;

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
 */
public record ParallelLoop(LoopBeginNode loop, ValuePhiNode index, IfNode header, ValueNode start, LoopBound first, LoopBound limit, Reduction reduction) {

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
