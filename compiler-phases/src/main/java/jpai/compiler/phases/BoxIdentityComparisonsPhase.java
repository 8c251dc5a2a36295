package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.LogicConstantNode;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ProfileData.BranchProbabilityData;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.calc.ObjectEqualsNode;
import jdk.graal.compiler.nodes.calc.SubNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.KernelBailoutException;

/**
 * Gives {@code ==} between boxes the JVM's answer. Graal treats a box as a value, so partial escape
 * analysis folds {@code Integer.valueOf(x) == Integer.valueOf(x)} to {@code true}; the JVM answers
 * {@code true} only where {@code valueOf} returns the same cached object, that is for values in its
 * box cache ({@code -128..127}, for {@code Integer} up to {@code java.lang.Integer.IntegerCache.high}),
 * and {@code false} for two boxes of any other value or of different values (issue 19, item 6).
 *
 * <p>Expects: the graph after inlining, before the canonicaliser and partial escape analysis see the
 * comparisons (boxes are still {@link BoxNode}s, arguments not yet unboxed). Does: replaces each {@link ObjectEqualsNode} of two
 * distinct {@link BoxNode}s of one kind by "the values are equal and the value is cached" (for
 * {@code Float} and {@code Double}, which have no cache, {@code false}; for {@code Boolean} and
 * {@code Byte}, always cached, the values' equality). A reference comparison of a box with anything
 * else (a box the lambda received, a box from a field) depends on where that object came from, which
 * the kernel cannot know: the compiler refuses it, and the operation runs in Java.
 */
public final class BoxIdentityComparisonsPhase extends BasePhase<CoreProviders> {

    /** {@code Integer.valueOf}'s largest cached value in this JVM (127 unless {@code -XX:AutoBoxCacheMax} or the cache property raised it). */
    private static final int INTEGER_CACHE_HIGH = integerCacheHigh();

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (ObjectEqualsNode equals : graph.getNodes().filter(ObjectEqualsNode.class).snapshot()) {
            ValueNode x = equals.getX();
            ValueNode y = equals.getY();
            boolean xBox = x instanceof BoxNode;
            boolean yBox = y instanceof BoxNode;
            if (xBox && yBox && x != y && ((BoxNode) x).getBoxingKind() == ((BoxNode) y).getBoxingKind()) {
                equals.replaceAtUsagesAndDelete(sameCachedBox(graph, (BoxNode) x, (BoxNode) y));
            } else if (x != y && !(x.isNullConstant() || y.isNullConstant()) && (isBox(x, context) && mayBeBox(y, context) || isBox(y, context) && mayBeBox(x, context))) {
                throw KernelBailoutException.at(equals, "a box is compared with == to a box the kernel did not make (the JVM's answer depends on where that object came from);"
                                + " compare the values, or use equals()");
            }
        }
    }

    /** The JVM's {@code box(a) == box(b)} for two {@code valueOf} calls: equal values, and cached. */
    private static LogicNode sameCachedBox(StructuredGraph graph, BoxNode a, BoxNode b) {
        JavaKind kind = a.getBoxingKind();
        ValueNode va = a.getValue();
        ValueNode vb = b.getValue();
        return switch (kind) {
            case Float, Double -> LogicConstantNode.contradiction(graph);
            case Boolean, Byte -> graph.addOrUniqueWithInputs(IntegerEqualsNode.create(va, vb, NodeView.DEFAULT));
            default -> {
                long low = kind == JavaKind.Char ? 0 : -128;
                long high = kind == JavaKind.Int ? INTEGER_CACHE_HIGH : 127;
                JavaKind stackKind = va.getStackKind();
                ValueNode offset = graph.addOrUniqueWithInputs(SubNode.create(va, ConstantNode.forIntegerKind(stackKind, low, graph), NodeView.DEFAULT));
                // low <= v <= high as one unsigned comparison: v - low < high - low + 1
                LogicNode cached = graph.addOrUniqueWithInputs(IntegerBelowNode.create(offset, ConstantNode.forIntegerKind(stackKind, high - low + 1, graph), NodeView.DEFAULT));
                LogicNode equal = graph.addOrUniqueWithInputs(IntegerEqualsNode.create(va, vb, NodeView.DEFAULT));
                yield graph.addOrUniqueWithInputs(LogicNode.and(equal, cached, BranchProbabilityData.unknown()));
            }
        };
    }

    /** Whether {@code value} is a box: a {@link BoxNode}, or its static type is a wrapper class. */
    private static boolean isBox(ValueNode value, CoreProviders context) {
        if (value instanceof BoxNode) {
            return true;
        }
        if (value.stamp(NodeView.DEFAULT) instanceof ObjectStamp stamp && stamp.type() != null) {
            for (JavaKind kind : JavaKind.values()) {
                if (kind.isPrimitive() && kind != JavaKind.Void && stamp.type().equals(context.getMetaAccess().lookupJavaType(kind.toBoxedJavaClass()))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code value} may be a box: a {@link BoxNode}, or its static type is a wrapper class or a supertype of one. */
    private static boolean mayBeBox(ValueNode value, CoreProviders context) {
        if (value instanceof BoxNode) {
            return true;
        }
        if (!(value.stamp(NodeView.DEFAULT) instanceof ObjectStamp stamp)) {
            return false;
        }
        ResolvedJavaType type = stamp.type();
        if (type == null) {
            return true;
        }
        for (JavaKind kind : JavaKind.values()) {
            if (kind.isPrimitive() && kind != JavaKind.Void) {
                ResolvedJavaType box = context.getMetaAccess().lookupJavaType(kind.toBoxedJavaClass());
                if (type.isAssignableFrom(box)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The largest {@code h} with {@code Integer.valueOf(h) == Integer.valueOf(h)}: the cache is {@code -128..h}, {@code h >= 127}. */
    private static int integerCacheHigh() {
        long cached = 127; // always cached (JLS 5.1.7)
        long probe = 128;
        // double until a value is not cached, then bisect between the last cached one and it
        while (probe <= Integer.MAX_VALUE && Integer.valueOf((int) probe) == Integer.valueOf((int) probe)) {
            cached = probe;
            probe *= 2;
        }
        long uncached = Math.min(probe, Integer.MAX_VALUE);
        while (uncached - cached > 1) {
            long mid = (cached + uncached) >>> 1;
            if (Integer.valueOf((int) mid) == Integer.valueOf((int) mid)) {
                cached = mid;
            } else {
                uncached = mid;
            }
        }
        return (int) cached;
    }
}
