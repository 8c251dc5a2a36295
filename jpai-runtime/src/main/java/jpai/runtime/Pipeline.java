package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * Functions composed with {@code andThen}/{@code compose}: each stage applied to the previous
 * stage's result. The intermediate arrays belong to the pipeline and are closed as soon as the next
 * stage has produced its result, so their device memory is released while the data they carried
 * never came back to the host (device results come back only when the host reads them).
 */
public final class Pipeline<T, R> implements ArrayFunction<T, R> {

    private final List<ArrayFunction<?, ?>> stages;

    private Pipeline(List<ArrayFunction<?, ?>> stages) {
        this.stages = List.copyOf(stages);
    }

    /**
     * The composition of {@code functions}, in order: nested compositions flattened, each map directly
     * followed by a reduce fused, and a single remaining stage returned as itself.
     */
    @SuppressWarnings("unchecked")
    private static <T, R> ArrayFunction<T, R> compose(List<ArrayFunction<?, ?>> functions) {
        List<ArrayFunction<?, ?>> stages = new ArrayList<>();
        for (ArrayFunction<?, ?> function : functions) {
            addStages(stages, function);
        }
        List<ArrayFunction<?, ?>> fused = fuse(stages);
        return fused.size() == 1 ? (ArrayFunction<T, R>) fused.get(0) : new Pipeline<>(fused);
    }

    /**
     * Replaces each run of maps allowed on the device followed by a reduce, a scan or a filter also
     * allowed there by one fused stage (its kernels map each element as it comes in), and each other
     * run of two or more such maps by one fused map.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<ArrayFunction<?, ?>> fuse(List<ArrayFunction<?, ?>> stages) {
        List<ArrayFunction<?, ?>> fused = new ArrayList<>();
        List<MapFunction<?, ?>> maps = new ArrayList<>();
        for (ArrayFunction<?, ?> stage : stages) {
            if (MapReduceFunction.fusible(maps, stage)) {
                fused.add(new MapReduceFunction(maps, (ReduceFunction) stage));
                maps.clear();
            } else if (MapScanFunction.fusible(maps, stage)) {
                fused.add(new MapScanFunction(maps, (ScanFunction) stage));
                maps.clear();
            } else if (MapFilterFunction.fusible(maps, stage)) {
                fused.add(new MapFilterFunction(maps, (FilterFunction) stage));
                maps.clear();
            } else if (FusedMapFunction.fusible(stage)) {
                maps.add((MapFunction<?, ?>) stage);
            } else {
                addMaps(fused, maps);
                fused.add(stage);
            }
        }
        addMaps(fused, maps);
        return fused;
    }

    /** Adds the run of {@code maps} (fused when two or more) to {@code fused} and empties it. */
    private static void addMaps(List<ArrayFunction<?, ?>> fused, List<MapFunction<?, ?>> maps) {
        if (maps.size() == 1) {
            fused.add(maps.get(0));
        } else if (maps.size() > 1) {
            fused.add(new FusedMapFunction<>(maps));
        }
        maps.clear();
    }

    /** The composition of {@code stages}, in order (fused where they may be). */
    static <T, R> ArrayFunction<T, R> ofStages(List<ArrayFunction<?, ?>> stages) {
        return compose(stages);
    }

    /** {@code first}, then {@code second}. */
    public static <T, M, R> ArrayFunction<T, R> of(ArrayFunction<T, M> first, ArrayFunction<M, R> second) {
        java.util.Objects.requireNonNull(first, "the first function of a composition is null");
        java.util.Objects.requireNonNull(second, "the second function of a composition is null");
        return compose(List.of(first, second));
    }

    /** Adds {@code function}'s plain stages: compositions and fused stages taken apart. */
    private static void addStages(List<ArrayFunction<?, ?>> stages, ArrayFunction<?, ?> function) {
        if (function instanceof Pipeline<?, ?> pipeline) {
            for (ArrayFunction<?, ?> stage : pipeline.stages) {
                addStages(stages, stage);
            }
        } else if (function instanceof MapReduceFunction<?, ?> fused) {
            stages.addAll(fused.stages());
        } else if (function instanceof MapsFusedInto<?, ?> fused) {
            stages.addAll(fused.stages());
        } else if (function instanceof FusedMapFunction<?, ?> fused) {
            stages.addAll(fused.stages());
        } else {
            stages.add(function);
        }
    }

    /** The stages, in order of application. */
    public List<ArrayFunction<?, ?>> stages() {
        return stages;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "a composed function");
        Profiler.begin("composed function");
        try {
            return inTurn(stages, input);
        } finally {
            Profiler.end();
        }
    }

    @Override
    public ArrayFunction<T, R> on(Executor executor) {
        return placedOn(stages, executor);
    }

    /** {@code stages}, each placed on {@code executor}, composed again (fused where they may be). */
    static <T, R> ArrayFunction<T, R> placedOn(List<? extends ArrayFunction<?, ?>> stages, Executor executor) {
        List<ArrayFunction<?, ?>> placed = new ArrayList<>();
        for (ArrayFunction<?, ?> stage : stages) {
            placed.add(stage.on(executor));
        }
        return compose(placed);
    }

    /** "f then g then h": stages as messages name them. */
    static String describe(List<? extends ArrayFunction<?, ?>> stages) {
        StringBuilder text = new StringBuilder();
        for (ArrayFunction<?, ?> stage : stages) {
            text.append(text.isEmpty() ? "" : " then ").append(stage);
        }
        return text.toString();
    }

    /** Every stage split over {@code devices}: maps split; a stage that does not split says so ({@link ArrayFunction#on(jpai.Devices)}). */
    @Override
    public ArrayFunction<T, R> on(jpai.Devices devices) {
        List<ArrayFunction<?, ?>> placed = new ArrayList<>();
        for (ArrayFunction<?, ?> stage : stages) {
            placed.add(stage.on(devices));
        }
        return compose(placed);
    }

    @Override
    public String toString() {
        return describe(stages);
    }

    /**
     * Applies {@code stages} one after the other to {@code input}, each intermediate array closed as
     * soon as the next stage has run (also when a stage throws); the input is the caller's.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static PArray inTurn(List<? extends ArrayFunction> stages, PArray input) {
        return inTurn(stages, input, ArrayFunction::apply);
    }

    /** {@link #inTurn(List, PArray)}, each stage applied by {@code apply} (a fused pipeline's tiered apply: on Java threads, in plain memory). */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static <S> PArray inTurn(List<? extends S> stages, PArray input, java.util.function.BiFunction<S, PArray, PArray> apply) {
        PArray current = input;
        try {
            for (int s = 0; s < stages.size(); s++) {
                S stage = stages.get(s);
                if (stage instanceof ViewFunction<?> view && s < stages.size() - 1) {
                    // a zip or identity before another stage: its checks, and the next stage reads the
                    // array itself (a view would be one more array made and closed per apply)
                    view.check(current);
                    continue;
                }
                PArray next = apply.apply(stage, current);
                if (current != input) {
                    current.close();
                }
                current = next;
            }
            return current;
        } catch (RuntimeException | Error e) {
            if (current != input) {
                current.close();
            }
            throw e;
        }
    }
}
