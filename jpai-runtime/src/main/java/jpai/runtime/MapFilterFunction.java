package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * One or more maps followed by a filter, fused: on the device the single-pass filter's kernel maps
 * each input element through every map, tests the mapped element and keeps it
 * ({@code FilterKernel} with a mapper chain), so no mapped array exists. The pipeline makes this
 * stage of {@code map(f).filter(p)} when all may use the device. Wherever the fused kernel does not
 * run (no device, the several-pass filter, a kernel exit, a bailout, tiering, the cost model's
 * choice), the maps and the filter run one after the other as written, each with its own device and
 * fallbacks: Java's exception is the first failing element of the first failing stage.
 *
 * <p>Immutable and thread-safe.
 */
final class MapFilterFunction<T, R> implements ArrayFunction<T, R> {

    private final List<MapFunction<?, ?>> maps;
    private final FilterFunction<R> filter;

    MapFilterFunction(List<MapFunction<?, ?>> maps, FilterFunction<R> filter) {
        if (maps.isEmpty()) {
            throw new IllegalArgumentException("a fused map then filter has at least one map");
        }
        this.maps = List.copyOf(maps);
        this.filter = filter;
    }

    /** True when {@code maps} then {@code next} may be fused: a filter, and all may use the device. */
    static boolean fusible(List<MapFunction<?, ?>> maps, ArrayFunction<?, ?> next) {
        return !maps.isEmpty() && next instanceof FilterFunction<?> filter && (filter.executor() == Executor.AUTO || filter.executor() == Executor.ACCELERATOR)
                        && maps.stream().allMatch(FusedMapFunction::fusible);
    }

    @Override
    public PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "map then filter");
        Profiler.begin(maps.get(0).kernels().labelForProfiles("map then filter of "));
        try {
            if (!JpaiOptions.fusion() || input.length() == 0) {
                return unfused(input);
            }
            FusedMappers mappers = FusedMappers.of(maps, input);
            PArray<R> onDevice = mappers == null ? null : filter.runOnDevice(input, mappers);
            return onDevice != null ? onDevice : unfused(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<R> unfused(PArray<T> input) {
        try (PArray mapped = Pipeline.inTurn(maps, input)) {
            return filter.apply(mapped);
        }
    }

    @Override
    public ArrayFunction<T, R> on(Executor executor) {
        return Pipeline.placedOn(stages(), executor); // fused again where all may use the device
    }

    /** A filter does not split over devices: it says so ({@link FilterFunction#on(jpai.Devices)}). */
    @Override
    public ArrayFunction<T, R> on(jpai.Devices devices) {
        filter.on(devices); // throws UnsupportedOperationException, saying so
        throw new AssertionError("a filter split over devices");
    }

    /** The stages, unfused. */
    List<ArrayFunction<?, ?>> stages() {
        List<ArrayFunction<?, ?>> all = new ArrayList<>(maps);
        all.add(filter);
        return all;
    }

    @Override
    public String toString() {
        return Pipeline.describe(stages());
    }
}
