package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 22's keyed-reduction measurement: a histogram of {@code 2^log2n} random {@code int}s into
 * 256 and 65,536 bins, JPAI's {@code AF.reduceByKey(x -> x & (bins - 1), x -> 1, Integer::sum, 0, bins)}
 * (input resident on the device, as a program keeping its data there would have it) against a
 * hand-written OpenCL kernel: each work-group counts its stride of the elements into a private
 * histogram in local memory with {@code atomic_inc} and then adds it to the global one with
 * {@code atomic_add} (where the bins fit in local memory; else straight into global memory). Both
 * results are checked against a Java loop before anything is timed. Prints, per bin count, the
 * medians of JPAI's apply (wall) and kernel time (the key and value maps and the combining kernel,
 * from the profile) and the hand-written kernel's (wall: bins zeroed, kernel, bins read; kernel:
 * its event), JPAI / hand-written, and JPAI's apply and kernel times for float values summed per bin
 * (the ordered strategy, which has no hand-written counterpart here): as the runtime chooses, then
 * with each per-chunk kernel forced ({@code -Djpai.keyed.sharedChunks=false}: a work-item per chunk;
 * {@code true}: a work-group per chunk), and on the Java threads executor (the same order). Bin
 * counts 256, 4,096 and 65,536.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.Histogram [log2n, default 28] [repeats, default 10]}; on
 * the GPU machine {@code bin/gpu-check histogram}; here (PoCL) {@code bin/jpai run jpai.bench.Histogram 20 3}.
 */
public final class Histogram {

    private static final String KERNEL = """
            __kernel void histogram(__global const int *restrict in, __global int *restrict bins, __local int *localBins,
                                    const int binCount, const int useLocal, const long n) {
                const int lid = get_local_id(0);
                const int localSize = get_local_size(0);
                const long stride = get_global_size(0);
                if (useLocal) {
                    for (int b = lid; b < binCount; b += localSize) { localBins[b] = 0; }
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (long i = get_global_id(0); i < n; i += stride) { atomic_inc(&localBins[in[i] & (binCount - 1)]); }
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (int b = lid; b < binCount; b += localSize) { if (localBins[b] != 0) { atomic_add(&bins[b], localBins[b]); } }
                } else {
                    for (long i = get_global_id(0); i < n; i += stride) { atomic_inc(&bins[in[i] & (binCount - 1)]); }
                }
            }
            """;

    private Histogram() {
    }

    public static void main(String[] args) {
        int log2n = args.length > 0 ? Integer.parseInt(args[0]) : 28;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("Histogram: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        int n = 1 << log2n;
        int[] data = new int[n];
        SplittableRandom random = new SplittableRandom(22);
        for (int i = 0; i < n; i++) {
            data[i] = random.nextInt() & Integer.MAX_VALUE;
        }
        System.out.println("device: " + device.device().name() + ", 2^" + log2n + " ints, " + repeats + " timed runs each (medians)");
        System.out.println("bins,jpai_apply_ms,jpai_kernels_ms,handwritten_wall_ms,handwritten_kernel_ms,jpai_over_handwritten_wall,jpai_over_handwritten_kernel,"
                        + "jpai_float_sums_apply_ms,jpai_float_sums_kernels_ms,float_sums_chunk_per_work_item_apply_ms,float_sums_chunk_per_work_item_kernels_ms,"
                        + "float_sums_chunk_per_work_group_apply_ms,float_sums_chunk_per_work_group_kernels_ms,float_sums_java_threads_ms");
        try (PArray<Integer> input = PArray.of(data); PArray<Integer> resident = AF.<Integer> copyToDevice().apply(input)) {
            for (int bins : new int[] {256, 4096, 65_536}) {
                int[] expected = new int[bins];
                for (int value : data) {
                    expected[value & (bins - 1)]++;
                }
                double[] jpai = jpai(resident, bins, expected, repeats);
                double[] hand = handWritten(device, data, bins, expected, repeats);
                double[] floats = floatSums(resident, bins, repeats, null);
                // both per-chunk kernels, forced; the slow one of many bins a few times only
                double[] perWorkItem = floatSums(resident, bins, bins > 4096 ? Math.min(repeats, 3) : repeats, "false");
                double[] perWorkGroup = floatSums(resident, bins, repeats, "true");
                double threads = floatSumsOnJavaThreads(resident, bins, Math.min(repeats, 5));
                System.out.printf(java.util.Locale.ROOT, "%d,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f%n", bins, jpai[0], jpai[1], hand[0], hand[1], jpai[0] / hand[0],
                                jpai[1] / hand[1], floats[0], floats[1], perWorkItem[0], perWorkItem[1], perWorkGroup[0], perWorkGroup[1], threads);
            }
        }
    }

    /** Median apply wall time and kernel time, in ms, after checking the result. */
    private static double[] jpai(PArray<Integer> input, int bins, int[] expected, int repeats) {
        int mask = bins - 1;
        ArrayFunction<Integer, Integer> histogram = AF.reduceByKey((Integer x) -> x & mask, x -> 1, Integer::sum, 0, bins);
        try (PArray<Integer> first = histogram.apply(input)) {
            check("JPAI", first.toIntArray(), expected);
        }
        List<Double> walls = new ArrayList<>();
        List<Double> kernels = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            long start = System.nanoTime();
            try (PArray<Integer> result = histogram.apply(input)) {
                ApplyProfile profile = AF.lastProfile();
                result.toIntArray();
                walls.add((System.nanoTime() - start) * 1e-6);
                kernels.add(profile.kernelNanos() * 1e-6);
            }
        }
        return new double[] {median(walls), median(kernels)};
    }

