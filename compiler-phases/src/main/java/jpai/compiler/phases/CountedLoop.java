package jpai.compiler.phases;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeBitMap;
import jdk.graal.compiler.nodes.AbstractBeginNode;
import jdk.graal.compiler.nodes.AbstractMergeNode;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.ControlSplitNode;
import jdk.graal.compiler.nodes.EndNode;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.FixedWithNextNode;
import jdk.graal.compiler.nodes.IfNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.LoopEndNode;
import jdk.graal.compiler.nodes.LoopExitNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.PhiNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.AddNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;

/**
 * A loop {@code for (i = start; i < end; i++)} on {@code int}s, as the parser builds it: the first
 * node after the {@link LoopBeginNode} is the {@code If} on {@code i < end} (or on {@code (long) i <
 * (long) end}, as {@code i < p.length()} of a {@code PArray} compares, {@code end} then the int
 * widened, never negative where zero-extended) whose other successor leaves the loop, {@code end} is loop-invariant, and every back edge carries {@code i + 1}. So, in
 * the body (every fixed node reachable from {@link #body} without leaving the loop), {@code start <= i
 * < end <= Integer.MAX_VALUE} and {@code i + 1} never overflows. Used by
 * {@link SpeculativeBoundsCheckHoistingPhase} and {@link CountedLoopIndexStampPhase}.
 */
record CountedLoop(LoopBeginNode loop, ValuePhiNode index, ValueNode start, ValueNode end, AbstractBeginNode body) {

    /** The counted loop that {@code loop} is, or null. */
    static CountedLoop match(LoopBeginNode loop) {
        if (loop.forwardEndCount() != 1 || !(loop.next() instanceof IfNode test) || !(test.condition() instanceof IntegerLessThanNode less)) {
            return null;
        }
        if (!(test.falseSuccessor() instanceof LoopExitNode exit && exit.loopBegin() == loop) || test.trueSuccessor() instanceof LoopExitNode) {
            return null;
        }
        AbstractBeginNode body = test.trueSuccessor();
        ValueNode counter = less.getX();
        ValueNode end = less.getY();
        if (counter instanceof SignExtendNode widened && widened.getInputBits() == 32) {
            // for (int i = 0; i < a.length(); i++) on a PArray: the test is (long) i < length, in long;
            // the same test in int when the long bound is an int widened without changing its value
            end = WidenedInts.signExtendedInt(end);
            if (end == null) {
                return null;
            }
            counter = widened.getValue();
        }
        if (!(counter instanceof ValuePhiNode phi) || phi.merge() != loop || !(phi.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp) || stamp.getBits() != 32) {
            return null;
        }
        for (LoopEndNode loopEnd : loop.loopEnds()) {
            if (!isIncrement(phi.valueAt(loopEnd), phi)) {
                return null;
            }
        }
        if (!isInvariant(end, loop)) {
            return null;
        }
        return new CountedLoop(loop, phi, phi.valueAt(loop.forwardEnd()), end, body);
    }

    private static boolean isIncrement(ValueNode value, ValuePhiNode phi) {
        return value instanceof AddNode add && ((add.getX() == phi && isConstant(add.getY(), 1)) || (add.getY() == phi && isConstant(add.getX(), 1)));
    }

    static boolean isConstant(ValueNode value, long expected) {
        return value instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.asJavaConstant().getJavaKind().isNumericInteger()
                        && constant.asJavaConstant().asLong() == expected;
    }

    /**
     * True if {@code value} is the same on every iteration of {@code loop}: made of constants,
     * parameters and values computed before the loop (conservatively: no phi of this or an inner loop
     * and no fixed node inside it).
     */
    static boolean isInvariant(ValueNode value, LoopBeginNode loop) {
        NodeBitMap inside = bodyNodes(loop);
        Deque<Node> work = new ArrayDeque<>();
        NodeBitMap seen = loop.graph().createNodeBitMap();
        work.add(value);
        while (!work.isEmpty()) {
            Node node = work.poll();
            if (seen.isMarked(node)) {
                continue;
            }
            seen.mark(node);
            if (node instanceof ConstantNode || node instanceof ParameterNode) {
                continue;
            }
            if (node instanceof PhiNode phi && (phi.merge() == loop || inside.isMarked(phi.merge()))) {
                return false;
            }
            if (node instanceof FixedNode && (node == loop || inside.isMarked(node))) {
                return false;
            }
            for (Node input : node.inputs()) {
                work.add(input);
            }
        }
        return true;
    }

    /** The fixed nodes of {@code loop}'s body: reachable from its begin without leaving it. */
    static NodeBitMap bodyNodes(LoopBeginNode loop) {
        NodeBitMap inside = loop.graph().createNodeBitMap();
        Deque<FixedNode> work = new ArrayDeque<>();
        work.add(loop.next());
        while (!work.isEmpty()) {
            FixedNode node = work.poll();
            if (node == null || inside.isMarked(node) || node == loop) {
                continue;
            }
            if (node instanceof LoopExitNode exit && exit.loopBegin() == loop) {
                continue;
            }
            inside.mark(node);
            if (node instanceof LoopEndNode) {
                continue; // a back edge, of this loop or of an inner one (whose header is already inside)
            }
            if (node instanceof EndNode end) {
                AbstractMergeNode merge = end.merge();
                work.add(merge);
            } else if (node instanceof ControlSplitNode split) {
                for (Node successor : split.successors()) {
                    work.add((FixedNode) successor);
                }
            } else if (node instanceof FixedWithNextNode withNext) {
                work.add(withNext.next());
            }
        }
        return inside;
    }

    /** The fixed nodes of the body (see the class comment): where {@code start <= index < end} holds. */
    List<FixedNode> bodyFixedNodes() {
        NodeBitMap inside = bodyNodes(loop);
        List<FixedNode> nodes = new ArrayList<>();
        for (Node node : inside) {
            if (node != loop.next()) {
                nodes.add((FixedNode) node);
            }
        }
        return nodes;
    }
}
