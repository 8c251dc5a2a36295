package jpai.bench;

import java.util.Arrays;
import java.util.function.Function;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;

/**
 * Issue 22's fusion goal: a pipeline of three float maps applied as one fused kernel against the
 * same three maps unfused ({@code -Djpai.fusion=false}, set and cleared here around each half), the
 * unfused intermediates kept on the device as a composed function keeps them. Both are checked
 * against Java's loop, element for element, before timing; a fallback is an error. Each timed apply
 * reads nothing back (its result is closed), so a sample is the kernels plus the host's overhead.
 *
 * <p>Then the same three maps followed by an inclusive float scan, fused (the maps inside the scan's
 * kernels) and unfused, checked against the sequential executor's scan bit for bit.
 *
 * <p>Prints, per variant, the kernels per apply and the medians of the apply's wall time and of its
 * kernel time, then the ratios. Here: {@code bin/jpai run jpai.bench.FusionBench [log2n] [repeats]};
 * on the GPU machine, after {@code bin/gpu-bundle --tests}: {@code bin/gpu-check fusion}.
 */
public final class FusionBench {

    private FusionBench() {
    }

    public static void main(String[] args) {
        int log2n = args.length > 0 ? Integer.parseInt(args[0]) : 24;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int n = 1 << log2n;
        System.setProperty("jpai.fallback", "error");
        float scale = 1.5f;
        float shift = -0.25f;
        Function<Float, Float> f = x -> x * scale;
        Function<Float, Float> g = x -> x + shift;
        Function<Float, Float> h = x -> x * x - 1f;
        // on the accelerator: AUTO may run an apply on Java threads (tiering, the cost model), which is not what this measures
        ArrayFunction<Float, Float> pipeline = AF.map(f, Float.class).andThen(AF.map(g, Float.class)).andThen(AF.map(h, Float.class)).on(jpai.Executor.ACCELERATOR);
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i % 10_007) * 0.001f - 5f;
        }
        try (PArray<Float> input = PArray.of(values)) {
            System.out.println("profile rows: " + ApplyProfile.tableHeader().trim());
            long[] fused = measure(pipeline, input, values, f.andThen(g).andThen(h), true, repeats);
            long[] unfused = measure(pipeline, input, values, f.andThen(g).andThen(h), false, repeats);
            System.out.printf("n=2^%d floats, %d timed applies each; medians in us%n", log2n, repeats);
            System.out.printf("fused:   %d kernel(s) per apply, apply %.1f, kernels %.1f%n", fused[2], fused[0] / 1e3, fused[1] / 1e3);
            System.out.printf("unfused: %d kernel(s) per apply, apply %.1f, kernels %.1f%n", unfused[2], unfused[0] / 1e3, unfused[1] / 1e3);
            System.out.printf("speed-up of fusion: apply %.2fx, kernels %.2fx (goal on the H100: at least 2x)%n", (double) unfused[0] / fused[0], (double) unfused[1] / fused[1]);
            // the same maps then an inclusive float scan: the maps inside the scan's kernels, or three map kernels and the scan's
            ArrayFunction<Float, Float> scanned = pipeline.scan(Float::sum, 0f).on(jpai.Executor.ACCELERATOR);
            float[] expected;
            try (PArray<Float> java = scanned.on(jpai.Executor.SEQUENTIAL).apply(input)) {
                expected = java.toFloatArray();
            }
            long[] fusedScan = measure(scanned, input, expected, true, repeats);
            long[] unfusedScan = measure(scanned, input, expected, false, repeats);
            System.out.printf("three maps then a scan, fused:   %d kernel(s) per apply, apply %.1f, kernels %.1f%n", fusedScan[2], fusedScan[0] / 1e3, fusedScan[1] / 1e3);
            System.out.printf("three maps then a scan, unfused: %d kernel(s) per apply, apply %.1f, kernels %.1f%n", unfusedScan[2], unfusedScan[0] / 1e3, unfusedScan[1] / 1e3);
            System.out.printf("speed-up of fusing the maps into the scan: apply %.2fx, kernels %.2fx%n", (double) unfusedScan[0] / fusedScan[0], (double) unfusedScan[1] / fusedScan[1]);
        }
    }

    /** {@link #measure} of a pipeline whose expected results are {@code expected} (the sequential executor's, bit for bit). */
    private static long[] measure(ArrayFunction<Float, Float> pipeline, PArray<Float> input, float[] expected, boolean fusion, int repeats) {
        return measureChecked(pipeline, input, expected.length, i -> expected[i], fusion, repeats);
    }

    /** {apply median ns, kernel median ns, kernels per apply}, after checking the results against Java's. */
    private static long[] measure(ArrayFunction<Float, Float> pipeline, PArray<Float> input, float[] values, Function<Float, Float> java, boolean fusion, int repeats) {
        return measureChecked(pipeline, input, values.length, i -> java.apply(values[i]), fusion, repeats);
    }

    private static long[] measureChecked(ArrayFunction<Float, Float> pipeline, PArray<Float> input, int length, java.util.function.IntFunction<Float> expectedAt, boolean fusion, int repeats) {
        System.setProperty("jpai.fusion", Boolean.toString(fusion));
        try {
            try (PArray<Float> out = pipeline.apply(input)) {
                for (int i = 0; i < length; i++) {
                    float expected = expectedAt.apply(i);
                    if (Float.floatToRawIntBits(expected) != Float.floatToRawIntBits(out.get(i))) {
                        throw new AssertionError((fusion ? "fused" : "unfused") + ": element " + i + " is " + out.get(i) + ", Java gives " + expected);
                    }
                }
            }
            long[] wall = new long[repeats];
            long[] kernels = new long[repeats];
            int kernelCount = 0;
            for (int r = 0; r < repeats; r++) {
                long start = System.nanoTime();
                pipeline.apply(input).close();
                wall[r] = System.nanoTime() - start;
                ApplyProfile profile = AF.lastProfile();
                kernels[r] = profile.kernelNanos();
                kernelCount = profile.kernelCount();
            }
            Arrays.sort(wall);
            Arrays.sort(kernels);
            System.out.println((fusion ? "fused" : "unfused") + ", last apply: " + AF.lastProfile().toTableRow()); // where the host's time went
            return new long[] {wall[repeats / 2], kernels[repeats / 2], kernelCount};
        } finally {
            System.clearProperty("jpai.fusion");
        }
    }
}
