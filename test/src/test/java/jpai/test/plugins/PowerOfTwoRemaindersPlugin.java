package jpai.test.plugins;

import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jpai.compiler.plugin.PhasePlugin;
import jpai.compiler.plugin.PipelinePoint;

/**
 * {@link PowerOfTwoRemaindersAsMasksPhase} as a service provider: a jar whose
 * {@code META-INF/services/jpai.compiler.plugin.PhasePlugin} names this class runs the phase on
 * every kernel after Graal's high tier, with no property set (docs/phase-plugins.md).
 */
public final class PowerOfTwoRemaindersPlugin implements PhasePlugin {

    @Override
    public String name() {
        return "power-of-two remainders as masks";
    }

    @Override
    public PipelinePoint point() {
        return PipelinePoint.AFTER_HIGH_TIER;
    }

    @Override
    public BasePhase<? super HighTierContext> newPhase() {
        return new PowerOfTwoRemaindersAsMasksPhase();
    }
}
