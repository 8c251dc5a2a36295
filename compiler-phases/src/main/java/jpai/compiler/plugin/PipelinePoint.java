package jpai.compiler.plugin;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A named point of {@link jpai.compiler.KernelGraphCompiler}'s pipeline where {@link PhasePlugin}s
 * run, each with what the graph is like there. Every point gives a plugin's phase the pipeline's
 * {@code HighTierContext} (providers, the parser's suite, no optimistic optimisations).
 */
public enum PipelinePoint {

    /**
     * Right after the bytecode parser: the lambda's method as Graal parsed it. Calls are not inlined
     * yet; frame states are there; every exception check is explicit (an {@code If} to a
     * {@code BytecodeExceptionNode}); the parameters are the functional object and boxed elements
     * or tuples. Later phases (inlining, canonicalisation) see what the plugin left.
     */
    AFTER_PARSING("after-parsing", "after parsing"),

    /**
     * After Graal's high-tier work: inlining, canonicalisation, partial escape analysis and
     * conditional elimination, with every Java exception path already an exit with a reason
     * ({@code DeoptimizeNode}, {@code FixedGuardNode}). No calls are left; frame states are still
     * there; parameters are still objects (boxes, tuples, the functional object), which JPAI's
     * kernel phases that follow turn into bare primitives.
     */
    AFTER_HIGH_TIER("after-high-tier", "after Graal high tier"),

    /**
     * After JPAI's kernel phases, just before the backend: the graph keeps the contract of
     * {@link jpai.compiler.KernelGraph} (bare primitive parameters, no frame states, no calls), and
     * a plugin here must keep it too. Nothing runs between the plugin and the OpenCL generator,
     * which translates or refuses every node left (docs/supported-nodes.md).
     */
    AFTER_KERNEL_PHASES("after-kernel-phases", "after kernel phases");

    private final String id;
    private final String description;

    PipelinePoint(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** The name {@code -Djpai.phases} uses: {@code after-parsing}, {@code after-high-tier}, {@code after-kernel-phases}. */
    public String id() {
        return id;
    }

    /** The point in words, as dumps and messages say it ("after Graal high tier"). */
    public String description() {
        return description;
    }

    /** The point whose {@link #id()} is {@code id}, or null. */
    public static PipelinePoint byId(String id) {
        for (PipelinePoint point : values()) {
            if (point.id.equals(id)) {
                return point;
            }
        }
        return null;
    }

    /** Every point's id, comma-separated, for messages. */
    public static String ids() {
        return Arrays.stream(values()).map(PipelinePoint::id).collect(Collectors.joining(", "));
    }
}
