package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.PostRunCanonicalizationPhase;
import jpai.compiler.KernelSignature;

/**
 * The common ground of the phases that rewrite the kernel's boundary (its arguments, captured values
 * and result) from what the runtime promises about them ({@link KernelSignature}): they apply to every
 * graph, and the canonicaliser cleans up after each.
 */
abstract class KernelBoundaryPhase extends PostRunCanonicalizationPhase<CoreProviders> {

    /** What the runtime promises about the function's data. */
    protected final KernelSignature signature;

    protected KernelBoundaryPhase(CanonicalizerPhase canonicalizer, KernelSignature signature) {
        super(canonicalizer);
        this.signature = signature;
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }
}
