package jpai.runtime;

import java.util.List;

import jpai.ArrayFunction;
import jpai.PArray;

/**
 * One or more maps followed by a scan, fused ({@link MapsFusedInto}): the scan's kernels map each
 * input element through every map as it comes in ({@code OpenCLKernelGenerator.scan} with a mapper
 * chain), so the single-pass scan reads the input once and writes the result once; the scan's
 * order, the same on every executor, gives the same bits either way.
 */
final class MapScanFunction<T, R> extends MapsFusedInto<T, R> {

    private final ScanFunction<R> scan;

    MapScanFunction(List<MapFunction<?, ?>> maps, ScanFunction<R> scan) {
        super(maps, scan, "scan");
        this.scan = scan;
    }

    /** True when {@code maps} then {@code next} may be fused: a scan, and all may use the device. */
    static boolean fusible(List<MapFunction<?, ?>> maps, ArrayFunction<?, ?> next) {
        return next instanceof ScanFunction<?> scan && MapsFusedInto.fusible(maps, onDevice(scan.executor()));
    }

    @Override
    FusedMappers mappers(PArray<T> input) {
        FusedMappers mappers = FusedMappers.of(maps(), input, scan.type());
        return mappers != null && mappers.elementType().equals(scan.type()) ? mappers : null; // else the scan says what is wrong with its input
    }

    @Override
    @SuppressWarnings("unchecked")
    PArray<R> onDevice(PArray<T> input, FusedMappers mappers) {
        PArray<R> output = (PArray<R>) PArray.allocateUninitialized(scan.type(), input.length());
        try {
            if (scan.runOnDevice(input, output, mappers)) {
                return output;
            }
        } catch (RuntimeException | Error e) {
            output.close();
            throw e;
        }
        output.close();
        return null;
    }
}
