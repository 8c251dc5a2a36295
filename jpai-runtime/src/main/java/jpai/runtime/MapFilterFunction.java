package jpai.runtime;

import java.util.List;

import jpai.ArrayFunction;
import jpai.PArray;

/**
 * One or more maps followed by a filter, fused ({@link MapsFusedInto}): the single-pass filter's
 * kernel maps each input element through every map, tests the mapped element and keeps it
 * ({@code FilterKernel} with a mapper chain). With the several-pass filter the maps run first.
 */
final class MapFilterFunction<T, R> extends MapsFusedInto<T, R> {

    private final FilterFunction<R> filter;

    MapFilterFunction(List<MapFunction<?, ?>> maps, FilterFunction<R> filter) {
        super(maps, filter, "filter");
        this.filter = filter;
    }

    /** True when {@code maps} then {@code next} may be fused: a filter, and all may use the device. */
    static boolean fusible(List<MapFunction<?, ?>> maps, ArrayFunction<?, ?> next) {
        return next instanceof FilterFunction<?> filter && MapsFusedInto.fusible(maps, onDevice(filter.executor()));
    }

    @Override
    FusedMappers mappers(PArray<T> input) {
        return FusedMappers.of(maps(), input);
    }

    @Override
    PArray<R> onDevice(PArray<T> input, FusedMappers mappers) {
        return filter.runOnDevice(input, mappers);
    }
}
