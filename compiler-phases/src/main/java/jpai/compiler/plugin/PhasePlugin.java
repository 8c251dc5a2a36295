package jpai.compiler.plugin;

import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;

/**
 * A researcher's Graal phase, run on every kernel's graph at one {@link PipelinePoint} of JPAI's
 * pipeline. Found through {@link java.util.ServiceLoader} (a jar on the class path lists its
 * implementations in {@code META-INF/services/jpai.compiler.plugin.PhasePlugin}); a plain phase
 * class can instead be named in {@code -Djpai.phases} (see {@link PhasePluginLoader}).
 * docs/phase-plugins.md is the guide.
 *
 * <p>Implementations need a public no-argument constructor (ServiceLoader's rule) and must be
 * thread-safe: kernels of several threads compile at once, each with its own phase from
 * {@link #newPhase()}.
 */
public interface PhasePlugin {

    /**
     * The plugin's name in {@code PhaseTimings}, the kernel dump's header, Graal's dumps
     * ({@code "JPAI after phase plugin <name>"}) and fallback reasons. Part of the kernel caches' key, with
     * the class and the point. Default: the implementation's class name.
     */
    default String name() {
        return getClass().getName();
    }

    /** Where in the pipeline the phase runs. */
    PipelinePoint point();

    /**
     * A phase for one compilation. It may bail out with a {@code KernelBailoutException} (the
     * operation then runs in Java with that reason); any other exception also makes the operation
     * run in Java, with this plugin named in the reason.
     */
    BasePhase<? super HighTierContext> newPhase();
}
