package jpai.compiler;

/**
 * An assumption a kernel makes that Java's code does not: a transformation that moves or strengthens
 * an exit, so that the kernel may exit on data where Java throws nothing (the loop would have left
 * before the failing index, say). Such an exit is a failed speculation, not a Java exception: the
 * runtime recompiles the function without it ({@link Speculations}) rather than running it in Java
 * again and again.
 *
 * <p>Exits a speculation makes carry it as their Graal speculation ({@link GraalSpeculations}), or
 * (for {@link #HOISTED_BOUNDS_CHECKS}) the JVMCI reason {@code LoopLimitCheck}; the backend turns
 * either into the exit code that names the speculation. This enum names no JVMCI type: the runtime
 * keeps a function's speculations in a JVM started without JVMCI too, where it runs in Java.
 */
public enum Speculation {
    /**
     * The bounds checks of a counted loop's affine indices, tested for the whole index range before
     * the loop ({@code SpeculativeBoundsCheckHoistingPhase}): fails where the loop would leave
     * before the index that is out of bounds.
     */
    HOISTED_BOUNDS_CHECKS("bounds checks hoisted out of loops"),
    /**
     * Exits with a loop-invariant condition in a counted loop's body, tested once before the loop
     * ({@code LoopInvariantExitsPhase}): fails where the loop would leave, or skip the test, before
     * reaching it.
     */
    HOISTED_LOOP_EXITS("exits hoisted out of loop bodies"),
    /**
     * Branches and switch cases of the function's body that HotSpot's profile says were never taken
     * while it ran in Java, compiled as exits (Graal's never-executed code removal, with the body's
     * {@code ProfilingInfo} only: callees are compiled whole): fails where the data takes one. Made
     * only when the body has a mature profile ({@code KernelGraphCompiler.hasMatureProfile}).
     */
    UNTAKEN_BRANCHES("branches never taken while the function ran in Java");

    private final String description;

    Speculation(String description) {
        this.description = description;
    }

    /** What the speculation does, for explanations: "bounds checks hoisted out of loops". */
    public String description() {
        return description;
    }


}
