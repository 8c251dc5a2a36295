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
        ArrayFunction<Float, Float> pipeline = AF.map(f, Float.class).andThen(AF.map(g, Float.class)).andThen(AF.map(h, Float.class));
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i % 10_007) * 0.001f - 5f;
        }
        try (PArray<Float> input = PArray.of(values)) {
            long[] fused = measure(pipeline, input, values, f.andThen(g).andThen(h), true, repeats);
            long[] unfused = measure(pipeline, input, values, f.andThen(g).andThen(h), false, repeats);
            System.out.printf("n=2^%d floats, %d timed applies each; medians in us%n", log2n, repeats);
            System.out.printf("fused:   %d kernel(s) per apply, apply %.1f, kernels %.1f%n", fused[2], fused[0] / 1e3, fused[1] / 1e3);
            System.out.printf("unfused: %d kernel(s) per apply, apply %.1f, kernels %.1f%n", unfused[2], unfused[0] / 1e3, unfused[1] / 1e3);
            System.out.printf("speed-up of fusion: apply %.2fx, kernels %.2fx (goal on the H100: at least 2x)%n", (double) unfused[0] / fused[0], (double) unfused[1] / fused[1]);
        }
    }

    /** {apply median ns, kernel median ns, kernels per apply}, after checking the results against Java's. */
    private static long[] measure(ArrayFunction<Float, Float> pipeline, PArray<Float> input, float[] values, Function<Float, Float> java, boolean fusion, int repeats) {
        System.setProperty("jpai.fusion", Boolean.toString(fusion));
        try {
            try (PArray<Float> out = pipeline.apply(input)) {
                for (int i = 0; i < values.length; i++) {
                    float expected = java.apply(values[i]);
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
            return new long[] {wall[repeats / 2], kernels[repeats / 2], kernelCount};
        } finally {
            System.clearProperty("jpai.fusion");
        }
    }
}
