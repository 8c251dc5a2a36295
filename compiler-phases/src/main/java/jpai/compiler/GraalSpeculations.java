package jpai.compiler;

import jdk.vm.ci.meta.SpeculationLog;

/**
 * JPAI's {@link Speculation}s as Graal carries them on exits: the JVMCI side of the enum, kept apart
 * so that the enum itself loads in a JVM without JVMCI (the runtime names speculations there too).
 */
public final class GraalSpeculations {

    /** The JVMCI reason of an exit that one of JPAI's speculations made. */
    private record Reason(Speculation speculation) implements SpeculationLog.SpeculationReason {
    }

    private GraalSpeculations() {
    }

    /** The Graal speculation an exit made by {@code speculation} carries. */
    public static SpeculationLog.Speculation of(Speculation speculation) {
        return new SpeculationLog.Speculation(new Reason(speculation));
    }

    /** The speculation {@code speculation} names, if it is one of JPAI's; else null. */
    public static Speculation from(SpeculationLog.Speculation speculation) {
        return speculation != null && speculation.getReason() instanceof Reason reason ? reason.speculation() : null;
    }
}
