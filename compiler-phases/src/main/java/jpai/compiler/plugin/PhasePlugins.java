package jpai.compiler.plugin;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import jdk.graal.compiler.debug.DebugContext;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.PhaseTimings;

/**
 * The phase plugins a compilation runs, in order, and the pipeline step that runs those of one
 * {@link PipelinePoint} ({@link #apply}): the hook a front end calls at each named point.
 *
 * <p>Immutable. Two are equal when the same plugins (class, name and point) run in the same order,
 * so that kernel caches can key on them: a kernel compiled with a plugin is never served to a
 * compilation without it.
 */
public final class PhasePlugins {

    /** No plugins: the pipeline as JPAI defines it. */
    public static final PhasePlugins NONE = new PhasePlugins(List.of());

    private final List<PhasePlugin> plugins;
    /** One "point:name=class" per plugin: what equality and the caches' keys compare. */
    private final List<String> identities;

    private PhasePlugins(List<PhasePlugin> plugins) {
        this.plugins = List.copyOf(plugins);
        List<String> ids = new ArrayList<>();
        for (PhasePlugin plugin : this.plugins) {
            ids.add(plugin.point().id() + ":" + plugin.name() + "=" + plugin.getClass().getName());
        }
        this.identities = List.copyOf(ids);
    }

    /** {@code plugins}, run in this order (those of one point in the order given). */
    public static PhasePlugins of(List<? extends PhasePlugin> plugins) {
        for (PhasePlugin plugin : plugins) {
            Objects.requireNonNull(plugin.point(), () -> "the point of the phase plugin " + plugin.name());
        }
        return plugins.isEmpty() ? NONE : new PhasePlugins(new ArrayList<>(plugins));
    }

    /** The plugins this JVM is configured with: service providers, then {@code -Djpai.phases} ({@link PhasePluginLoader}). */
    public static PhasePlugins configured() {
        return PhasePluginLoader.configured();
    }

    public boolean isEmpty() {
        return plugins.isEmpty();
    }

    public List<PhasePlugin> plugins() {
        return plugins;
    }

    /** The plugins that run at {@code point}, in order. */
    public List<PhasePlugin> at(PipelinePoint point) {
        return plugins.stream().filter(plugin -> plugin.point() == point).toList();
    }

    /** For the kernel dump's header and messages: "Name (after Graal high tier), Other (after parsing)". */
    public String description() {
        return plugins.stream().map(plugin -> plugin.name() + " (" + plugin.point().description() + ")").collect(Collectors.joining(", "));
    }

    /**
     * Runs the plugins of {@code point} on {@code graph}, in order. Each is timed in
     * {@code timings} under its {@linkplain PhasePlugin#name() name}, its graph is verified (so that
     * a broken graph is blamed on the plugin that broke it, not on a later phase), and dumped for
     * Graal's dump options as {@code "JPAI after phase plugin <name>"} (the graph before it is the dump of
     * the point, or of the plugin before).
     *
     * @throws KernelBailoutException naming the plugin, when its phase bails out, throws or leaves a
     *             graph that does not verify
     */
    public void apply(PipelinePoint point, StructuredGraph graph, HighTierContext context, PhaseTimings timings) {
        for (PhasePlugin plugin : plugins) {
            if (plugin.point() != point) {
                continue;
            }
            long start = System.nanoTime();
            try {
                plugin.newPhase().apply(graph, context);
                graph.verify();
            } catch (KernelBailoutException e) {
                throw new KernelBailoutException("the phase plugin " + plugin.name() + " (" + point.description() + ") bailed out: " + e.reason(), e.location(), e);
            } catch (Throwable e) {
                throw KernelBailoutException.phasePluginFailure(plugin.name(), "the phase plugin " + plugin.name() + " (" + point.description() + ") failed: " + e + where(e),
                                null, e);
            }
            timings.record(plugin.name(), System.nanoTime() - start);
            DebugContext debug = graph.getDebug();
            if (debug.isDumpEnabled(DebugContext.BASIC_LEVEL)) {
                // the title in full, not a format and its argument, so that tools searching the .bgv file find it
                debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after phase plugin " + plugin.name());
            }
        }
    }

    /** " at the top frame" of {@code e}, to find the failing line without a stack trace. */
    private static String where(Throwable e) {
        StackTraceElement[] frames = e.getStackTrace();
        return frames.length == 0 ? "" : " at " + frames[0];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PhasePlugins that && identities.equals(that.identities);
    }

    @Override
    public int hashCode() {
        return identities.hashCode();
    }

    @Override
    public String toString() {
        return plugins.isEmpty() ? "no phase plugins" : "phase plugins " + description();
    }
}
