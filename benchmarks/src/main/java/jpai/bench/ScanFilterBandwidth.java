package jpai.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 22's goal for {@code AF.scan} and {@code AF.filter}: on {@code 2^log2n} floats already
 * resident on the device, the effective bandwidth (each input element read once, each output
 * element written once) against the device's copy (a map {@code x -> x}: {@code 8n} bytes). The
 * scan is an inclusive float sum ({@code 8n} bytes counted), timed as the reduce-then-scan and as
 * the single-pass scan at work-groups of 256, 512 and 1,024 ({@code -Djpai.scan.singlePass},
 * {@code -Djpai.scan.workGroup}, set here for each part); the filter keeps {@code x > 0.5f} (about
 * half: {@code 4n + 4k} bytes counted for {@code k} kept), timed as the single-pass filter at the same
 * work-groups and as the flags, count and scatter kernels ({@code -Djpai.filter.singlePass=false}).
 * Each variant is validated first against Java ({@link Executor#SEQUENTIAL}, bit for bit) and must run on the device
 * ({@code -Djpai.fallback=error}). Prints medians of the wall time per apply and of the kernel time
 * alone (device profile), and each one's share of the copy's rate (goal: at least 70%).
 *
 * <p>Here: {@code bin/jpai run jpai.bench.ScanFilterBandwidth --log2n 20}; on the GPU machine, after
 * {@code bin/gpu-bundle --tests}: {@code bin/gpu-check scan} (2^28 floats).
 */
public final class ScanFilterBandwidth {

    private ScanFilterBandwidth() {
    }

    public static void main(String[] args) {
        int log2n = 28;
        int repeats = 20;
        int warmup = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--log2n" -> log2n = Integer.parseInt(args[++i]);
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: ScanFilterBandwidth [--log2n L] [--repeats R] [--warmup W]");
                    System.exit(2);
                }
            }
        }
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ScanFilterBandwidth needs an OpenCL device; the runtime chose Java threads: " + OpenCLRuntime.choice().why());
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().describe());
        long n = 1L << log2n;
        float[] values = new float[Math.toIntExact(n)];
        for (int i = 0; i < values.length; i++) {
            values[i] = (int) ((i * 2654435761L) % 1000) * 0.001f;
        }
        BinaryOperator<Float> sum = (a, b) -> a + b;
        Predicate<Float> kept = x -> x > 0.5f;
        Function<Float, Float> copy = x -> x;
        ArrayFunction<Float, Float> scan = AF.scan(sum, 0f);
        ArrayFunction<Float, Float> filter = AF.filter(kept);
        try (PArray<Float> input = PArray.of(values)) {
            System.setProperty("jpai.fallback", "error"); // every timed apply runs on the device
            Timing copyTiming = time(AF.map(copy).on(Executor.ACCELERATOR), input, warmup, repeats);
            System.setProperty("jpai.scan.singlePass", "false");
            validateScan(input, scan, "the reduce-then-scan");
            Timing scanTiming = time(scan.on(Executor.ACCELERATOR), input, warmup, repeats);
            System.setProperty("jpai.scan.singlePass", "true");
            long[] workGroups = {256, 512, 1024};
            Timing[] singlePassTimings = new Timing[workGroups.length];
            for (int g = 0; g < workGroups.length; g++) {
                System.setProperty("jpai.scan.workGroup", Long.toString(workGroups[g]));
                validateScan(input, scan, "the single-pass scan, work-group " + workGroups[g]);
                singlePassTimings[g] = time(scan.on(Executor.ACCELERATOR), input, warmup, repeats);
            }
            System.clearProperty("jpai.scan.workGroup");
            System.clearProperty("jpai.scan.singlePass");
            long keptCount = 0;
            Timing[] filterTimings = new Timing[workGroups.length];
            System.setProperty("jpai.filter.singlePass", "true");
            for (int g = 0; g < workGroups.length; g++) {
                System.setProperty("jpai.filter.workGroup", Long.toString(workGroups[g]));
                keptCount = validateFilter(input, filter, kept, "the single-pass filter, work-group " + workGroups[g]);
                filterTimings[g] = time(filter.on(Executor.ACCELERATOR), input, warmup, repeats);
            }
            System.clearProperty("jpai.filter.workGroup");
            System.setProperty("jpai.filter.singlePass", "false");
            validateFilter(input, filter, kept, "the flags-count-scatter filter");
            Timing compactionTiming = time(filter.on(Executor.ACCELERATOR), input, warmup, repeats);
            System.clearProperty("jpai.filter.singlePass");
            System.out.println("validated: every scan bit for bit against the sequential executor, every filter against a Java loop");
            System.out.printf(Locale.ROOT, "n = 2^%d floats (%.3f GiB), %d repeats after %d untimed, medians per apply; filter keeps %d%n", log2n, 4.0 * n / (1L << 30), repeats,
                            warmup + 1, keptCount);
            System.out.println("    (profile rows: " + ApplyProfile.tableHeader().trim() + ")");
            report("device copy (map x -> x)", 8.0 * n, copyTiming, 8.0 * n, copyTiming);
            report("scan (inclusive float sum), reduce then scan (-Djpai.scan.singlePass=false)", 8.0 * n, scanTiming, 8.0 * n, copyTiming);
            for (int g = 0; g < workGroups.length; g++) {
                report("scan (inclusive float sum), single pass, work-group " + workGroups[g] + " (-Djpai.scan.singlePass=true)", 8.0 * n, singlePassTimings[g], 8.0 * n, copyTiming);
            }
            for (int g = 0; g < workGroups.length; g++) {
                report("filter (x > 0.5f), single pass, work-group " + workGroups[g], 4.0 * n + 4.0 * keptCount, filterTimings[g], 8.0 * n, copyTiming);
            }
            report("filter (x > 0.5f), flags, count and scatter (-Djpai.filter.singlePass=false)", 4.0 * n + 4.0 * keptCount, compactionTiming, 8.0 * n, copyTiming);
        } finally {
            System.clearProperty("jpai.fallback");
        }
    }

    /** Checks the device's filter (as the properties now choose it) against a Java loop; returns the number kept. */
    private static long validateFilter(PArray<Float> input, ArrayFunction<Float, Float> filter, Predicate<Float> kept, String what) {
        try (PArray<Float> device = filter.on(Executor.ACCELERATOR).apply(input)) {
            float[] d = device.toFloatArray();
            float[] all = input.toFloatArray();
            int k = 0;
            for (float x : all) {
                if (kept.test(x)) {
                    if (k >= d.length || Float.floatToRawIntBits(d[k]) != Float.floatToRawIntBits(x)) {
                        throw new AssertionError(what + ": kept element " + k + " is " + (k < d.length ? d[k] : "missing") + " on the device, " + x + " in Java");
                    }
                    k++;
                }
            }
            if (k != d.length) {
                throw new AssertionError(what + ": the device kept " + d.length + " elements, Java " + k);
            }
            return k;
        }
    }

    /** Checks the device's scan (as the properties now choose it) against the sequential executor's, bit for bit. */
    private static void validateScan(PArray<Float> input, ArrayFunction<Float, Float> scan, String what) {
        String previous = System.getProperty("jpai.fallback");
        System.setProperty("jpai.fallback", "error");
        try (PArray<Float> device = scan.on(Executor.ACCELERATOR).apply(input); PArray<Float> java = scan.on(Executor.SEQUENTIAL).apply(input)) {
            float[] d = device.toFloatArray();
            float[] j = java.toFloatArray();
            int mismatch = Arrays.mismatch(d, j);
            if (mismatch >= 0) {
                throw new AssertionError(what + ": element " + mismatch + " is " + d[mismatch] + " on the device, " + j[mismatch] + " in Java");
            }
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.fallback");
            } else {
                System.setProperty("jpai.fallback", previous);
            }
        }
    }

    /** Medians, and the last timed apply's profile as a table row (where the host's time went). */
    private record Timing(double wallSeconds, double kernelSeconds, int kernels, String lastProfile) {
    }

    /** Medians of {@code repeats} applies of {@code function} to the resident {@code input}, outputs left on the device. */
    private static Timing time(ArrayFunction<Float, Float> function, PArray<Float> input, int warmup, int repeats) {
        double[] wall = new double[repeats];
        double[] kernel = new double[repeats];
        int kernels = 0;
        String lastProfile = "";
        for (int r = -1 - warmup; r < repeats; r++) {
            long start = System.nanoTime();
            try (PArray<Float> out = function.apply(input)) {
                // stays on the device: nothing reads it
            }
            long end = System.nanoTime();
            ApplyProfile profile = AF.lastProfile();
            if (profile.fellBack()) {
                throw new IllegalStateException(function + " ran in Java: " + profile.fallbackReason());
            }
            if (r >= 0) {
                wall[r] = (end - start) * 1e-9;
                kernel[r] = profile.kernelNanos() * 1e-9;
                kernels = profile.kernelCount();
                lastProfile = profile.toTableRow();
            }
        }
        return new Timing(median(wall), median(kernel), kernels, lastProfile);
    }

    /** One line: {@code timing}'s rate for {@code bytes} moved, and its share of the copy's rate ({@code copyBytes} in {@code copy}). */
    private static void report(String what, double bytes, Timing timing, double copyBytes, Timing copy) {
        double rate = bytes / timing.wallSeconds();
        double copyRate = copyBytes / copy.wallSeconds();
        double kernelRate = bytes / timing.kernelSeconds();
        double copyKernelRate = copyBytes / copy.kernelSeconds();
        System.out.printf(Locale.ROOT, "%s: %.3f ms wall, %.1f GB/s, %.1f%% of the copy; kernels only: %.3f ms in %d kernels, %.1f GB/s, %.1f%% of the copy's (goal >= 70%%)%n", what,
                        timing.wallSeconds() * 1e3, rate / 1e9, 100 * rate / copyRate, timing.kernelSeconds() * 1e3, timing.kernels(), kernelRate / 1e9,
                        100 * kernelRate / copyKernelRate);
        System.out.println("    last apply: " + timing.lastProfile());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
