package jpai.compiler;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.FixedNode;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StartNode;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.BinaryNode;
import jdk.graal.compiler.nodes.calc.ConditionalNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jpai.compiler.loops.ReductionOperator;

/**
 * Recognises a reduction's combiner that is one of the operators a device may apply with atomics:
 * a graph of two {@code int} or {@code long} arguments that returns {@code a + b}, {@code a & b},
 * {@code a | b}, {@code a ^ b}, {@code Math.min(a, b)} or {@code Math.max(a, b)} (either operand
 * order; also written as {@code a < b ? a : b}) and does nothing else: no capture, no exit, no other fixed node. {@code Integer::sum},
 * {@code (a, b) -> a + b}, {@code Math::max}, {@code (a, b) -> b | a} all qualify; anything else is
 * not recognised, and the runtime then keeps the combining order fixed (keyed reductions).
 */
public final class CombinerRecognition {

    private CombinerRecognition() {
    }

    /** The operator {@code combiner} computes, or null when it is not exactly one of the recognised ones. */
    public static ReductionOperator of(KernelGraph combiner) {
        if (!combiner.captures().isEmpty()) {
            return null;
        }
        ParameterNode left = combiner.inputs().argumentComponent(0, 0);
        ParameterNode right = combiner.inputs().argumentComponent(1, 0);
        if (left == null || right == null) {
            return null;
        }
        ReturnNode onlyReturn = null;
        for (Node node : combiner.graph().getNodes()) {
            if (node instanceof ReturnNode ret) {
                if (onlyReturn != null) {
                    return null;
                }
                onlyReturn = ret;
            } else if (node instanceof FixedNode && !(node instanceof StartNode)) {
                return null; // an exit, a load, a branch: not a plain operator
            }
        }
        if (onlyReturn == null) {
            return null;
        }
        if (onlyReturn.result() instanceof ConditionalNode select) {
            return minOrMax(select, left, right);
        }
        if (!(onlyReturn.result() instanceof BinaryNode operation)) {
            return null;
        }
        ValueNode x = operation.getX();
        ValueNode y = operation.getY();
        boolean operands = (x == left && y == right) || (x == right && y == left);
        ReductionOperator operator = ReductionOperator.ofNode(operation);
        if (!operands || operator == null || operator == ReductionOperator.PRODUCT) {
            return null;
        }
        return operator;
    }

    /**
     * {@code p < q ? p : q} (min) or {@code p < q ? q : p} (max) of the two arguments, in either
     * order: what Graal makes of {@code Math.min} and {@code Math.max} on {@code int}s and
     * {@code long}s ({@code a <= b ? a : b} becomes {@code b < a ? b : a}).
     */
    private static ReductionOperator minOrMax(ConditionalNode select, ValueNode left, ValueNode right) {
        if (!(select.condition() instanceof IntegerLessThanNode less)) {
            return null;
        }
        ValueNode p = less.getX();
        ValueNode q = less.getY();
        if (!((p == left && q == right) || (p == right && q == left))) {
            return null;
        }
        if (select.trueValue() == p && select.falseValue() == q) {
            return ReductionOperator.MIN;
        }
        if (select.trueValue() == q && select.falseValue() == p) {
            return ReductionOperator.MAX;
        }
        return null;
    }
}
