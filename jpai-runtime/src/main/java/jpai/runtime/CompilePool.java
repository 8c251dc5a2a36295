package jpai.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process's background compilations (tiering, {@link JpaiOptions#TIERING}): at most a quarter of
 * the cores (one at least, four at most) compile kernels and build their programs while the
 * applies that asked run on Java threads, so that compiling never takes every core from them.
 * Daemon threads: a JVM that ends does not wait for a compilation.
 */
final class CompilePool {

    private static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 4));
    private static final AtomicInteger NUMBER = new AtomicInteger();
    private static final ExecutorService POOL = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
        Thread thread = new Thread(task, "jpai-compile-" + NUMBER.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    static {
        ((ThreadPoolExecutor) POOL).allowCoreThreadTimeOut(true); // no thread kept while nothing compiles
    }

    /**
     * What a compilation is expected to take before one has been measured: the first of a process,
     * which also loads and warms Graal, takes 0.5 to 1.5 s on an idle host and 1.5 to 1.8 s while
     * every core maps (the H100's host; benchmarks/results, first-apply files).
     */
    private static final long FIRST_COMPILATION_NANOS = 2_000_000_000L;
    private static volatile long lastCompilationNanos = FIRST_COMPILATION_NANOS;

    /**
     * A deferred start that no {@link AfterApply#applyEnded()} ran (a caller that forgot it) starts
     * this long after it was deferred, so that no kernel waits for ever.
     */
    private static final long DEFERRED_AT_THE_LATEST_NANOS = 5_000_000_000L;

    private CompilePool() {
    }

    /**
     * Runs {@code compilation} on the pool once the apply running on this thread has ended
     * ({@link AfterApply}: {@link AfterApply#AFTER_APPLY_NANOS} after it); the future completes when it has run. For tiered applies
     * that no kernel takes over (reductions, scans, filters, keyed reductions, fused maps): their Java
     * threads keep every core.
     */
    static CompletableFuture<Void> submitAfterApply(Runnable compilation) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable start = () -> {
            if (started.compareAndSet(false, true)) {
                submit(compilation).whenComplete((ignored, failure) -> done.complete(null));
            }
        };
        AfterApply.defer(start);
        CompletableFuture.delayedExecutor(DEFERRED_AT_THE_LATEST_NANOS, TimeUnit.NANOSECONDS).execute(start);
        return done;
    }

    /** Runs {@code compilation} on the pool; the future completes (normally) when it has, whatever it did. */
    static CompletableFuture<Void> submit(Runnable compilation) {
        return submit(compilation, 0);
    }

    /** {@link #submit(Runnable)}, starting {@code delayNanos} from now at the earliest. */
    static CompletableFuture<Void> submit(Runnable compilation, long delayNanos) {
        java.util.concurrent.Executor pool = delayNanos > 0 ? CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, POOL) : POOL;
        return CompletableFuture.runAsync(() -> {
            long start = System.nanoTime();
            try {
                compilation.run();
            } catch (RuntimeException | LinkageError e) {
                // the apply that next asks for the kernel compiles (or fails) where it can say why
            }
            lastCompilationNanos = System.nanoTime() - start;
        }, pool);
    }

    /**
     * How long the next background compilation (with its program's build) is expected to take: the
     * last one's time, or a guess before the first. Tiering starts a compilation during a first
     * apply only when Java threads would still be busy for longer than this.
     */
    static long expectedNanos() {
        return lastCompilationNanos;
    }

    /** The pool's threads: as many compilations run at once. */
    static int threads() {
        return THREADS;
    }
}
