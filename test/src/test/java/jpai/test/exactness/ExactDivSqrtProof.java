package jpai.test.exactness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.ocl.ExactFloatDivSqrt;
import jpai.runtime.JpaiOptions;

/**
 * The long proof that each formulation of float division and square root
 * ({@code -Djpai.exactDivSqrt}) gives Java's bits on this machine's OpenCL device: the square root of
 * every one of the 2^32 floats and {@code 1.0f} divided by it (or every {@code --sqrt-stride}-th bit
 * pattern), then every pair of
 * edge values and {@code --pairs} random quotients ({@link FloatDivSqrtCases}), each compared with
 * the JVM bit for bit (NaNs as NaN). Every apply must run on the device ({@code -Djpai.fallback=error}).
 * Prints one line per formulation and check and exits 1 on any mismatch.
 *
 * <pre>
 * bin/jpai fuzz --help >/dev/null   # compiles the test module's classes (once)
 * bin/gpu-check exactness            # on the GPU machine, every formulation
 * java ... jpai.test.exactness.ExactDivSqrtProof [--formulations builtin,double,fma] [--sqrt-stride 1] [--pairs 67108864]
 * </pre>
 */
public final class ExactDivSqrtProof {

    private static final int CHUNK = 1 << 24;

    private ExactDivSqrtProof() {
    }

