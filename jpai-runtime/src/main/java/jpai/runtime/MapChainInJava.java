package jpai.runtime;

import java.util.List;
import java.util.function.Function;

import jpai.DataType;
import jpai.runtime.exec.StoredValues;

/**
 * Maps fused in Java, element by element (a tiered map then reduce's Java threads, which keep no
 * mapped array): each map's result is passed on as the unfused maps' array would pass it
 * ({@link StoredValues#asStored}: the box or tuple reading it back gives). A result no array of the
 * map's type could hold throws; the caller then runs the maps unfused, which fail as written.
 */
final class MapChainInJava implements Function<Object, Object> {

    private final Function<Object, Object>[] maps;
    /** Each map's result type. */
    private final DataType[] types;

    @SuppressWarnings("unchecked")
    private MapChainInJava(List<MapFunction<?, ?>> maps, List<DataType> types) {
        this.maps = new Function[maps.size()];
        this.types = new DataType[maps.size()];
        for (int k = 0; k < maps.size(); k++) {
            this.maps[k] = (Function<Object, Object>) maps.get(k).function();
            this.types[k] = types.get(k + 1);
        }
    }

    /** {@code maps} over elements of {@code types.get(0)}, the map {@code k} giving {@code types.get(k + 1)} ({@link FusedMappers#types()}). */
    static MapChainInJava of(List<MapFunction<?, ?>> maps, List<DataType> types) {
        return new MapChainInJava(maps, types);
    }

    @Override
    public Object apply(Object element) {
        Object value = element;
        for (int k = 0; k < maps.length; k++) {
            value = StoredValues.asStored(maps[k].apply(value), types[k]);
        }
        return value;
    }
}
