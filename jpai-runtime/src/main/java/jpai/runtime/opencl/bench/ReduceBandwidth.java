package jpai.runtime.opencl.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.ApplyProfile;

/**
 * The order-preserving float-sum (or, with {@code --int-max}, int-max) reduction against a device copy of the same data: both run on
 * an array already resident on the device. The reduction reads {@code 4n} bytes; the copy (a map
 * {@code x -> x}) reads and writes them, {@code 8n} bytes. Reports each one's GB/s and the
 * reduction's rate as a share of the copy's (the goal: at least 80%).
 *
 * <p>Usage: {@code ReduceBandwidth [--log2n 28] [--repeats 10] [--warmup 100]}. A single-threaded program.
 */
public final class ReduceBandwidth {

    private ReduceBandwidth() {
    }

    public static void main(String[] args) {
        int log2n = 28;
        int repeats = 10;
        int warmup = 100;
        boolean intMax = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--log2n" -> log2n = Integer.parseInt(args[++i]);
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--int-max" -> intMax = true;
                default -> {
                    System.err.println("usage: ReduceBandwidth [--log2n L] [--repeats R] [--warmup W] [--int-max]");
                    System.exit(2);
                }
            }
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        if (!(choice instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ReduceBandwidth needs an OpenCL device; the runtime chose Java threads: " + choice.why());
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().describe());
        System.setProperty("jpai.fallback", "error"); // both must run on the device
        long n = 1L << log2n;
        if (intMax) {
            BinaryOperator<Integer> max = Math::max;
            Function<Integer, Integer> identity = x -> x;
            int[] values = new int[Math.toIntExact(n)];
            for (int i = 0; i < values.length; i++) {
                values[i] = (int) ((i * 2654435761L) % 1_000_003) - 500_000;
            }
            try (PArray<Integer> input = PArray.of(values)) {
                measure("int max reduce", input, AF.reduce(max, Integer.MIN_VALUE), AF.map(identity), n, log2n, warmup, repeats);
            }
        } else {
            BinaryOperator<Float> add = (a, b) -> a + b;
            Function<Float, Float> identity = x -> x;
            float[] values = new float[Math.toIntExact(n)];
            for (int i = 0; i < values.length; i++) {
                values[i] = (i % 1000) * 0.001f;
            }
            try (PArray<Float> input = PArray.of(values)) {
                measure("float sum reduce", input, AF.reduce(add, 0f), AF.map(identity), n, log2n, warmup, repeats);
            }
        }
    }

    /** Times {@code reduce} and {@code copy} of the resident {@code input} of 4-byte elements, side by side. */
    private static <T> void measure(String what, PArray<T> input, ArrayFunction<T, T> reduce, ArrayFunction<T, T> copy, long n, int log2n, int warmup, int repeats) {
        double[] reduceSeconds = new double[repeats];
        double[] copySeconds = new double[repeats];
        double[] reduceKernelSeconds = new double[repeats];
        double[] copyKernelSeconds = new double[repeats];
        int reduceKernels = 0;
        Object result = null;
        // r < 0: compiles both, makes the input resident, and lets the JVM compile JPAI's own host code
        // (the first applies run it interpreted: twice the wall time of a warm apply on the H100)
        for (int r = -1 - warmup; r < repeats; r++) {
            long start = System.nanoTime();
            try (PArray<T> total = reduce.apply(input)) {
                result = total.get(0);
            }
            long middle = System.nanoTime();
            ApplyProfile reduceProfile = AF.lastProfile();
            try (PArray<T> copied = copy.apply(input)) {
                // stays on the device: nothing reads it
            }
            long end = System.nanoTime();
            ApplyProfile copyProfile = AF.lastProfile();
            if (r >= 0) {
                reduceSeconds[r] = (middle - start) * 1e-9;
                copySeconds[r] = (end - middle) * 1e-9;
                reduceKernelSeconds[r] = reduceProfile.kernelNanos() * 1e-9;
                copyKernelSeconds[r] = copyProfile.kernelNanos() * 1e-9;
                reduceKernels = reduceProfile.kernelCount();
            }
        }
        double reduceRate = 4.0 * n / median(reduceSeconds) / 1e9;
        double copyRate = 8.0 * n / median(copySeconds) / 1e9;
        System.out.printf(Locale.ROOT, "n = 2^%d elements of 4 bytes (%.2f GiB), %d repeats after %d untimed, medians of wall time per apply%n", log2n, 4.0 * n / (1L << 30), repeats, warmup + 1);
        System.out.printf(Locale.ROOT, "%s: %.3f ms, %.1f GB/s read (result %s)%n", what, median(reduceSeconds) * 1e3, reduceRate, result);
        System.out.printf(Locale.ROOT, "device copy (map x -> x): %.3f ms, %.1f GB/s read + written%n", median(copySeconds) * 1e3, copyRate);
        System.out.printf(Locale.ROOT, "reduce / copy bandwidth: %.1f%% (goal >= 80%%)%n", 100 * reduceRate / copyRate);
        double reduceKernelRate = 4.0 * n / median(reduceKernelSeconds) / 1e9;
        double copyKernelRate = 8.0 * n / median(copyKernelSeconds) / 1e9;
        System.out.printf(Locale.ROOT, "kernel time only (device profile): reduce %.3f ms in %d kernels, %.1f GB/s; copy %.3f ms, %.1f GB/s; reduce / copy %.1f%%%n",
                        median(reduceKernelSeconds) * 1e3, reduceKernels, reduceKernelRate, median(copyKernelSeconds) * 1e3, copyKernelRate, 100 * reduceKernelRate / copyKernelRate);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