    public static void main(String[] args) {
        List<ExactFloatDivSqrt> formulations = List.of(ExactFloatDivSqrt.values());
        long sqrtStride = 1;
        long pairs = 1L << 26;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--formulations" -> formulations = java.util.Arrays.stream(args[++i].split(",")).map(ExactFloatDivSqrt::fromOptionValue).toList();
                case "--sqrt-stride" -> sqrtStride = Long.parseLong(args[++i]);
                case "--pairs" -> pairs = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; use --formulations a,b --sqrt-stride N --pairs N");
            }
        }
        System.setProperty(JpaiOptions.FALLBACK, "error");
        long failures = 0;
        for (ExactFloatDivSqrt formulation : formulations) {
            System.setProperty(JpaiOptions.EXACT_DIV_SQRT, formulation.optionValue());
            failures += sqrtOfEveryFloat(formulation, sqrtStride);
            failures += quotients(formulation, pairs);
        }
        System.out.println(failures == 0 ? "exact: every formulation gave Java's bits" : "NOT EXACT: " + failures + " mismatches");
        System.exit(failures == 0 ? 0 : 1);
    }

    /**
     * The root of bit pattern {@code base[0] + stride * i} for every {@code i} of a chunk, as int
     * bits, and its reciprocal {@code 1.0f / root} (N-Body's form, which the fma formulation fuses).
     */
    private static long sqrtOfEveryFloat(ExactFloatDivSqrt formulation, long stride) {
        int[] base = new int[1];
        int step = (int) stride;
        ArrayFunction<Integer, Integer> roots = AF.map((Integer i) -> Float.floatToIntBits((float) Math.sqrt(Float.intBitsToFloat(base[0] + step * i))));
        ArrayFunction<Integer, Integer> reciprocals = AF.map((Integer i) -> Float.floatToIntBits(1.0f / (float) Math.sqrt(Float.intBitsToFloat(base[0] + step * i))));
        return everyFloat(formulation, stride, "sqrt", base, roots, x -> (float) Math.sqrt(x))
                        + everyFloat(formulation, stride, "1 / sqrt", base, reciprocals, x -> 1.0f / (float) Math.sqrt(x));
    }

    /** {@code function} of every {@code stride}-th float against {@code java}, chunk by chunk ({@code base[0]} the chunk's first bit pattern). */
    private static long everyFloat(ExactFloatDivSqrt formulation, long stride, String what, int[] base, ArrayFunction<Integer, Integer> function, FloatUnaryOperator java) {
        int step = (int) stride;
        long start = System.nanoTime();
        long mismatches = 0;
        long checked = 0;
        long total = (1L << 32) / stride;
        try (PArray<Integer> indices = PArray.range(CHUNK)) {
            for (long first = 0; first < total; first += CHUNK) {
                base[0] = (int) (first * stride);
                int b = base[0];
                try (PArray<Integer> out = apply(function, indices)) {
                    int[] actual = out.toIntArray();
                    int count = (int) Math.min(CHUNK, total - first);
                    long bad = IntStream.range(0, count).parallel()
                                    .filter(i -> actual[i] != Float.floatToIntBits(java.apply(Float.intBitsToFloat(b + step * i)))).count();
                    if (bad > 0) {
                        int i = IntStream.range(0, count).filter(k -> actual[k] != Float.floatToIntBits(java.apply(Float.intBitsToFloat(b + step * k)))).findFirst().orElseThrow();
                        float x = Float.intBitsToFloat(b + step * i);
                        System.out.println(formulation.optionValue() + ": " + what + " of " + Float.toHexString(x) + " is " + Float.toHexString(Float.intBitsToFloat(actual[i]))
                                        + ", Java gives " + Float.toHexString(java.apply(x)));
                    }
                    mismatches += bad;
                    checked += count;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%-8s %s: %d floats (every %s), %d mismatches, %.1f s%n", formulation.optionValue(), what, checked, stride == 1 ? "bit pattern" : stride + "th", mismatches,
                        (System.nanoTime() - start) / 1e9);
        return mismatches;
    }

    /** A float function, for Java's side. */
    private interface FloatUnaryOperator {
        float apply(float x);
    }

    /** Every pair of edge values, then {@code pairs} random pairs in chunks. */
    private static long quotients(ExactFloatDivSqrt formulation, long pairs) {
        ArrayFunction<Tuple2<Float, Float>, Float> divide = AF.<Float, Float>zip2().map(t -> t._1() / t._2());
        long start = System.nanoTime();
        float[][] edges = FloatDivSqrtCases.edgePairs();
        long mismatches = compareQuotients(formulation, divide, edges[0], edges[1], edges[0].length);
        long checked = edges[0].length;
        SplittableRandom random = new SplittableRandom(20261126);
        int chunk = (int) Math.min(pairs, 1 << 22);
        float[] a = new float[chunk];
        float[] b = new float[chunk];
        for (long done = 0; done < pairs; done += chunk) {
            int count = (int) Math.min(chunk, pairs - done);
            FloatDivSqrtCases.randomPairs(random, a, b, 0, count);
            mismatches += compareQuotients(formulation, divide, a, b, count);
            checked += count;
        }
        System.out.printf(Locale.ROOT, "%-8s division: %d pairs (%d edge pairs, the rest random), %d mismatches, %.1f s%n", formulation.optionValue(), checked, edges[0].length, mismatches,
                        (System.nanoTime() - start) / 1e9);
        return mismatches;
    }

    private static long compareQuotients(ExactFloatDivSqrt formulation, ArrayFunction<Tuple2<Float, Float>, Float> divide, float[] a, float[] b, int count) {
        float[] x = a.length == count ? a : java.util.Arrays.copyOf(a, count);
        float[] y = b.length == count ? b : java.util.Arrays.copyOf(b, count);
        try (PArray<Float> dividends = PArray.of(x); PArray<Float> divisors = PArray.of(y); PArray<Float> out = apply(divide, PArray.zip(dividends, divisors))) {
            float[] actual = out.toFloatArray();
            List<Integer> wrong = new ArrayList<>();
            long bad = IntStream.range(0, count).parallel().filter(i -> Float.floatToIntBits(actual[i]) != Float.floatToIntBits(x[i] / y[i])).count();
            if (bad > 0) {
                IntStream.range(0, count).filter(i -> Float.floatToIntBits(actual[i]) != Float.floatToIntBits(x[i] / y[i])).limit(5).forEach(wrong::add);
                for (int i : wrong) {
                    System.out.println(formulation.optionValue() + ": " + Float.toHexString(x[i]) + " / " + Float.toHexString(y[i]) + " is " + Float.toHexString(actual[i]) + ", Java gives "
                                    + Float.toHexString(x[i] / y[i]));
                }
            }
            return bad;
        }
    }

    /** Applies on the device; a fallback is an exception here ({@code -Djpai.fallback=error}), and the profile must show kernels. */
    private static <T, R> PArray<R> apply(ArrayFunction<T, R> function, PArray<T> input) {
        PArray<R> out = function.on(Executor.ACCELERATOR).apply(input);
        ApplyProfile profile = AF.lastProfile();
        if (profile.fellBack() || profile.kernelCount() == 0) {
            out.close();
            throw new IllegalStateException("the apply did not run on the device: " + profile);
        }
        return out;
    }
}