    /**
     * The same keys with float values ({@code (x >>> 8) * 2^-20}) summed per bin: no atomics (the
     * bits would depend on the order) but the fixed chunk order's two kernels; checked bit for bit
     * against JPAI's Java executor (the same order) first. Median apply wall time and kernel time, in ms.
     */
    private static double[] floatSums(PArray<Integer> input, int bins, int repeats, String sharedChunks) {
        if (sharedChunks == null) {
            System.clearProperty("jpai.keyed.sharedChunks");
        } else {
            System.setProperty("jpai.keyed.sharedChunks", sharedChunks);
        }
        try {
            return floatSums(input, bins, repeats);
        } finally {
            System.clearProperty("jpai.keyed.sharedChunks");
        }
    }

    /** The float sums' median wall time on the Java threads executor (the same order), in ms. */
    private static double floatSumsOnJavaThreads(PArray<Integer> input, int bins, int repeats) {
        int mask = bins - 1;
        ArrayFunction<Integer, Float> sums = AF.reduceByKey((Integer x) -> x & mask, x -> (x >>> 8) * 0x1p-20f, Float::sum, 0f, bins).on(jpai.Executor.THREADS);
        sums.apply(input).close();
        List<Double> walls = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            long start = System.nanoTime();
            try (PArray<Float> result = sums.apply(input)) {
                result.toFloatArray();
                walls.add((System.nanoTime() - start) * 1e-6);
            }
        }
        return median(walls);
    }

    private static double[] floatSums(PArray<Integer> input, int bins, int repeats) {
        int mask = bins - 1;
        ArrayFunction<Integer, Float> sums = AF.reduceByKey((Integer x) -> x & mask, x -> (x >>> 8) * 0x1p-20f, Float::sum, 0f, bins);
        try (PArray<Float> device = sums.apply(input); PArray<Float> java = sums.on(jpai.Executor.THREADS).apply(input)) {
            if (!Arrays.equals(device.toFloatArray(), java.toFloatArray())) {
                throw new IllegalStateException("JPAI's float sums on the device differ from its Java executor's, which follow the same order");
            }
        }
        List<Double> walls = new ArrayList<>();
        List<Double> kernels = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            long start = System.nanoTime();
            try (PArray<Float> result = sums.apply(input)) {
                ApplyProfile profile = AF.lastProfile();
                result.toFloatArray();
                walls.add((System.nanoTime() - start) * 1e-6);
                kernels.add(profile.kernelNanos() * 1e-6);
            }
        }
        return new double[] {median(walls), median(kernels)};
    }

    /** Median wall time (zero the bins, kernel, read the bins) and kernel time, in ms, after checking the result. */
    private static double[] handWritten(DeviceChoice.OpenCL device, int[] data, int bins, int[] expected, int repeats) {
        try (Jocl jocl = Jocl.open(device.device())) {
            cl_kernel kernel = jocl.kernel(KERNEL, "histogram");
            long n = data.length;
            Jocl.Pinned staging = jocl.pinned(4L * n);
            staging.host().asIntBuffer().put(data);
            cl_mem in = jocl.deviceBuffer(4L * n);
            jocl.writeNow(in, staging);
            cl_mem out = jocl.deviceBuffer(4L * bins);
            Jocl.Pinned zeros = jocl.pinned(4L * bins);
            zeros.host().asIntBuffer().put(new int[bins]); // pinned memory starts with whatever the driver left there
            Jocl.Pinned result = jocl.pinned(4L * bins);
            long local = jocl.workGroup1D();
            boolean useLocal = 4L * bins + 1024 <= jocl.device().localMemoryBytes();
            long groups = Math.max(1, Math.min((n + local - 1) / local, 8L * Math.max(1, jocl.device().maxComputeUnits())));
            Jocl.arg(kernel, 0, in);
            Jocl.arg(kernel, 1, out);
            Jocl.localArg(kernel, 2, useLocal ? 4L * bins : 4);
            Jocl.arg(kernel, 3, bins);
            Jocl.arg(kernel, 4, useLocal ? 1 : 0);
            org.jocl.CL.clSetKernelArg(kernel, 5, org.jocl.Sizeof.cl_long, org.jocl.Pointer.to(new long[] {n}));
            List<Double> walls = new ArrayList<>();
            List<Double> kernels = new ArrayList<>();
            for (int r = 0; r <= repeats; r++) {
                long start = System.nanoTime();
                jocl.write(out, zeros);
                jocl.launch(kernel, new long[] {groups * local}, new long[] {local});
                jocl.read(result, out);
                long kernelNanos = jocl.finish();
                int[] counts = new int[bins];
                result.host().asIntBuffer().get(counts);
                double wall = (System.nanoTime() - start) * 1e-6;
                if (r == 0) {
                    check("the hand-written kernel", counts, expected);
                } else {
                    walls.add(wall);
                    kernels.add(kernelNanos * 1e-6);
                }
            }
            return new double[] {median(walls), median(kernels)};
        }
    }

    private static void check(String who, int[] actual, int[] expected) {
        if (!Arrays.equals(actual, expected)) {
            for (int b = 0; b < expected.length; b++) {
                if (actual[b] != expected[b]) {
                    throw new IllegalStateException(who + ": the histogram differs from Java's at bin " + b + ": " + actual[b] + ", Java counts " + expected[b]);
                }
            }
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }
}
