package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.core.common.type.Stamp;
import jdk.vm.ci.meta.TriState;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.PiNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.BinaryOpLogicNode;
import jdk.graal.compiler.nodes.calc.IntegerDivRemNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;

/**
 * Gives the counter of a counted loop the range it has: in {@code for (i = a; i < b; i++)} the
 * counter only grows from {@code a} and never overflows (it is incremented only after
 * {@code i < b <= Integer.MAX_VALUE} held), so {@code i} is in {@code [lower bound of a,
 * Integer.MAX_VALUE]}. Graal's stamp of such a phi is the whole {@code int} range (it cannot see that
 * {@code i + 1} does not wrap). And in the body {@code i < b} held, so {@code b} is at least the
 * lower bound of {@code a} plus one: the zero test of a division by {@code b} (say a remainder by an
 * array length the loop runs up to) is decided, which conditional elimination cannot see (it
 * combines a condition with the other operand's stamp only when that operand is a constant).
 *
 * <p>Expects: loops as the parser builds them ({@link CountedLoop}). Does: joins the stamp of each
 * counted loop's counter with {@code [lower bound of a, Integer.MAX_VALUE]}, and folds each test in
 * the body ({@code If} or {@link FixedGuardNode}) that compares {@code b} with another value and that
 * {@code b >= lower bound of a + 1} decides; where that excludes 0, an integer division or remainder by
 * {@code b} in the body divides by a {@link PiNode} of {@code b} with that range.
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
            foldTestsOfTheEnd(graph, counted, start);
        }
    }

    /**
     * In the body {@code i < b} held with {@code i >= lower bound of a}, so {@code b >= that + 1}:
     * folds the tests of {@code b} against a value of known stamp that this decides (conditional
     * elimination does not combine the stamps of two non-constant operands).
     */
    private static void foldTestsOfTheEnd(StructuredGraph graph, CountedLoop counted, IntegerStamp start) {
        if (start.lowerBound() == Integer.MAX_VALUE) {
            return;
        }
        Stamp endInBody = counted.end().stamp(NodeView.DEFAULT).join(IntegerStamp.create(32, start.lowerBound() + 1, Integer.MAX_VALUE));
        if (endInBody.isEmpty()) {
            return;
        }
        PiNode nonZeroEnd = null;
        for (FixedNode node : counted.bodyFixedNodes()) {
            if (node instanceof IntegerDivRemNode division && division.getY() == counted.end() && endInBody instanceof IntegerStamp stamp && !stamp.contains(0)) {
                // the divisor, as a value known to be in that range in the body: no zero test is emitted
                if (nonZeroEnd == null) {
                    nonZeroEnd = graph.addOrUnique(new PiNode(counted.end(), endInBody, counted.body()));
                }
                division.setY(nonZeroEnd);
                continue;
            }
            LogicNode condition = node instanceof IfNode test ? test.condition() : node instanceof FixedGuardNode guard ? guard.getCondition() : null;
            if (!(condition instanceof BinaryOpLogicNode compare) || !(compare.getX() == counted.end() || compare.getY() == counted.end()) || compare.getX() == compare.getY()) {
                continue;
            }
            Stamp x = compare.getX() == counted.end() ? endInBody : compare.getX().stamp(NodeView.DEFAULT);
            Stamp y = compare.getY() == counted.end() ? endInBody : compare.getY().stamp(NodeView.DEFAULT);
            TriState known = compare.tryFold(x, y);
            if (known.isKnown()) {
                LogicConstantNode constant = LogicConstantNode.forBoolean(known.isTrue(), graph);
                if (node instanceof IfNode test) {
                    test.setCondition(constant);
                } else {
                    FixedGuardNode guard = (FixedGuardNode) node;
                    guard.setCondition(constant, guard.isNegated());
                }
            }
        }
    }
}
