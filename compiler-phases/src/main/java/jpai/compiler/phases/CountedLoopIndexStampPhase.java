package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;

/**
 * Gives the counter of a counted loop the range it has: in {@code for (i = a; i < b; i++)} the
 * counter only grows from {@code a} and never overflows (it is incremented only after
 * {@code i < b <= Integer.MAX_VALUE} held), so {@code i} is in {@code [lower bound of a,
 * Integer.MAX_VALUE]}. Graal's stamp of such a phi is the whole {@code int} range (it cannot see that
 * {@code i + 1} does not wrap); with the tighter stamp, conditional elimination learns from
 * {@code i < b} that {@code b >= 1} in the body, and drops, say, the zero test of a division by
 * {@code b} (a remainder by an array length the loop runs up to).
 *
 * <p>Expects: loops as the parser builds them ({@link CountedLoop}). Does: joins the stamp of each
 * counted loop's counter with {@code [lower bound of a, Integer.MAX_VALUE]}; a conditional
 * elimination run afterwards uses it.
 */
public final class CountedLoopIndexStampPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public CountedLoopIndexStampPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (LoopBeginNode loop : graph.getNodes(LoopBeginNode.TYPE)) {
            CountedLoop counted = CountedLoop.match(loop);
            if (counted == null) {
                continue;
            }
            IntegerStamp start = (IntegerStamp) counted.start().stamp(NodeView.DEFAULT);
            Stamp range = IntegerStamp.create(32, start.lowerBound(), Integer.MAX_VALUE);
            Stamp current = counted.index().stamp(NodeView.DEFAULT);
            Stamp joined = current.join(range);
            if (!joined.isEmpty()) {
                counted.index().setStamp(joined);
            }
        }
    }
}
