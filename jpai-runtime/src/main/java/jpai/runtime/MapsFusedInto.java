package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * One or more maps fused into the kernels of the stage after them (a scan: {@link MapScanFunction};
 * a filter: {@link MapFilterFunction}), which map each input element as it comes in, so no mapped
 * array exists. Wherever the fused kernels do not run ({@code -Djpai.fusion=false}, no device, a
 * kernel exit, a bailout, tiering, the cost model's choice), the maps and the stage run one after
 * the other as written, each with its own device and fallbacks: Java's exception is the first
 * failing element of the first failing stage.
 *
 * <p>Immutable and thread-safe.
 */
abstract class MapsFusedInto<T, R> implements ArrayFunction<T, R> {

    private final List<MapFunction<?, ?>> maps;
    private final ArrayFunction<?, R> stage;
    /** The stage's kind in messages: "scan", "filter". */
    private final String what;

    MapsFusedInto(List<MapFunction<?, ?>> maps, ArrayFunction<?, R> stage, String what) {
        if (maps.isEmpty()) {
            throw new IllegalArgumentException("maps fused into a " + what + " are at least one");
        }
        this.maps = List.copyOf(maps);
        this.stage = stage;
        this.what = what;
    }

    /** Whether {@code maps} may be fused into a stage that may use the device ({@code stageOnDevice}). */
    static boolean fusible(List<MapFunction<?, ?>> maps, boolean stageOnDevice) {
        return !maps.isEmpty() && stageOnDevice && maps.stream().allMatch(FusedMapFunction::fusible);
    }

    static boolean onDevice(Executor executor) {
        return executor == Executor.AUTO || executor == Executor.ACCELERATOR;
    }

    /** The name of the operation {@code stage} (a scan's or filter's description) on the elements {@code mappers} make: "map of ... then filter of ...". */
    static String operation(FusedMappers mappers, String stage) {
        return (mappers.isEmpty() ? "" : KernelCache.fusedDescription(mappers.kernels()) + " then ") + stage;
    }

    /** What an exit's message adds when maps were fused in front of the stage ({@code what}): they then run one after the other, as written. */
    static String unfusedNote(FusedMappers mappers, String what) {
        return mappers.isEmpty() ? "" : "; the maps and the " + what + " run one after the other, as written";
    }

    /**
     * The device did not run {@code operation} for {@code reason}: with maps fused in front, not a
     * fallback (the maps and the stage, {@code what}, then run one after the other, each with its own
     * device), which explain says; alone, the stage's fallback to Java.
     */
    static void didNotRun(String operation, String reason, FusedMappers mappers, String what) {
        if (mappers.isEmpty()) {
            Offload.fallBack(operation, reason);
        } else {
            Explain.fallback(operation + " as one kernel", reason + "; the maps and the " + what + " run one after the other");
        }
    }

    List<MapFunction<?, ?>> maps() {
        return maps;
    }

    /** The maps' kernels and types over {@code input}, or null when they cannot be told (the stages then run as written). */
    abstract FusedMappers mappers(PArray<T> input);

    /** The fused kernels' result, or null when they did not run (the stages then run as written). */
    abstract PArray<R> onDevice(PArray<T> input, FusedMappers mappers);

    @Override
    public final PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "map then " + what);
        Profiler.begin(maps.get(0).kernels().labelForProfiles("map then " + what + " of "));
        try {
            if (!JpaiOptions.fusion() || input.length() == 0) {
                return unfused(input);
            }
            FusedMappers mappers = mappers(input);
            PArray<R> fused = mappers == null ? null : onDevice(input, mappers);
            return fused != null ? fused : unfused(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<R> unfused(PArray<T> input) {
        try (PArray mapped = Pipeline.inTurn(maps, input)) {
            return ((ArrayFunction) stage).apply(mapped);
        }
    }

    @Override
    public final ArrayFunction<T, R> on(Executor executor) {
        return Pipeline.placedOn(stages(), executor); // fused again where all may use the device
    }

    /** The stage does not split over devices: it says so. */
    @Override
    public final ArrayFunction<T, R> on(jpai.Devices devices) {
        stage.on(devices); // throws UnsupportedOperationException, saying so
        throw new AssertionError("a " + what + " split over devices");
    }

    /** The stages, unfused. */
    final List<ArrayFunction<?, ?>> stages() {
        List<ArrayFunction<?, ?>> all = new ArrayList<>(maps);
        all.add(stage);
        return all;
    }

    @Override
    public final String toString() {
        return Pipeline.describe(stages());
    }
}
