package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.StructuredGraph;
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
 * bounds checks, which read the widened forms. Does: {@link WidenedInts#narrowComparisons} (which
 * {@link IndexedParametersToArraysPhase} also applies to the loops over an annotated method's
 * {@code PArray} parameters): each comparison of two {@code long}s widened alike from {@code int}s
 * becomes the same comparison of the ints, which has the same answer on every input.
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
        WidenedInts.narrowComparisons(graph);
    }
}
