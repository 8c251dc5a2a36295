package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * One or more maps followed by a reduce, fused (as Parakeet fuses its map chains): on the device one
 * kernel maps each element through every map and folds the results, so no mapped array is ever
 * stored; the pipeline makes this stage of {@code map(f).map(g).reduce(op, identity)} when all may
 * use the device. Where the fused kernel cannot run, the stages run one after the other as written,
 * with their own fallbacks (after a kernel exit, the maps on Java threads and then the reduction,
 * whose one combining tree gives the device's bits).
 *
 * <p>Immutable and thread-safe.
 */
final class MapReduceFunction<T, M> implements ArrayFunction<T, M> {

    private final List<MapFunction<?, ?>> maps;
    private final ReduceFunction<M> reduce;
    /** {@code AUTO}'s measured times of the fused operation on either side ({@link JpaiOptions#COST_MODEL}). */
    private final CostModel costs = new CostModel();

    /** The devices an apply is split over ({@code on(Devices)}), or null for one device. */
    private final SplitReduce split;
    /** {@link #partialsKernel}, made once rather than per apply. */
    private final Supplier<KernelCache.Compiled> partials = this::partialsKernel;

    MapReduceFunction(List<MapFunction<?, ?>> maps, ReduceFunction<M> reduce) {
        this(maps, reduce, null);
    }

    private MapReduceFunction(List<MapFunction<?, ?>> maps, ReduceFunction<M> reduce, SplitReduce split) {
        if (maps.isEmpty()) {
            throw new IllegalArgumentException("a fused map then reduce has at least one map");
        }
        this.maps = List.copyOf(maps);
        this.reduce = reduce;
        this.split = split;
    }

    /** True when {@code maps} then {@code next} may be fused: a reduce, and all may use the device. */
    static boolean fusible(List<MapFunction<?, ?>> maps, ArrayFunction<?, ?> next) {
        return !maps.isEmpty() && next instanceof ReduceFunction<?> reduce && !reduce.isSplit() && onDevice(reduce.executor()) && maps.stream().allMatch(FusedMapFunction::fusible);
    }

    private static boolean onDevice(Executor executor) {
        return executor == Executor.AUTO || executor == Executor.ACCELERATOR;
    }

    private KernelCache[] kernels() {
        KernelCache[] all = new KernelCache[maps.size() + 1];
        for (int k = 0; k < maps.size(); k++) {
            all[k] = maps.get(k).kernels();
        }
        all[maps.size()] = reduce.kernels();
        return all;
    }

    @Override
    public PArray<M> apply(PArray<T> input) {
        Inputs.check(input, "map then reduce");
        if (split != null) {
            return applySplit(input);
        }
        DeviceChoice.OpenCL device = Offload.device(reduce.executor(), () -> toString());
        if (device == null || input.length() == 0 || (maps.size() > 1 && !JpaiOptions.fusion())) {
            return unfused(input);
        }
        Profiler.begin(maps.get(0).kernels().labelForProfiles("map then reduce of "));
        try {
            FusedMappers mappers = FusedMappers.of(maps, input, reduce.type());
            if (mappers == null) {
                return unfused(input);
            }
            KernelCache.Compiled compiled;
            if (Offload.mayTier(reduce.executor())) {
                compiled = reduce.kernels().reduceKernelIfReady(reduce.type(), mappers);
                if (compiled == null) {
                    // on Java threads, as the device would (the reduction has one combining tree for every executor), and the device may take over the rest
                    TieredReduce.Result tiered = TieredReduce.run(reduce.operator(), reduce.identity(), reduce.type(), MapChainInJava.of(maps, mappers.types()), mappers,
                                    reduce.kernels(), device, input, this::toString, () -> {
                                        try (PArray<M> unfused = mapThenReduceOnJavaThreads(input)) {
                                            return unfused.get(0);
                                        }
                                    }, kernels());
                    costs.javaRanTiered(reduce.executor(), tiered.outcome()); // Java's first pace, for the cost model
                    @SuppressWarnings("unchecked")
                    M value = (M) tiered.value();
                    return reduce.resultArray(value);
                }
            } else {
                compiled = reduce.kernels().forReduce(reduce.type(), mappers);
            }
            if (compiled.bailout() != null) {
                Explain.fallback(toString() + " as one kernel", compiled.bailout() + "; the maps and the reduce run one after the other");
                return unfused(input);
            }
            if (Offload.javaByCost(reduce.executor(), costs, input.length(), this::toString)) {
                return onJavaThreads(input); // one value: never shared
            }
            try {
                CostModel.Run timed = CostModel.Run.startIfModelled(reduce.executor());
                M result = DeviceReduce.run(device, compiled, partials, reduce.operator(), reduce.identity(), reduce.type(), input, this);
                costs.deviceRan(input.length(), timed);
                return reduce.resultArray(result);
            } catch (KernelDeoptimizedException e) {
                KernelExits.handle(toString(), e, "the operation re-ran in Java", input.length(), kernels());
            } catch (OpenCLRuntimeException e) {
                Offload.fallBack(toString(), e.getMessage());
            }
            return mapThenReduceOnJavaThreads(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    /**
     * The kernel of the passes after the first, the combiner's own: looked up only by an apply that
     * needs a second pass (most leave at most {@link DeviceReduce#HOST_COMBINED_NODES} values after
     * the first, which the host combines).
     *
     * @throws OpenCLRuntimeException if the combiner alone does not compile
     */
    private KernelCache.Compiled partialsKernel() {
        KernelCache.Compiled partials = reduce.kernels().forReduce(reduce.type());
        if (partials.bailout() != null) {
            throw new OpenCLRuntimeException("the combiner alone does not compile for the reduction's later passes: " + partials.bailout());
        }
        return partials;
    }

    /** {@link #mapThenReduceOnJavaThreads}, timed for the cost model. */
    private PArray<M> onJavaThreads(PArray<T> input) {
        CostModel.Run timed = CostModel.Run.startIfModelled(reduce.executor());
        PArray<M> result = mapThenReduceOnJavaThreads(input);
        costs.javaRan(input.length(), timed);
        return result;
    }

    /**
     * The maps then the reduce on Java threads (the reduction with the device's combining tree), the
     * mapped arrays in plain memory: read by Java alone. Java's exception is the first failing
     * element of the first failing map, as unfused.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<M> mapThenReduceOnJavaThreads(PArray<T> input) {
        try (PArray<M> mapped = Pipeline.inTurn(maps, input, (MapFunction map, PArray in) -> map.applyOnJavaThreadsInPlainMemory(in))) {
            return reduce.on(Executor.THREADS).apply(mapped);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<M> unfused(PArray<T> input) {
        try (PArray<M> mapped = Pipeline.inTurn(maps, input)) {
            return reduce.apply(mapped);
        }
    }

    @Override
    public ArrayFunction<T, M> on(Executor executor) {
        return Pipeline.placedOn(stages(), executor); // fused again where all may use the device
    }

    /** The fused maps then reduce split over {@code devices} ({@link SplitReduce}): each device maps and reduces its part in one kernel. */
    @Override
    public ArrayFunction<T, M> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        return split != null && split.devices().equals(devices) ? this : new MapReduceFunction<>(maps, reduce, new SplitReduce(devices));
    }

    @SuppressWarnings("unchecked")
    private PArray<M> applySplit(PArray<T> input) {
        Profiler.begin(maps.get(0).kernels().labelForProfiles("map then reduce of "));
        try {
            FusedMappers mappers = FusedMappers.of(maps, input, reduce.type());
            KernelCache.Compiled compiled = mappers == null ? null : reduce.kernels().forReduce(reduce.type(), mappers);
            if (compiled != null && compiled.bailout() == null) {
                Object result = split.run(compiled, reduce.identity(), reduce.type(), (java.util.function.BinaryOperator<Object>) reduce.operator(), input, this::toString, kernels());
                if (result != null) {
                    return reduce.resultArray((M) result);
                }
            } else {
                Offload.fallBack(toString(), compiled == null ? "a map's result type is not known from the first element" : compiled.bailout());
            }
            return mapThenReduceOnJavaThreads(input);
        } finally {
            Profiler.end();
        }
    }

    /** The stages, unfused. */
    List<ArrayFunction<?, ?>> stages() {
        List<ArrayFunction<?, ?>> all = new ArrayList<>(maps);
        all.add(reduce);
        return all;
    }

    @Override
    public String toString() {
        return Pipeline.describe(stages()) + (split != null ? " on " + split.devices() : "");
    }
}
