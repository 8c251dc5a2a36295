package jpai.runtime;

import jpai.compiler.Speculation;
import jpai.compiler.Speculations;

/**
 * What the runtime learnt about one function's speculations: which its kernels may still make, and
 * how many times they were recompiled because one failed. A failed speculation is an exit where the
 * data was fine and the kernel's assumption wrong (a bounds check hoisted out of a loop that would
 * have left earlier): the kernel is compiled again without it, so that the next apply stays on the
 * device. Bounded by {@link JpaiOptions#maxRecompiles()}: the recompile that reaches the bound leaves
 * out every speculation. Thread-safe.
 */
public final class SpeculationHistory {

    /** What one failure changed. */
    enum Decision {
        /** The speculation is left out: the next compile of the function's kernels is a recompile without it. */
        RECOMPILE_WITHOUT_IT,
        /** This recompile reaches the bound: the function's kernels are compiled with no speculation from now on. */
        STOP_SPECULATING,
        /** Another apply already left it out (this one ran a kernel compiled before): nothing changes. */
        ALREADY_LEFT_OUT,
        /** The bound allows no recompile ({@code maxRecompiles=0}): the kernel keeps its speculations. */
        NO_RECOMPILE_LEFT
    }

    private volatile Speculations allowed = Speculations.ALL;
    private int recompiles; // guarded by this

    /** The speculations the function's kernels are compiled with now. */
    public Speculations allowed() {
        return allowed;
    }

    /** How many times a failed speculation made the function's kernels be recompiled. */
    public synchronized int recompiles() {
        return recompiles;
    }

    /**
     * A kernel of the function exited because {@code failed} did not hold: decides under the bound
     * {@link JpaiOptions#maxRecompiles()} and returns what happened, as a clause for the explanation.
     */
    public String learn(Speculation failed) {
        int max = JpaiOptions.maxRecompiles();
        Decision decision = failed(failed, max);
        String what = "the kernel speculated (" + failed.description() + ") and the speculation failed";
        return switch (decision) {
            case RECOMPILE_WITHOUT_IT -> what + ": it is recompiled without it (recompile " + recompiles() + " of at most " + max + ", -D" + JpaiOptions.MAX_RECOMPILES + ")";
            case STOP_SPECULATING -> what + ": recompile " + recompiles() + " reaches the bound (-D" + JpaiOptions.MAX_RECOMPILES + "=" + max
                            + "), so its kernels are compiled with no speculation from now on";
            case ALREADY_LEFT_OUT -> what + "; the kernel compiled next already leaves it out";
            case NO_RECOMPILE_LEFT -> what + "; it is not recompiled (-D" + JpaiOptions.MAX_RECOMPILES + "=" + max + " recompiles, all made), so each failure re-runs elements in Java";
        };
    }

    /** A kernel of the function exited because {@code failed} did not hold, under a bound of {@code maxRecompiles}. */
    synchronized Decision failed(Speculation failed, int maxRecompiles) {
        if (!allowed.allows(failed)) {
            return Decision.ALREADY_LEFT_OUT;
        }
        if (recompiles >= maxRecompiles) {
            return Decision.NO_RECOMPILE_LEFT;
        }
        recompiles++;
        if (recompiles == maxRecompiles) {
            allowed = Speculations.NONE;
            return Decision.STOP_SPECULATING;
        }
        allowed = allowed.without(failed);
        return Decision.RECOMPILE_WITHOUT_IT;
    }
}
