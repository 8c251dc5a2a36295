package jpai.runtime;

import java.util.List;
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
 * ({@link TieringPace}), or after they are done, for the next apply; and once the
 * kernel is ready the device takes over every chunk not claimed yet, while the threads finish theirs.
 *
 * <p>The device takes over only a kernel whose results are the JVM's, bit for bit
 * ({@link KernelCache.Compiled#differsFromJvm()} null: no {@code Math} function Java leaves open,
 * no fast math), so that no array holds results of two roundings; any other stays on Java threads
 * for this apply. A short map simply finishes in Java. After a kernel exit in the device's part,
 * Java runs the elements from the exit on, as after any map kernel's exit; a Java exception in the
 * threads' part is the one thrown (it lies before every element of the device's part).
 */
final class TieredMap extends TieredTakeover {

    /**
     * Where a tiered map's kernel comes from: a map's own kernel cache ({@link #of}), the first
     * stage's for maps fused into one kernel ({@link #fused}), or a filter's predicate as a map to
     * flags ({@link #predicate}).
     */
    interface Kernels {

        /** The kernel, when it was compiled before or its background compilation has ended; else null (starts nothing). */
        KernelCache.Compiled ifReady();

        /** Starts the kernel's background compilation, and its program's build on {@code context}, {@code delayNanos} from now, unless started before. */
        void startCompilation(Supplier<jpai.runtime.opencl.DeviceContext> context, long delayNanos);

        /** The caches of every function in the kernel, told of its exits. */
        KernelCache[] caches();

        /** {@code kernels}' map kernel from elements of {@code input} to {@code output} over an index space of {@code dimensions} (0: read from buffers). */
        static Kernels of(KernelCache kernels, DataType input, DataType output, int dimensions) {
            return new OneMap(kernels, input, output, dimensions);
        }

        /** A filter's predicate as a map to flags ({@link KernelCache#forPredicate}); {@code singlePass}: the device's later applies run the single-pass filter. */
        static Kernels predicate(KernelCache kernels, DataType input, boolean singlePass) {
            return new Predicate(kernels, input, singlePass);
        }

        /** The one kernel of maps fused ({@link KernelCache#forFusedMap}): {@code first}'s cache, the later stages' and the types. */
        static Kernels fused(KernelCache first, List<KernelCache> later, List<DataType> types, int dimensions) {
            return new FusedMaps(first, later, types, dimensions);
        }
    }

    private record OneMap(KernelCache kernels, DataType input, DataType output, int dimensions) implements Kernels {
        @Override
        public KernelCache.Compiled ifReady() {
            return kernels.mapKernelIfReady(input, output, dimensions);
        }

        @Override
        public void startCompilation(Supplier<jpai.runtime.opencl.DeviceContext> context, long delayNanos) {
            kernels.startMapCompilation(input, output, dimensions, context, delayNanos);
        }

        @Override
        public KernelCache[] caches() {
            return new KernelCache[] {kernels};
        }
    }

    private record Predicate(KernelCache kernels, DataType input, boolean singlePass) implements Kernels {
        @Override
        public KernelCache.Compiled ifReady() {
            return kernels.predicateKernelIfReady(input, singlePass);
        }

        @Override
        public void startCompilation(Supplier<jpai.runtime.opencl.DeviceContext> context, long delayNanos) {
            kernels.startFilterCompilation(input, singlePass, context, delayNanos);
        }

        @Override
        public KernelCache[] caches() {
            return new KernelCache[] {kernels};
        }
    }

    private record FusedMaps(KernelCache first, List<KernelCache> later, List<DataType> types, int dimensions) implements Kernels {
        @Override
        public KernelCache.Compiled ifReady() {
            return first.fusedMapKernelIfReady(later, types, dimensions);
        }

        @Override
        public void startCompilation(Supplier<jpai.runtime.opencl.DeviceContext> context, long delayNanos) {
            first.startFusedMapCompilation(later, types, dimensions, context, delayNanos);
        }

        @Override
        public KernelCache[] caches() {
            List<KernelCache> all = new java.util.ArrayList<>();
            all.add(first);
            all.addAll(later);
            return all.toArray(KernelCache[]::new);
        }
    }

    private final Kernels kernels;
    private final int[] indexSpace;
    private final DeviceChoice.OpenCL device;
    private final PArray<?> input;
    private final PArray<?> output;
    /** With a kernel given: how long Java threads run before the device takes over; else -1. */
    private final long budgetNanos;

    private TieredMap(Kernels kernels, DeviceChoice.OpenCL device, PArray<?> input, PArray<?> output, int[] indexSpace, Supplier<String> operation,
                    KernelCache.Compiled kernel, long budgetNanos) {
        super(operation, "one array must not hold results of both", kernel);
        this.budgetNanos = budgetNanos;
        this.kernels = kernels;
        this.indexSpace = indexSpace;
        this.device = device;
        this.input = input;
        this.output = output;
    }

    /**
     * Runs the map of {@code function} over {@code input} into {@code output} as the class says; every
     * element of {@code output} holds Java's result when it returns. Throws the sequential loop's
     * exception.
     */
    static <T, R> ClaimedChunks.Outcome run(Function<T, R> function, Kernels kernels, DeviceChoice.OpenCL device, PArray<T> input, PArray<R> output, int[] indexSpace,
                    Supplier<String> operation) {
        TieredMap tiered = new TieredMap(kernels, device, input, output, indexSpace, operation, null, -1);
        Offload.ranTiered(operation);
        ClaimedChunks.Outcome outcome;
        try {
            outcome = JavaMap.threadsUntilTakenOver(function, input, output, DeviceMap.rowLength(indexSpace), tiered);
        } finally {
            AfterApply.defer(() -> tiered.startCompilation(0)); // for the next apply, if this one never needed it
        }
        if (outcome.tookOver()) {
            Profiler.device("Java threads, then " + device.device().name() + " (tiering)");
            Explain.tieredTakeover(() -> operation.get() + ": elements 0 to " + (outcome.takenOverFrom() - 1) + " ran on Java threads while its kernel compiled, "
                            + outcome.takenOverFrom() + " to " + (outcome.takeoverRanUpTo() - 1) + " on the device");
        } else {
            tiered.explainNoTakeover();
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
        TieredMap shared = new TieredMap(Kernels.of(kernels, input.type(), output.type(), indexSpace == null ? 0 : indexSpace.length), device, input, output, indexSpace,
                        operation, kernel, budgetNanos);
        return JavaMap.threadsUntilTakenOver(function, input, output, DeviceMap.rowLength(indexSpace), shared);
    }

    @Override
    public boolean wants(long elapsedNanos, long claimed, long length) {
        if (budgetNanos >= 0) { // the cost model's share: the kernel is given, the budget says when
            return declined == null && elapsedNanos >= budgetNanos;
        }
        return super.wants(elapsedNanos, claimed, length);
    }

    @Override
    KernelCache.Compiled readyKernel() {
        return kernels.ifReady();
    }

    @Override
    public long run(long first, long length) {
        try {
            DeviceMap.runFrom(device, kernel, input, output, indexSpace, first);
            return length;
        } catch (KernelDeoptimizedException e) {
            long from = e.kernelExited() ? Math.max(first, e.element()) : first;
            KernelExits.handle(operation.get(), e, "elements " + from + " to " + (length - 1) + " re-ran in Java", length - from, kernels.caches());
            return from;
        } catch (OpenCLRuntimeException e) {
            launchFailed(e);
            return first;
        }
    }

    @Override
    void compile(long delayNanos) {
        kernels.startCompilation(() -> OpenCLRuntime.context(device), delayNanos);
    }
}
