package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * Work that waits for the apply running on this thread to end, then runs off it: the start of the
 * background compilations that a tiered first apply asked for ({@link CompilePool#submitAfterApply},
 * {@link TieredMap}). Off the caller's thread because the first start in a JVM loads the compile
 * pool, Graal's entry points and their lambdas: 7-12 ms on the calling thread, measured on this
 * project's CI machine, which a tiered first call then paid beside a saxpy of 80 ms. Its own class,
 * apart from {@link CompilePool}, so that the many applies that defer nothing load no pool.
 */
final class AfterApply {

    private static final ThreadLocal<List<Runnable>> DEFERRED = new ThreadLocal<>();

    private AfterApply() {
    }

    /** Runs {@code work} once the apply on this thread has ended ({@link #applyEnded()}). */
    static void defer(Runnable work) {
        List<Runnable> deferred = DEFERRED.get();
        if (deferred == null) {
            deferred = new ArrayList<>();
            DEFERRED.set(deferred);
        }
        deferred.add(work);
    }

    /**
     * The apply on this thread has ended: hands the work it deferred to the common fork/join pool,
     * whose workers the apply has just left idle. Every skeleton whose apply may defer work calls it
     * when its apply ends, however it ends.
     */
    static void applyEnded() {
        List<Runnable> deferred = DEFERRED.get();
        if (deferred != null && !deferred.isEmpty()) {
            DEFERRED.remove();
            ForkJoinPool.commonPool().execute(new RunAll(deferred));
        }
    }

    /** A class, not a lambda: a lambda's first use costs its bootstrap on the calling thread. */
    private record RunAll(List<Runnable> work) implements Runnable {
        @Override
        public void run() {
            for (Runnable each : work) {
                each.run();
            }
        }
    }
}
