package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

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
     * Deferred work starts this long after the apply that deferred it has ended: a fresh JVM's first
     * compilation loads Graal and keeps HotSpot's compilers busy, which slowed what the caller did
     * with the result right after (on the H100's host, a first call that copies 2^24 floats out took
     * 1.3-1.8x the Java threads' time; a tiered Monte Carlo map-reduce 1.1x while its kernel compiled
     * beside it); and even the start of one (the compile pool's classes and lambdas, a few ms of
     * class loading on a pool thread) competed with the next apply of a program of several short
     * applies (Spectral norm's first call).
     */
    static final long AFTER_APPLY_NANOS = 200_000_000;

    /**
     * The apply on this thread has ended: hands the work it deferred to the common fork/join pool,
     * {@link #AFTER_APPLY_NANOS} from now. Every skeleton whose apply may defer work calls it when
     * its apply ends, however it ends.
     */
    static void applyEnded() {
        List<Runnable> deferred = DEFERRED.get();
        if (deferred != null && !deferred.isEmpty()) {
            DEFERRED.remove();
            CompletableFuture.delayedExecutor(AFTER_APPLY_NANOS, TimeUnit.NANOSECONDS, ForkJoinPool.commonPool()).execute(new RunAll(deferred));
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
