package jpai.runtime;

import java.util.function.Function;
import java.util.function.Supplier;

import jpai.DataType;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.ClaimedChunks;
import jpai.runtime.exec.JavaMap;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * Tiering's first apply of a map ({@code -Djpai.tiering=true}, {@code AUTO} only), whose kernel is
 * not compiled yet: Java threads run it in chunks claimed in order; the kernel's compilation starts
 * on the {@link CompilePool} as soon as Java threads look busy for well over what a compilation takes
 * ({@link CompilePool#expectedNanos()}), or after they are done, for the next apply; and once the
 * kernel is ready the device takes over every chunk not claimed yet, while the threads finish theirs.
 *
 * <p>The device takes over only a kernel whose results are the JVM's, bit for bit
 * ({@link KernelCache.Compiled#differsFromJvm()} null: no {@code Math} function Java leaves open,
 * no fast math), so that no array holds results of two roundings; any other stays on Java threads
 * for this apply. A short map simply finishes in Java. After a kernel exit in the device's part,
 * Java runs the elements from the exit on, as after any map kernel's exit; a Java exception in the
 * threads' part is the one thrown (it lies before every element of the device's part).
 */
final class TieredMap implements ClaimedChunks.Takeover {

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

    private final KernelCache kernels;
    private final DataType inputType;
    private final DataType outputType;
    private final int[] indexSpace;
    /** The index space's dimensions, 0 for a map read from buffers (the kernel cache's key). */
    private final int dimensions;
    private final DeviceChoice.OpenCL device;
    private final PArray<?> input;
    private final PArray<?> output;
    private final Supplier<String> operation;
    private boolean compilationStarted;
    /** Why the device does not take over this apply, once known. */
    private String declined;
    private KernelCache.Compiled kernel;
    /** With a kernel given: how long Java threads run before the device takes over; else -1. */
    private final long budgetNanos;

    private TieredMap(KernelCache kernels, DeviceChoice.OpenCL device, PArray<?> input, PArray<?> output, int[] indexSpace, Supplier<String> operation,
                    KernelCache.Compiled kernel, long budgetNanos) {
        this.kernel = kernel;
        this.budgetNanos = budgetNanos;
        this.kernels = kernels;
        this.inputType = input.type();
        this.outputType = output.type();
        this.indexSpace = indexSpace;
        this.dimensions = indexSpace == null ? 0 : indexSpace.length;
        this.device = device;
        this.input = input;
        this.output = output;
        this.operation = operation;
    }

    /**
     * Runs the map of {@code function} over {@code input} into {@code output} as the class says; every
     * element of {@code output} holds Java's result when it returns. Throws the sequential loop's
     * exception.
     */
    static <T, R> ClaimedChunks.Outcome run(Function<T, R> function, KernelCache kernels, DeviceChoice.OpenCL device, PArray<T> input, PArray<R> output, int[] indexSpace,
                    Supplier<String> operation) {
        TieredMap tiered = new TieredMap(kernels, device, input, output, indexSpace, operation, null, -1);
        Offload.ranTiered(operation);
        ClaimedChunks.Outcome outcome;
        boolean startedDuringApply;
        try {
            outcome = JavaMap.threadsUntilTakenOver(function, input, output, DeviceMap.rowLength(indexSpace), tiered);
        } finally {
            startedDuringApply = tiered.compilationStarted;
            AfterApply.defer(() -> tiered.startCompilation(CompilePool.AFTER_APPLY_NANOS)); // for the next apply, if this one never needed it
        }
        if (outcome.tookOver()) {
            Profiler.device("Java threads, then " + device.device().name() + " (tiering)");
            Explain.tieredTakeover(() -> operation.get() + ": elements 0 to " + (outcome.takenOverFrom() - 1) + " ran on Java threads while its kernel compiled, "
                            + outcome.takenOverFrom() + " to " + (outcome.takeoverRanUpTo() - 1) + " on the device");
        } else if (tiered.declined != null) {
            Explain.tieredTakeover(() -> operation.get() + ": the device did not take over the rest of its first apply, because " + tiered.declined);
        } else if (startedDuringApply) {
            Explain.tieredTakeover(() -> operation.get() + ": the device did not take over the rest of its first apply: Java threads finished before its kernel was ready");
        }
        return outcome;
    }

    /**
     * Runs the map on Java threads for {@code budgetNanos}, then has {@code kernel} (compiled, its
     * bits the JVM's) take over the elements not started; every element holds Java's result when it
     * returns. For the cost model's measure of Java threads' pace.
     */
    static <T, R> ClaimedChunks.Outcome shareAfter(Function<T, R> function, KernelCache kernels, KernelCache.Compiled kernel, long budgetNanos, DeviceChoice.OpenCL device,
                    PArray<T> input, PArray<R> output, int[] indexSpace, Supplier<String> operation) {
        TieredMap shared = new TieredMap(kernels, device, input, output, indexSpace, operation, kernel, budgetNanos);
        return JavaMap.threadsUntilTakenOver(function, input, output, DeviceMap.rowLength(indexSpace), shared);
    }

    @Override
    public boolean wants(long elapsedNanos, long claimed, long length) {
        if (budgetNanos >= 0) {
            return declined == null && elapsedNanos >= budgetNanos;
        }
        if (declined != null) {
            return false;
        }
        if (compilationStarted) {
            KernelCache.Compiled ready = kernels.mapKernelIfReady(inputType, outputType, dimensions);
            if (ready == null) {
                return false;
            }
            if (ready.bailout() != null) {
                declined = "it has no kernel: " + ready.bailout();
                return false;
            }
            if (ready.differsFromJvm() != null) {
                declined = ready.differsFromJvm() + ", and one array must not hold results of both";
                return false;
            }
            kernel = ready;
            return true;
        }
        // Java threads' time left, from their pace over the last PACE_WINDOW_NANOS (claimed chunks
        // count as done: a guess on the short side), judged only once the pace has settled: the
        // first chunks run in the interpreter and C1's code, whose pace would start a compilation,
        // which then competes for the cores, for a map that ends before it
        if (elapsedNanos >= PACE_AFTER_NANOS) {
            if (windowStart < 0) {
                windowStart = elapsedNanos;
                windowClaimed = claimed;
            } else if (elapsedNanos - windowStart >= PACE_WINDOW_NANOS && claimed > windowClaimed) {
                double pace = (double) (claimed - windowClaimed) / (elapsedNanos - windowStart); // elements per nanosecond
                boolean settled = lastPace > 0 && pace <= SETTLED_PACE_GAIN * lastPace;
                double left = (length - claimed) / pace;
                lastPace = pace;
                windowStart = elapsedNanos;
                windowClaimed = claimed;
                if (settled && left > COMPILE_MARGIN * CompilePool.expectedNanos()) {
                    startCompilation(0);
                    Explain.tieredTakeover(() -> operation.get() + ": its kernel's compilation started " + elapsedNanos / 1_000_000 + " ms into its first apply, when Java threads' pace said "
                                    + (long) (left / 1e6) + " ms were left (a compilation is expected to take " + CompilePool.expectedNanos() / 1_000_000 + " ms)");
                }
            }
        }
        return false;
    }

    @Override
    public long run(long first, long length) {
        try {
            DeviceMap.runFrom(device, kernel, input, output, indexSpace, first);
            return length;
        } catch (KernelDeoptimizedException e) {
            long from = e.kernelExited() ? Math.max(first, e.element()) : first;
            KernelExits.handle(operation.get(), e, "elements " + from + " to " + (length - 1) + " re-ran in Java", length - from, kernels);
            return from;
        } catch (OpenCLRuntimeException e) {
            declined = "its launch failed: " + e.getMessage();
            Profiler.fellBack(e.getMessage());
            return first;
        }
    }

    /**
     * While the kernel compiles during the apply, the compile pool's threads and one more (HotSpot
     * compiling Graal's own code, cold in a fresh JVM) get cores of their own: with every core
     * mapping, the compilation took longer than the whole map on the H100's host.
     */
    @Override
    public int workersToRetire() {
        return compilationStarted && budgetNanos < 0 && kernel == null && declined == null
                        ? Math.min(CompilePool.threads() + 1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() - 1)
                        : 0;
    }

    private void startCompilation(long delayNanos) {
        if (!compilationStarted && budgetNanos < 0) {
            compilationStarted = true;
            kernels.startMapCompilation(inputType, outputType, dimensions, () -> OpenCLRuntime.context(device), delayNanos);
        }
    }
}
