package jpai.runtime;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * A map followed by a reduce, fused (as Parakeet fuses its map chains): on the device one kernel
 * maps each element and folds the results, so the mapped array is never stored; the pipeline makes
 * this stage of {@code map(f).reduce(op, identity)} when both run on the device. Where the fused
 * kernel cannot run, the two stages run one after the other as written, with their own fallbacks.
 *
 * <p>Immutable and thread-safe.
 */
final class MapReduceFunction<T, M> implements ArrayFunction<T, M> {

    private final MapFunction<T, M> map;
    private final ReduceFunction<M> reduce;
    /** {@code AUTO}'s measured times of the fused operation on either side ({@link JpaiOptions#COST_MODEL}). */
    private final CostModel costs = new CostModel();

    /** The devices an apply is split over ({@code on(Devices)}), or null for one device. */
    private final SplitReduce split;

    MapReduceFunction(MapFunction<T, M> map, ReduceFunction<M> reduce) {
        this(map, reduce, null);
    }

    private MapReduceFunction(MapFunction<T, M> map, ReduceFunction<M> reduce, SplitReduce split) {
        this.map = map;
        this.reduce = reduce;
        this.split = split;
    }

    /** True when {@code map} then {@code reduce} may be fused: both may use the device. */
    static boolean fusible(ArrayFunction<?, ?> first, ArrayFunction<?, ?> second) {
        return first instanceof MapFunction<?, ?> map && second instanceof ReduceFunction<?> reduce && !map.isSplit() && !reduce.isSplit() && onDevice(map.executor()) && onDevice(reduce.executor());
    }

    private static boolean onDevice(Executor executor) {
        return executor == Executor.AUTO || executor == Executor.ACCELERATOR;
    }

    @Override
    public PArray<M> apply(PArray<T> input) {
        Inputs.check(input, "map then reduce");
        if (split != null) {
            return applySplit(input);
        }
        DeviceChoice.OpenCL device = Offload.device(reduce.executor(), () -> toString());
        if (device == null || input.length() == 0) {
            return unfused(input);
        }
        Profiler.begin(map.kernels().labelForProfiles("map then reduce of "));
        try {
            KernelCache.Compiled compiled;
            if (Offload.mayTier(reduce.executor())) {
                compiled = reduce.kernels().forReduceWithoutWaiting(reduce.type(), map.kernels(), input.type(), () -> OpenCLRuntime.context(device));
                if (compiled == null) {
                    // on Java threads, as the device would: the reduction has one combining tree for every executor
                    Offload.ranTiered(this::toString);
                    return onJavaThreads(input);
                }
            } else {
                compiled = reduce.kernels().forReduce(reduce.type(), map.kernels(), input.type());
            }
            if (compiled.bailout() != null) {
                Explain.fallback(toString() + " as one kernel", compiled.bailout() + "; the map and the reduce run one after the other");
                return unfused(input);
            }
            if (Offload.javaByCost(reduce.executor(), costs, input.length(), this::toString)) {
                return onJavaThreads(input); // one value: never shared
            }
            try {
                KernelCache.Compiled partials = reduce.kernels().forReduce(reduce.type());
                if (partials.bailout() != null) {
                    throw new OpenCLRuntimeException("the combiner alone does not compile for the reduction's later passes: " + partials.bailout());
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(reduce.executor());
                M result = DeviceReduce.run(device, compiled, partials, reduce.identity(), reduce.type(), input);
                costs.deviceRan(input.length(), timed);
                return reduce.resultArray(result);
            } catch (KernelDeoptimizedException e) {
                KernelExits.handle(toString(), e, "the operation re-ran in Java", input.length(), map.kernels(), reduce.kernels());
            } catch (OpenCLRuntimeException e) {
                Offload.fallBack(toString(), e.getMessage());
            }
            return mapThenReduceOnJavaThreads(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    /** {@link #mapThenReduceOnJavaThreads}, timed for the cost model. */
    private PArray<M> onJavaThreads(PArray<T> input) {
        CostModel.Run timed = CostModel.Run.startIfModelled(reduce.executor());
        PArray<M> result = mapThenReduceOnJavaThreads(input);
        costs.javaRan(input.length(), timed);
        return result;
    }

    /** The map then the reduce on Java threads (the reduction with the device's combining tree), the mapped array in plain memory: read by Java alone. */
    private PArray<M> mapThenReduceOnJavaThreads(PArray<T> input) {
        try (PArray<M> mapped = map.applyOnJavaThreadsInPlainMemory(input)) {
            return reduce.on(Executor.THREADS).apply(mapped);
        }
    }

    private PArray<M> unfused(PArray<T> input) {
        try (PArray<M> mapped = map.apply(input)) {
            return reduce.apply(mapped);
        }
    }

    @Override
    public ArrayFunction<T, M> on(Executor executor) {
        return Pipeline.of(map.on(executor), reduce.on(executor)); // fused again where both may use the device
    }

    /** The fused map then reduce split over {@code devices} ({@link SplitReduce}): each device maps and reduces its part in one kernel. */
    @Override
    public ArrayFunction<T, M> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        return split != null && split.devices().equals(devices) ? this : new MapReduceFunction<>(map, reduce, new SplitReduce(devices));
    }

    @SuppressWarnings("unchecked")
    private PArray<M> applySplit(PArray<T> input) {
        Profiler.begin(map.kernels().labelForProfiles("map then reduce of "));
        try {
            KernelCache.Compiled compiled = reduce.kernels().forReduce(reduce.type(), map.kernels(), input.type());
            if (compiled.bailout() == null) {
                Object result = split.run(compiled, reduce.identity(), reduce.type(), (java.util.function.BinaryOperator<Object>) reduce.operator(), input, this::toString,
                                map.kernels(), reduce.kernels());
                if (result != null) {
                    return reduce.resultArray((M) result);
                }
            } else {
                Offload.fallBack(toString(), compiled.bailout());
            }
            return mapThenReduceOnJavaThreads(input);
        } finally {
            Profiler.end();
        }
    }

    /** The two stages, unfused. */
    java.util.List<ArrayFunction<?, ?>> stages() {
        return java.util.List.of(map, reduce);
    }

    @Override
    public String toString() {
        return map + " then " + reduce + (split != null ? " on " + split.devices() : "");
    }
}
