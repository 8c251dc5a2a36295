package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.HostReadHint;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * Two or more maps in a row, fused: on the device one kernel computes {@code fk(...f0(in[i]))} for
 * each element, so no intermediate array exists ({@code OpenCLKernelGenerator.fusedMap}). The
 * pipeline makes this stage of {@code map(f).map(g)...} when every map may use the device.
 *
 * <p>Java runs each stage over the whole array before the next, so its exception is the first
 * failing element of the first failing stage; a fused kernel finds the lowest failing element of
 * any stage (and so do a tiered first apply's element-wise maps: {@link #tiered}). So after any exit, and wherever the fused kernel cannot run ({@code -Djpai.fusion=false}
 * included), the maps run one after the other as written, each with its own device and fallbacks:
 * exactly the unfused behaviour.
 *
 * <p>Immutable and thread-safe.
 */
final class FusedMapFunction<T, R> implements ArrayFunction<T, R> {

    private final List<MapFunction<?, ?>> maps;
    private final List<KernelCache> laterKernels;
    /** Whether the caller reads the fused results on the host (then the device copies them back in the launch). */
    private final HostReadHint resultReads = new HostReadHint();

    FusedMapFunction(List<MapFunction<?, ?>> maps) {
        this.maps = List.copyOf(maps);
        List<KernelCache> later = new ArrayList<>();
        for (MapFunction<?, ?> map : this.maps.subList(1, this.maps.size())) {
            later.add(map.kernels());
        }
        this.laterKernels = List.copyOf(later);
    }

    /** True when {@code function} may be a stage of a fused map: a map that may use the device. */
    static boolean fusible(ArrayFunction<?, ?> function) {
        return function instanceof MapFunction<?, ?> map && !map.isSplit() && (map.executor() == Executor.AUTO || map.executor() == Executor.ACCELERATOR); // a split map runs alone, in parts
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "fused maps");
        Profiler.begin(maps.get(0).kernels().labelForProfiles("fused maps of "));
        try {
            return applyProfiled(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<R> applyProfiled(PArray<T> input) {
        if (!JpaiOptions.fusion() || input.length() == 0) {
            return unfused(input);
        }
        MapFunction<?, ?> first = maps.get(0);
        DeviceChoice.OpenCL device = Offload.device(first.executor(), this::toString);
        if (device == null) {
            return unfused(input);
        }
        int[] indexSpace = PArrayStorage.rangeExtents(input);
        if (indexSpace != null && indexSpace.length > 1) {
            Explain.fallback(toString() + " as one kernel", "a fused map over a " + indexSpace.length + "-D index space is not made; the maps run one after the other");
            return unfused(input);
        }
        List<DataType> types = types(input);
        if (types == null) {
            return unfused(input);
        }
        {
            KernelCache.Compiled compiled;
            if (Offload.mayTier(first.executor())) {
                compiled = first.kernels().fusedMapKernelIfReady(laterKernels, types, indexSpace == null ? 0 : 1);
                if (compiled == null) {
                    return (PArray<R>) tiered(input, device, types, indexSpace);
                }
            } else {
                compiled = first.kernels().forFusedMap(laterKernels, types, indexSpace == null ? 0 : 1);
            }
            String reason = compiled.bailout();
            if (reason == null) {
                PArray output = PArray.allocateUninitialized(types.get(types.size() - 1), input.length());
                try {
                    DeviceMap.run(device, compiled, input, output, indexSpace, resultReads);
                    return output;
                } catch (KernelDeoptimizedException e) {
                    output.close();
                    KernelExits.handle(toString(), e, "the maps ran again one after the other, as written (Java's exception is the first failing element of the first failing stage)",
                                    input.length(), kernels());
                } catch (OpenCLRuntimeException e) {
                    output.close();
                    reason = e.getMessage();
                } catch (RuntimeException | Error e) {
                    output.close();
                    throw e;
                }
            }
            if (reason != null) {
                Explain.fallback(toString() + " as one kernel", reason + "; the maps run one after the other");
            }
            return unfused(input);
        }
    }

    private KernelCache[] kernels() {
        KernelCache[] all = new KernelCache[maps.size()];
        for (int k = 0; k < all.length; k++) {
            all[k] = maps.get(k).kernels();
        }
        return all;
    }

    /** The input's type and each stage's result type, or null ({@link FusedMappers#typesOf}). */
    private List<DataType> types(PArray<T> input) {
        return FusedMappers.typesOf(maps, input);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<R> unfused(PArray<T> input) {
        return Pipeline.inTurn(maps, input);
    }

    /** The maps, unfused. */
    List<ArrayFunction<?, ?>> stages() {
        return List.copyOf(maps);
    }

    @Override
    public ArrayFunction<T, R> on(Executor executor) {
        return Pipeline.placedOn(maps, executor);
    }

    /** Each map split over {@code devices}, one after the other (split maps are not fused). */
    @Override
    public ArrayFunction<T, R> on(jpai.Devices devices) {
        List<ArrayFunction<?, ?>> placed = new ArrayList<>();
        for (MapFunction<?, ?> map : maps) {
            placed.add(map.on(devices));
        }
        return Pipeline.ofStages(placed);
    }

    @Override
    public String toString() {
        return Pipeline.describe(maps);
    }

    /**
     * Tiering's first apply ({@link TieredMap}): Java threads run the maps element by element
     * ({@link MapChainInJava}: each result passed on as its array would pass it), the device takes
     * over the elements not started once the fused kernel is ready (where its bits are the JVM's).
     * Java's exception is the first failing element of the first failing stage, which element-wise
     * maps (and a kernel exit in the device's part, after which Java runs from the exit) may not meet
     * first: after any exception the maps run again one after the other, as written, on Java threads.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private PArray<?> tiered(PArray<?> input, DeviceChoice.OpenCL device, List<DataType> types, int[] indexSpace) {
        PArray output = PArrayStorage.allocateUninitializedPlain(types.get(types.size() - 1), input.length()); // Java threads write it (see applyOnJavaThreadsInPlainMemory)
        try {
            TieredMap.run(MapChainInJava.of(maps, types), TieredMap.Kernels.fused(maps.get(0).kernels(), laterKernels, types, indexSpace == null ? 0 : 1), device, (PArray) input,
                            output, indexSpace, this::toString);
            return output;
        } catch (Throwable e) { // a lambda's exception, maybe a checked one thrown sneakily: the maps as written meet it in order
            output.close();
            Explain.tieredTakeover(() -> toString() + ": its first apply met an exception (" + e + "); the maps ran again one after the other, which throws Java's exception");
            return onJavaThreadsInPlainMemory(input);
        }
    }

    /**
     * The maps one after the other on Java threads, every array in plain memory: a tiered first apply,
     * whose arrays Java threads write (see {@link jpai.runtime.memory.PArrayStorage#allocateUninitializedPlain}).
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private PArray<?> onJavaThreadsInPlainMemory(PArray<?> input) {
        return Pipeline.inTurn(maps, input, (MapFunction map, PArray in) -> map.applyOnJavaThreadsInPlainMemory(in));
    }
}
