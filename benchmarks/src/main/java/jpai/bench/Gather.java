package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 22's question about {@code gather}: would an explicit skeleton ({@code out[i] =
 * source[indices[i]]}) be faster than what the API already writes? Times, on resident data (a
 * random permutation of {@code 2^log2n} indices into as many floats), medians of the kernel time:
 * (a) {@code AF.map((Integer j) -> source.get(j))} applied to the index array, capturing the source
 * {@code PArray}; (b) {@code AF.map((Integer i) -> source.get(indices.get(i)))} over {@code
 * PArray.range(n)}, capturing both; (c) the kernel an explicit skeleton would be, hand-written
 * ({@code out[i] = source[indices[i]]}, with no bounds check, which Java's meaning would need back).
 * All outputs are compared with Java's before timing.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.Gather [log2n, default 22] [repeats, default 10]}; on the
 * GPU machine {@code bin/gpu-check gather}.
 */
public final class Gather {

    private static final String KERNEL = """
            __kernel void gather(__global const float *restrict source, __global const int *restrict indices, __global float *restrict out, const int n) {
                const int i = get_global_id(0);
                if (i < n) { out[i] = source[indices[i]]; }
            }
            """;

    private Gather() {
    }

    /** {@code n} floats (multiples of 1/16 below 2^20, exact in any float) and a random permutation of their indices. */
    record Input(float[] values, int[] permutation) {
        static Input random(int n, long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            float[] values = new float[n];
            int[] permutation = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(1 << 24) / 16f;
                permutation[i] = i;
            }
            for (int i = n - 1; i > 0; i--) { // Fisher-Yates
                int j = random.nextInt(i + 1);
                int t = permutation[i];
                permutation[i] = permutation[j];
                permutation[j] = t;
            }
            return new Input(values, permutation);
        }
    }

    public static void main(String[] args) {
        int log2n = args.length > 0 ? Integer.parseInt(args[0]) : 22;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("Gather: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        int n = 1 << log2n;
        Input input = Input.random(n, 22);
        float[] values = input.values();
        int[] permutation = input.permutation();
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = values[permutation[i]];
        }
        System.out.println("device: " + device.device().name() + ", 2^" + log2n + " floats gathered by a random permutation, " + repeats + " timed runs (median kernel ms)");
        try (PArray<Float> source = AF.<Float> copyToDevice().apply(PArray.of(values)); PArray<Integer> indices = AF.<Integer> copyToDevice().apply(PArray.of(permutation));
                        PArray<Integer> range = PArray.range(n)) {
            ArrayFunction<Integer, Float> overIndices = AF.map((Integer j) -> source.get(j), Float.class);
            ArrayFunction<Integer, Float> overRange = AF.map((Integer i) -> source.get(indices.get(i)), Float.class);
            double a = jpai("map over the indices", overIndices, indices, expected, repeats);
            double b = jpai("map over a range", overRange, range, expected, repeats);
            double c = handWritten(device, values, permutation, expected, repeats);
            System.out.println("form,kernel_ms");
            System.out.printf("(a) AF.map(j -> source.get(j)) over the indices,%.3f%n", a);
            System.out.printf("(b) AF.map(i -> source.get(indices.get(i))) over PArray.range(n),%.3f%n", b);
            System.out.printf("(c) hand-written out[i] = source[indices[i]] (no bounds check),%.3f%n", c);
        }
    }

    private static double jpai(String what, ArrayFunction<Integer, Float> gather, PArray<Integer> input, float[] expected, int repeats) {
        try (PArray<Float> first = gather.apply(input)) {
            check(what, first.toFloatArray(), expected);
        }
        List<Double> kernels = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            gather.apply(input).close();
            kernels.add(AF.lastProfile().kernelNanos() * 1e-6);
        }
        return median(kernels);
    }

    private static double handWritten(DeviceChoice.OpenCL device, float[] values, int[] permutation, float[] expected, int repeats) {
        try (Jocl jocl = Jocl.open(device.device())) {
            int n = values.length;
            cl_kernel kernel = jocl.kernel(KERNEL, "gather");
            Jocl.Pinned staging = jocl.pinned(4L * n);
            cl_mem source = jocl.deviceBuffer(4L * n);
            cl_mem indices = jocl.deviceBuffer(4L * n);
            cl_mem out = jocl.deviceBuffer(4L * n);
            staging.host().asFloatBuffer().put(values);
            jocl.writeNow(source, staging);
            staging.host().asIntBuffer().put(permutation);
            jocl.writeNow(indices, staging);
            Jocl.arg(kernel, 0, source);
            Jocl.arg(kernel, 1, indices);
            Jocl.arg(kernel, 2, out);
            Jocl.arg(kernel, 3, n);
            long local = jocl.workGroup1D();
            List<Double> kernels = new ArrayList<>();
            for (int r = 0; r <= repeats; r++) {
                jocl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
                long nanos = jocl.finish();
                if (r == 0) {
                    jocl.read(staging, out);
                    jocl.finish();
                    float[] result = new float[n];
                    staging.host().asFloatBuffer().get(result);
                    check("the hand-written kernel", result, expected);
                } else {
                    kernels.add(nanos * 1e-6);
                }
            }
            return median(kernels);
        }
    }

    private static void check(String who, float[] actual, float[] expected) {
        if (!Arrays.equals(actual, expected)) {
            throw new IllegalStateException(who + ": the gathered array differs from Java's");
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[sorted.length / 2];
    }
}
