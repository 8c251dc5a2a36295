package jpai.runtime;

import java.util.Objects;
import java.util.function.Predicate;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaFilter;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.filter(predicate)}: the elements for which the predicate holds, in their order; the
 * result's length is known only once the predicate has seen every element. The predicate runs once
 * per element: on the device inside one kernel that also ranks and writes the kept elements
 * ({@link DeviceFilter}), or, on a device without 64-bit atomics (or with
 * {@code -Djpai.filter.singlePass=false}), as a map to one flag per element ({@link DeviceMap}),
 * after which {@link DeviceCompaction} counts, sums and scatters the kept elements in order; on the
 * JVM by {@link JavaFilter}.
 * Java's exception at Java's element: a kernel that meets an exception path re-runs in Java.
 *
 * <p>Immutable and thread-safe.
 */
public final class FilterFunction<T> implements ArrayFunction<T, T> {

    private final Predicate<T> predicate;
    private final KernelCache kernels;
    /** {@code AUTO}'s measured times of this filter on either side ({@link JpaiOptions#COST_MODEL}), shared by its placements. */
    private final CostModel costs;
    private final Executor executor;

    public FilterFunction(Predicate<T> predicate) {
        this(predicate, new KernelCache(predicate), new CostModel(), Executor.AUTO);
    }

    private FilterFunction(Predicate<T> predicate, KernelCache kernels, CostModel costs, Executor executor) {
        this.predicate = predicate;
        this.kernels = kernels;
        this.costs = costs;
        this.executor = executor;
    }

    @Override
    public PArray<T> apply(PArray<T> input) {
        Inputs.check(input, "filter");
        Profiler.begin(kernels.labelForProfiles("filter of "));
        try {
            return switch (executor) {
                case SEQUENTIAL -> JavaFilter.run(predicate, input, false);
                case THREADS -> JavaFilter.run(predicate, input, true);
                case AUTO, ACCELERATOR -> {
                    PArray<T> onDevice = runOnDevice(input);
                    if (onDevice != null) {
                        yield onDevice;
                    }
                    CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                    PArray<T> inJava = JavaFilter.run(predicate, input, true);
                    costs.javaRan(input.length(), timed); // Java's pace, for the cost model
                    yield inJava;
                }
            };
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    /** The kept elements, the predicate evaluated on the device; null (after saying why) when Java must run it. */
    @SuppressWarnings("unchecked")
    private PArray<T> runOnDevice(PArray<T> input) {
        return runOnDevice(input, FusedMappers.none(input.type()));
    }

    /**
     * The kept elements of those {@code mappers} make of {@code input}'s (maps fused before the filter:
     * {@link MapFilterFunction}), computed with the device; null (after saying why) when Java must run
     * it or is chosen, or, with maps, where the filter runs in several passes (their kernels take no maps).
     */
    @SuppressWarnings("unchecked")
    PArray<T> runOnDevice(PArray<?> input, FusedMappers mappers) {
        String operation = MapsFusedInto.operation(mappers, "filter of " + kernels.description());
        DeviceChoice.OpenCL device = Offload.device(executor, () -> operation);
        if (device == null) {
            return null;
        }
        boolean singlePass = DeviceFilter.applies(device);
        if (!singlePass && !mappers.isEmpty()) {
            return null; // the maps run first, as written
        }
        DataType type = mappers.elementType();
        if (Offload.mayTier(executor) && mappers.isEmpty()) {
            // no maps before it: its first apply is a map of the predicate to flags, which the device may take over
            if (!kernels.filterCompiledInBackground(type, singlePass)) {
                return tiered((PArray<T>) input, device, TieredMap.Kernels.predicate(kernels, type, singlePass), operation);
            }
        } else if (Offload.mayTier(executor) && !kernels.compiledInBackground(java.util.List.of(singlePass ? "filter" : "predicate", mappers),
                        () -> java.util.List.of(singlePass ? kernels.forFilter(mappers) : kernels.forPredicate(type)),
                        () -> jpai.runtime.opencl.OpenCLRuntime.context(device))) {
            Offload.ranTiered(() -> operation);
            return null;
        }
        KernelCache.Compiled compiled = singlePass ? kernels.forFilter(mappers) : kernels.forPredicate(type);
        String reason = compiled.bailout();
        if (reason == null) {
            if (Offload.javaByCost(executor, costs, input.length(), () -> operation)) {
                return null;
            }
            CostModel.Run timed = CostModel.Run.startIfModelled(executor);
            try {
                PArray<T> result = singlePass ? DeviceFilter.run(device, compiled, input, type) : flagsThenCompaction(device, compiled, (PArray<T>) input);
                costs.deviceRan(input.length(), timed);
                return result;
            } catch (KernelDeoptimizedException e) {
                if (e.reason() == jpai.ocl.DeoptReason.NO_FORWARD_PROGRESS && singlePass) {
                    SinglePass.gaveUp(device, operation);
                    return runOnDevice(input, mappers); // in several passes now
                }
                Offload.deoptimized(operation, e.getMessage() + MapsFusedInto.unfusedNote(mappers, "filter"), true);
                return null;
            } catch (OpenCLRuntimeException e) {
                reason = e.getMessage();
            }
        }
        MapsFusedInto.didNotRun(operation, reason, mappers, "filter");
        return null;
    }

    /**
     * Tiering's first apply ({@link TieredMap}): Java threads evaluate the predicate into flags in
     * chunks claimed in order, and the predicate's map kernel takes over the elements not started
     * once ready (its bits, true or false, the JVM's); the kept elements are then gathered on Java
     * threads. The exception is the sequential loop's, as a filter's always is.
     */
    @SuppressWarnings("unchecked")
    private PArray<T> tiered(PArray<T> input, DeviceChoice.OpenCL device, TieredMap.Kernels predicateKernels, String operation) {
        try (PArray<Boolean> kept = (PArray<Boolean>) jpai.runtime.memory.PArrayStorage.allocateUninitializedPlain(ElementType.BOOLEAN, input.length())) {
            TieredMap.run((T element) -> predicate.test(element), predicateKernels, device, input, kept, null, () -> operation);
            return JavaFilter.keptElements(input, kept);
        }
    }

    Executor executor() {
        return executor;
    }

    /** The predicate's map to flags ({@code compiled}), then {@link DeviceCompaction}'s kernels. */
    @SuppressWarnings("unchecked")
    private static <T> PArray<T> flagsThenCompaction(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<T> input) {
        try (PArray<Boolean> kept = (PArray<Boolean>) PArray.allocateUninitialized(ElementType.BOOLEAN, input.length())) {
            DeviceMap.run(device, compiled, input, kept, null, null);
            return DeviceCompaction.run(device, input, kept);
        }
    }

    @Override
    public ArrayFunction<T, T> on(Executor where) {
        return where == executor ? this : new FilterFunction<>(predicate, kernels, costs, Objects.requireNonNull(where, "on: the executor is null"));
    }

    /** Only maps split over several devices so far. */
    @Override
    public ArrayFunction<T, T> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        throw new UnsupportedOperationException(this + ": a filter does not split over several devices yet; only maps and reductions do (apply it on one device, or split the maps before it)");
    }

    @Override
    public String toString() {
        return "filter of " + kernels.description() + (executor == Executor.AUTO ? "" : " on " + executor);
    }
}
