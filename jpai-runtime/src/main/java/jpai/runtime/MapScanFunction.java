package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * One or more maps followed by a scan, fused: on the device the scan's kernels map each input
 * element through every map as it comes in ({@code OpenCLKernelGenerator.scan} with a mapper chain),
 * so no mapped array exists: the single-pass scan reads the input once and writes the result once.
 * The pipeline makes this stage of {@code map(f).scan(op, identity)} when all may use the device.
 * Wherever the fused kernels do not run (no device, a kernel exit, a bailout, tiering, the cost
 * model's choice), the maps and the scan run one after the other as written, each with its own
 * device and fallbacks: Java's exception is the first failing element of the first failing stage,
 * and the scan's order, the same on every executor, gives the same bits.
 *
 * <p>Immutable and thread-safe.
 */
final class MapScanFunction<T, R> implements ArrayFunction<T, R> {

    private final List<MapFunction<?, ?>> maps;
    private final ScanFunction<R> scan;

    MapScanFunction(List<MapFunction<?, ?>> maps, ScanFunction<R> scan) {
        if (maps.isEmpty()) {
            throw new IllegalArgumentException("a fused map then scan has at least one map");
        }
        this.maps = List.copyOf(maps);
        this.scan = scan;
    }

    /** True when {@code maps} then {@code next} may be fused: a scan, and all may use the device. */
    static boolean fusible(List<MapFunction<?, ?>> maps, ArrayFunction<?, ?> next) {
        return !maps.isEmpty() && next instanceof ScanFunction<?> scan && (scan.executor() == Executor.AUTO || scan.executor() == Executor.ACCELERATOR)
                        && maps.stream().allMatch(FusedMapFunction::fusible);
    }

    @Override
    @SuppressWarnings("unchecked")
    public PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "map then scan");
        Profiler.begin(maps.get(0).kernels().labelForProfiles("map then scan of "));
        try {
            if (!JpaiOptions.fusion() || input.length() == 0) {
                return unfused(input);
            }
            FusedMappers mappers = FusedMappers.of(maps, input, scan.type());
            if (mappers == null || !mappers.elementType().equals(scan.type())) {
                return unfused(input); // the scan says what is wrong with its input's type
            }
            PArray<R> output = (PArray<R>) PArray.allocateUninitialized(scan.type(), input.length());
            boolean onDevice;
            try {
                onDevice = scan.runOnDevice(input, output, mappers);
            } catch (RuntimeException | Error e) {
                output.close();
                throw e;
            }
            if (onDevice) {
                return output;
            }
            output.close();
            return unfused(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private PArray<R> unfused(PArray<T> input) {
        try (PArray mapped = Pipeline.inTurn(maps, input)) {
            return scan.apply(mapped);
        }
    }

    @Override
    public ArrayFunction<T, R> on(Executor executor) {
        return Pipeline.placedOn(stages(), executor); // fused again where all may use the device
    }

    /** A scan does not split over devices: it says so ({@link ScanFunction#on(jpai.Devices)}). */
    @Override
    public ArrayFunction<T, R> on(jpai.Devices devices) {
        scan.on(devices); // throws UnsupportedOperationException, saying so
        throw new AssertionError("a scan split over devices");
    }

    /** The stages, unfused. */
    List<ArrayFunction<?, ?>> stages() {
        List<ArrayFunction<?, ?>> all = new ArrayList<>(maps);
        all.add(scan);
        return all;
    }

    @Override
    public String toString() {
        return Pipeline.describe(stages());
    }
}
