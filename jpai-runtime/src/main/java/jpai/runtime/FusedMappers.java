package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.DataType;
import jpai.PArray;

/**
 * Maps fused in front of a reduction's, a scan's or a filter's kernel ({@code ocl.MapperChain}):
 * their kernel caches in order of application, and the input's type followed by each map's result
 * type (the last being the reduced, scanned or filtered elements' type). None: the elements are the input's.
 */
record FusedMappers(List<KernelCache> kernels, List<DataType> types) {

    FusedMappers {
        kernels = List.copyOf(kernels);
        types = List.copyOf(types);
        if (types.size() != kernels.size() + 1) {
            throw new IllegalArgumentException("fused maps have one type more than maps: " + kernels.size() + " maps, " + types.size() + " types");
        }
    }

    /**
     * Whether {@code other} holds the same kernels and the same types, compared by identity (the
     * types a function's applies ask with are the same objects): the runtime's memo of its last
     * kernel asks on every apply, cheaper than {@link #equals}; a false answer only costs a look-up.
     */
    boolean sameAs(FusedMappers other) {
        if (other == this) {
            return true;
        }
        if (other.kernels.size() != kernels.size() || other.types.size() != types.size()) {
            return false;
        }
        for (int k = 0; k < kernels.size(); k++) {
            if (other.kernels.get(k) != kernels.get(k)) {
                return false;
            }
        }
        for (int t = 0; t < types.size(); t++) {
            if (other.types.get(t) != types.get(t)) {
                return false;
            }
        }
        return true;
    }

    /** No map: the elements of {@code type} are reduced or scanned as they are. */
    static FusedMappers none(DataType type) {
        return new FusedMappers(List.of(), List.of(type));
    }

    /** {@code mapper} (null for none) from {@code inputType} to {@code type}. */
    static FusedMappers of(KernelCache mapper, DataType inputType, DataType type) {
        return mapper == null ? none(type) : new FusedMappers(List.of(mapper), List.of(inputType, type));
    }

    /** {@code maps}' kernels and types over {@code input} ({@link #typesOf}), or null when a map's result type cannot be told. */
    static FusedMappers of(List<? extends MapFunction<?, ?>> maps, PArray<?> input) {
        List<DataType> types = typesOf(maps, input);
        if (types == null) {
            return null;
        }
        List<KernelCache> kernels = new ArrayList<>();
        for (MapFunction<?, ?> map : maps) {
            kernels.add(map.kernels());
        }
        return new FusedMappers(kernels, types);
    }

    /**
     * {@code maps}' kernels and types over {@code input}, the last map's result being of
     * {@code elementType} (the reduction's or the scan's: a single map's types are then known without
     * running it), or null when an earlier map's result type is not known and element 0 cannot tell
     * it (an exception, a null, a type no PArray holds): the unfused maps then meet it as written.
     */
    static FusedMappers of(List<? extends MapFunction<?, ?>> maps, PArray<?> input, DataType elementType) {
        if (maps.size() == 1) {
            return new FusedMappers(List.of(maps.get(0).kernels()), List.of(input.type(), elementType));
        }
        return of(maps, input);
    }

    /**
     * The input's type and each map's result type; where a map's is not known yet, element 0 goes
     * through the maps in Java, as each map's own type analysis would run it. Null when that fails.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<DataType> typesOf(List<? extends MapFunction<?, ?>> maps, PArray<?> input) {
        List<DataType> types = new ArrayList<>();
        types.add(input.type());
        for (MapFunction<?, ?> map : maps) {
            DataType known = map.knownOutputType(types.get(types.size() - 1));
            if (known == null) {
                break;
            }
            types.add(known);
        }
        if (types.size() == maps.size() + 1) {
            return types;
        }
        try {
            types.subList(1, types.size()).clear();
            Object element = MapFunction.firstElement((PArray) input);
            for (MapFunction map : maps) {
                element = map.function().apply(element);
                if (element == null) {
                    return null;
                }
                types.add(map.recordOutputType(types.get(types.size() - 1), element));
            }
            return types;
        } catch (RuntimeException e) {
            return null;
        }
    }

    boolean isEmpty() {
        return kernels.isEmpty();
    }

    DataType inputType() {
        return types.get(0);
    }

    DataType elementType() {
        return types.get(types.size() - 1);
    }

    /** The first map's kernels, or null: named in a compilation's errors ("fused with the map of ..."). */
    KernelCache first() {
        return kernels.isEmpty() ? null : kernels.get(0);
    }
}
