package jpai.runtime;

import java.util.function.Supplier;

/**
 * When a tiered first apply ({@link TieredMap}, {@link TieredReduce}) starts its kernel's
 * compilation during the apply rather than after it: once Java threads' pace has settled and says
 * they will still be busy for well over what a compilation takes ({@link CompilePool#expectedNanos()}).
 * Asked by the calling thread between its chunks; one per apply.
 */
final class TieringPace {

    /**
     * Java threads' pace is judged after this long (the compilation may start then at the earliest)...
     * With no wait for a settled pace (after 50 ms, over 25 ms windows), the first apply of an N-Body
     * of 16,384 bodies (1.1-1.4 s on the H100 host's Java threads) started its compilation on the
     * interpreter's pace; it ended too late to take over, and the call took 1.3-1.4x the Java threads'.
     */
    private static final long PACE_AFTER_NANOS = 100_000_000;
    /** ...over windows of this long... */
    private static final long PACE_WINDOW_NANOS = 50_000_000;
    /**
     * ...and the compilation starts during the apply only when Java threads' time left is this many
     * times what it is expected to take: while it compiles, the threads lose the cores it takes, and a
     * compilation that ends after them is pure loss.
     */
    private static final double COMPILE_MARGIN = 1.5;
    /**
     * A window's pace counts as settled when it is at most this much faster than the window's before:
     * while HotSpot still compiles the lambda, the pace grows from window to window.
     */
    private static final double SETTLED_PACE_GAIN = 1.25;

    private long windowStart = -1;
    private long windowClaimed;
    /** The last window's pace, in elements per nanosecond (0 before the first). */
    private double lastPace;

    /**
     * Whether the compilation should start now, {@code elapsedNanos} into the apply with
     * {@code claimed} of {@code length} elements claimed (claimed chunks count as done: a guess on
     * the short side); says so to explain when it does. The first chunks run in the interpreter and
     * C1's code, whose pace would start a compilation, which then competes for the cores, for an
     * apply that ends before it: so the pace is judged only once it has settled.
     */
    boolean compilationDue(long elapsedNanos, long claimed, long length, Supplier<String> operation) {
        if (elapsedNanos < PACE_AFTER_NANOS) {
            return false;
        }
        if (windowStart < 0) {
            windowStart = elapsedNanos;
            windowClaimed = claimed;
            return false;
        }
        if (elapsedNanos - windowStart < PACE_WINDOW_NANOS || claimed <= windowClaimed) {
            return false;
        }
        double pace = (double) (claimed - windowClaimed) / (elapsedNanos - windowStart); // elements per nanosecond
        boolean settled = lastPace > 0 && pace <= SETTLED_PACE_GAIN * lastPace;
        double left = (length - claimed) / pace;
        lastPace = pace;
        windowStart = elapsedNanos;
        windowClaimed = claimed;
        if (settled && left > COMPILE_MARGIN * CompilePool.expectedNanos()) {
            Explain.tieredTakeover(() -> operation.get() + ": its kernel's compilation started " + elapsedNanos / 1_000_000 + " ms into its first apply, when Java threads' pace said "
                            + (long) (left / 1e6) + " ms were left (a compilation is expected to take " + CompilePool.expectedNanos() / 1_000_000 + " ms)");
            return true;
        }
        return false;
    }

    /**
     * How many of the Java threads' workers to retire while the kernel compiles during the apply:
     * the compile pool's threads and one more (HotSpot compiling Graal's own code, cold in a fresh
     * JVM) get cores of their own; with every core mapping, the compilation took longer than the
     * whole map on the H100's host.
     */
    static int workersLeftToACompilation() {
        return Math.min(CompilePool.threads() + 1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() - 1);
    }
}
