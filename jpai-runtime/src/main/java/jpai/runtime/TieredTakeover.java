package jpai.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import jpai.runtime.exec.ClaimedChunks;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * What a tiered first apply ({@link TieredMap}, {@link TieredReduce}) decides between its Java
 * threads' chunks: when its kernel's compilation starts ({@link TieringPace}), and whether the kernel,
 * once ready, may take over the elements not claimed yet: it must be a kernel, and its bits the
 * JVM's ({@link KernelCache.Compiled#differsFromJvm()} null), since its results and Java's end up
 * side by side. The subclass says where the kernel comes from and runs the device's part.
 */
public abstract class TieredTakeover implements ClaimedChunks.Takeover {

    /**
     * {@code -Djpai.test.tieringWaitsForKernel=true}, for tests only: a tiered apply starts its
     * kernel's compilation at its first decision and waits there until the compilation has ended
     * (at most a minute), so that the decision on the ready kernel is made during the apply on any
     * machine, however slow its compiler, instead of depending on the race between the compilation
     * and the Java threads.
     */
    public static final String WAIT_FOR_KERNEL = "jpai.test.tieringWaitsForKernel";
    private static final long LONGEST_TEST_WAIT_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final AtomicLong DECLINED_FOR_BITS = new AtomicLong();

    private final TieringPace pace = new TieringPace();
    final Supplier<String> operation;
    /** Why the results of the two sides must not differ ("one array must not hold results of both"). */
    private final String whyTheSameBits;
    private boolean compilationStarted;
    /** Why the device does not take over this apply, once known. */
    String declined;
    /** The kernel that takes over, once ready and allowed. */
    KernelCache.Compiled kernel;

    TieredTakeover(Supplier<String> operation, String whyTheSameBits, KernelCache.Compiled kernel) {
        this.operation = operation;
        this.whyTheSameBits = whyTheSameBits;
        this.kernel = kernel;
    }

    /** The device's launch failed: it takes nothing over, and the profile records the fallback. */
    void launchFailed(OpenCLRuntimeException e) {
        declined = "its launch failed: " + e.getMessage();
        Profiler.fellBack(e.getMessage());
    }

    /** The kernel when it was compiled before or its background compilation has ended; else null. */
    abstract KernelCache.Compiled readyKernel();

    /** Starts the kernel's background compilation (and its program's build), {@code delayNanos} from now, unless started before. */
    abstract void compile(long delayNanos);

    /**
     * Tiered applies that found their kernel ready and declined it because its bits may differ from
     * the JVM's, since the JVM started (for tests: the evidence that nothing else kept it out).
     */
    public static long declinedForTheirBits() {
        return DECLINED_FOR_BITS.get();
    }

    @Override
    public boolean wants(long elapsedNanos, long claimed, long length) {
        if (declined != null) {
            return false;
        }
        if (Boolean.getBoolean(WAIT_FOR_KERNEL)) {
            startCompilation(0);
            long giveUpAt = System.nanoTime() + LONGEST_TEST_WAIT_NANOS;
            while (readyKernel() == null && System.nanoTime() < giveUpAt) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
        if (compilationStarted) {
            KernelCache.Compiled ready = readyKernel();
            if (ready == null) {
                return false;
            }
            if (ready.bailout() != null) {
                declined = "it has no kernel: " + ready.bailout();
            } else if (ready.differsFromJvm() != null) {
                declined = ready.differsFromJvm() + ", and " + whyTheSameBits;
                DECLINED_FOR_BITS.incrementAndGet();
            } else {
                kernel = ready;
                return true;
            }
            return false;
        }
        if (pace.compilationDue(elapsedNanos, claimed, length, operation)) {
            startCompilation(0);
        }
        return false;
    }

    /** While the kernel compiles during the apply, cores are left to it ({@link TieringPace#workersLeftToACompilation}). */
    @Override
    public int workersToRetire() {
        return compilationStarted && kernel == null && declined == null ? TieringPace.workersLeftToACompilation() : 0;
    }

    /** Starts the compilation once: during the apply when the pace says so, else after it (deferred), for the next apply. */
    final void startCompilation(long delayNanos) {
        if (!compilationStarted) {
            compilationStarted = true;
            compile(delayNanos);
        }
    }

    /**
     * Says (to explain) why the device did not take over the rest of the first apply, when it did
     * not: it declined the kernel, or Java threads finished first although the compilation started
     * during the apply. Called when the apply's Java threads are done and before the apply ends: a
     * compilation started then started during the apply (the deferred start waits for its end).
     */
    final void explainNoTakeover() {
        if (declined != null) {
            Explain.tieredTakeover(() -> operation.get() + ": the device did not take over the rest of its first apply, because " + declined);
        } else if (compilationStarted) {
            Explain.tieredTakeover(() -> operation.get() + ": the device did not take over the rest of its first apply: Java threads finished before its kernel was ready");
        }
    }
}
