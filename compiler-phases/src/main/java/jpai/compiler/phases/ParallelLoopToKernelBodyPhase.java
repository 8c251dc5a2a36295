package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.StampPair;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jpai.compiler.KernelInputs;
import jpai.compiler.loops.ParallelLoop;

/**
 * Turns an accelerated method's parallel loop, or its perfect nest of 2 or 3 parallel loops, into
 * the body of one work-item: iteration {@code start + k} for the kernel's element {@code k}, and for
 * a nest iteration {@code (start0 + k0, start1 + k1, ...)} for the element {@code (k0, k1, ...)} of
 * the index space (argument {@code d} of the kernel function is index {@code d}, the outermost
 * first).
 *
 * <p>Expects: the {@link ParallelLoop} that {@code ParallelLoops.find} returned for this graph (so
 * the checks hold: a counted loop, nothing with an effect before it, only a return after it, no
 * value carried between iterations but the {@code @Reduce} variable's accumulation). Does: a new
 * {@code int} parameter, the kernel's element index (argument component 0 in {@link KernelInputs}),
 * replaces the loop variable by {@code start + index}; every back edge becomes a return (of the
 * iteration's contribution, for a reduction, else of nothing); the header's test is taken as true
 * (the runtime launches exactly the iterations {@code start..limit-1}), so the loop's exit and what
 * follows it disappear; the loop header becomes a plain block. Then the same for each inner loop of
 * {@link ParallelLoop#inner()}: its back edges become returns of nothing, and its exit, which led to
 * the outer loop's back edge, disappears with its header's test. Other inner loops are left as they
 * are (they run sequentially in each work-item).
 */
public final class ParallelLoopToKernelBodyPhase extends BasePhase<CoreProviders> {

    private final ParallelLoop parallelLoop;
    private final KernelInputs inputs;
    private final CanonicalizerPhase canonicalizer;

    public ParallelLoopToKernelBodyPhase(ParallelLoop parallelLoop, KernelInputs inputs, CanonicalizerPhase canonicalizer) {
        this.parallelLoop = parallelLoop;
        this.inputs = inputs;
        this.canonicalizer = canonicalizer;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ParallelLoop.Reduction reduction = parallelLoop.reduction();
        int dimension = 0;
        for (ParallelLoop loop : parallelLoop.dimensions()) {
            ValueNode result = dimension == 0 && reduction != null ? reduction.contribution() : null;
            oneIteration(graph, loop, dimension, result);
            dimension++;
        }
        canonicalizer.apply(graph, context);
    }

    /** Loop {@code parallel}'s iteration {@code start + k}, {@code k} the kernel's index {@code dimension}, returning {@code result}. */
    private void oneIteration(StructuredGraph graph, ParallelLoop parallel, int dimension, ValueNode result) {
        LoopBeginNode loop = parallel.loop();
        ParameterNode element = graph.addWithoutUnique(new ParameterNode(KernelInputs.componentIndex(dimension, 0), StampPair.createSingle(IntegerStamp.create(32, 0, Integer.MAX_VALUE))));
        inputs.setArgumentComponent(dimension, 0, element);
        ValueNode iteration = graph.addOrUniqueWithInputs(AddNode.create(parallel.start(), element, NodeView.DEFAULT));

        for (LoopEndNode end : loop.loopEnds().snapshot()) {
            ReturnNode ret = graph.add(new ReturnNode(result));
            end.replaceAtPredecessor(ret);
            end.safeDelete();
        }
        ParallelLoop.Reduction reduction = parallel.reduction();
        if (reduction != null) {
            // only frame states and the dead accumulation read it now
            reduction.phi().replaceAtUsages(reduction.phi().valueAt(loop.forwardEnd()));
            reduction.phi().safeDelete();
        }
        parallel.index().replaceAtUsages(iteration);
        parallel.index().safeDelete();
        parallel.header().setCondition(LogicConstantNode.tautology(graph));
        loop.removeExits(false);
        graph.reduceDegenerateLoopBegin(loop);
    }
}
