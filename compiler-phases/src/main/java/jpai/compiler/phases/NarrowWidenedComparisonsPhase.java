package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.LogicNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.CompareNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerEqualsNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.SignExtendNode;
import jdk.graal.compiler.nodes.calc.ZeroExtendNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;

/**
 * Compares 32-bit ints where the graph compares the same ints widened to 64 bits. A loop over a
 * captured array, {@code for (int c = 0; c < centroids.length(); c++)}, tests
 * {@code (long) c < length} ({@code length()} is a {@code long}); the length is an {@code int} the
 * canonicaliser zero-extends (it knows the length is not negative), the counter a sign-extended
 * {@code int}, so the kernel tested {@code (long)c < (long)(uint)length}. NVIDIA's OpenCL compiler
 * treats a loop whose test is that as a loop of unknown trip count (no unrolling, loads not in
 * flight together): K-Means' membership kernel, a loop over 8 centroids, took 1.42x the hand-written
 * kernel's time on the H100 and 1.08x with the test on the ints
 * ({@code benchmarks/results/nvidia-h100-2026-11-27/s19/km-s19.txt}).
 *
 * <p>Expects: nothing in particular; runs after the phases that match counted loops and hoist
 * bounds checks, which read the widened forms. Does: replaces each signed less-than or equality whose
 * two inputs are {@code long}s made from {@code int}s by a sign extension (a zero extension of an
 * {@code int} whose stamp is never negative is one; so is a constant in the {@code int} range) by the
 * same comparison of the {@code int}s; and each unsigned less-than whose inputs are {@code long}s
 * made by zero extension (a sign extension of an {@code int} never negative is one; so is a constant
 * in {@code [0, 2^32)}) by the unsigned comparison of the {@code int}s. Widening both sides the same
 * way keeps the order, so each is the same test on every input.
 */
public final class NarrowWidenedComparisonsPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    public NarrowWidenedComparisonsPhase(CanonicalizerPhase canonicalizer) {
        super(canonicalizer);
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (CompareNode compare : graph.getNodes().filter(CompareNode.class).snapshot()) {
            if (!compare.isAlive() || !(compare.getX().stamp(NodeView.DEFAULT) instanceof IntegerStamp x) || x.getBits() != 64
                            || !(compare.getY().stamp(NodeView.DEFAULT) instanceof IntegerStamp y) || y.getBits() != 64) {
                continue;
            }
            LogicNode narrowed = null;
            if (compare instanceof IntegerLessThanNode || compare instanceof IntegerEqualsNode) {
                ValueNode a = signExtendedInt(graph, compare.getX());
                ValueNode b = a == null ? null : signExtendedInt(graph, compare.getY());
                if (b != null) {
                    narrowed = compare instanceof IntegerLessThanNode ? IntegerLessThanNode.create(a, b, NodeView.DEFAULT) : IntegerEqualsNode.create(a, b, NodeView.DEFAULT);
                }
            } else if (compare instanceof IntegerBelowNode) {
                ValueNode a = zeroExtendedInt(graph, compare.getX());
                ValueNode b = a == null ? null : zeroExtendedInt(graph, compare.getY());
                if (b != null) {
                    narrowed = IntegerBelowNode.create(a, b, NodeView.DEFAULT);
                }
            }
            if (narrowed != null) {
                compare.replaceAtUsagesAndDelete(graph.addOrUniqueWithInputs(narrowed));
            }
        }
    }

    /** The {@code int} whose sign extension {@code value} is, or null. */
    private static ValueNode signExtendedInt(StructuredGraph graph, ValueNode value) {
        if (value instanceof SignExtendNode sign && sign.getInputBits() == 32) {
            return sign.getValue();
        }
        if (value instanceof ZeroExtendNode zero && zero.getInputBits() == 32 && neverNegative(zero.getValue())) {
            return zero.getValue();
        }
        if (value.isJavaConstant() && value.asJavaConstant().getJavaKind().isNumericInteger()) {
            long constant = value.asJavaConstant().asLong();
            if (constant == (int) constant) {
                return ConstantNode.forInt((int) constant, graph);
            }
        }
        return null;
    }

    /** The {@code int} whose zero extension {@code value} is, or null. */
    private static ValueNode zeroExtendedInt(StructuredGraph graph, ValueNode value) {
        if (value instanceof ZeroExtendNode zero && zero.getInputBits() == 32) {
            return zero.getValue();
        }
        if (value instanceof SignExtendNode sign && sign.getInputBits() == 32 && neverNegative(sign.getValue())) {
            return sign.getValue();
        }
        if (value.isJavaConstant() && value.asJavaConstant().getJavaKind().isNumericInteger()) {
            long constant = value.asJavaConstant().asLong();
            if (constant >= 0 && constant <= 0xFFFF_FFFFL) {
                return ConstantNode.forInt((int) constant, graph);
            }
        }
        return null;
    }

    private static boolean neverNegative(ValueNode value) {
        return value.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && stamp.getBits() == 32 && stamp.lowerBound() >= 0;
    }
}
