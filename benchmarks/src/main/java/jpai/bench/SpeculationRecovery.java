package jpai.bench;

import java.util.Arrays;
import java.util.function.Function;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * What learning from kernel exits saves (issue 21), through the public API:
 * <ul>
 * <li>an early-breaking loop whose hoisted bounds check fails on every apply: with
 * {@code -Djpai.speculation.maxRecompiles=0} (the kernel is never recompiled: every apply pays the
 * kernel and a whole Java run, as before issue 21) against the default (one exit, one recompile,
 * then the device only);</li>
 * <li>a map of {@code Math.sin} whose kernel exits at one element (a huge angle, left to Java): at the
 * last element (Java re-runs one element) and at the first (Java re-runs all of them), against the
 * whole map on Java threads (what every exit cost before).</li>
 * </ul>
 * Every output is checked against the sequential executor's, bit for bit. Prints CSV: case, median
 * apply in µs over the timed applies, and the last apply's kernel and device-to-host times, kernel
 * exits, recompiles and elements Java re-ran.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.SpeculationRecovery [elements, default 2^20] [timed applies, default 15]};
 * on the GPU machine, after {@code bin/gpu-bundle}: {@code bin/gpu-run run jpai.bench.SpeculationRecovery}.
 */
public final class SpeculationRecovery {

    private static final String MAX_RECOMPILES = "jpai.speculation.maxRecompiles";

    private SpeculationRecovery() {
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int applies = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("SpeculationRecovery: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.out.printf("device: %s; %d elements, %d timed applies after 2 untimed; %d cores, java %s%n", device.device().name(), n, applies,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println("case,median_apply_us,last_kernel_us,last_device_to_host_us,exits,recompiles,reexecuted_elements");

        int[] table = {3, 1, 4, 1, 5, 9, 2, 6};
        int bound = 64; // beyond table.length: the hoisted bounds check fails, the loop breaks before it
        Function<Integer, Integer> earlyBreak = k -> {
            int sum = 0;
            for (int j = 0; j < bound; j++) {
                if (j == (k & 7)) {
                    break;
                }
                sum += table[j] * (j + 1);
            }
            return sum;
        };
        int[] keys = new int[n];
        Arrays.setAll(keys, i -> i * 31);
        try (PArray<Integer> input = PArray.of(keys)) {
            System.setProperty(MAX_RECOMPILES, "0");
            row("early-breaking loop, never recompiled (before issue 21)", earlyBreak, AF.map(earlyBreak), input, applies);
            System.clearProperty(MAX_RECOMPILES);
            row("early-breaking loop, recompiled after one exit", earlyBreak, AF.map(earlyBreak), input, applies);
        }

        Function<Double, Double> sine = Math::sin;
        double[] angles = new double[n];
        Arrays.setAll(angles, i -> (i % 1000) * 0.01 - 5);
        try (PArray<Double> exitAtLast = angles(angles, n - 1); PArray<Double> exitAtFirst = angles(angles, 0)) {
            row("sin, exit at the last element", sine, AF.map(sine), exitAtLast, applies);
            row("sin, exit at the first element", sine, AF.map(sine), exitAtFirst, applies);
            row("sin, whole map on Java threads", sine, AF.map(sine).on(Executor.THREADS), exitAtFirst, applies);
        }
    }

    /** {@code base} with a huge angle (which kernels leave to Java) at {@code element}. */
    private static PArray<Double> angles(double[] base, int element) {
        double[] values = base.clone();
        values[element] = 1e7;
        return PArray.of(values);
    }

    private static <T, R> void row(String name, Function<T, R> lambda, ArrayFunction<T, R> map, PArray<T> input, int applies) {
        Object[] expected;
        try (PArray<R> java = AF.map(lambda).on(Executor.SEQUENTIAL).apply(input)) {
            expected = new Object[(int) java.length()];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = java.get(i);
            }
        }
        long[] micros = new long[applies];
        ApplyProfile last = null;
        for (int apply = -2; apply < applies; apply++) {
            long start = System.nanoTime();
            try (PArray<R> output = map.apply(input)) {
                long elapsed = System.nanoTime() - start;
                last = AF.lastProfile();
                check(name, expected, output);
                if (apply >= 0) {
                    micros[apply] = elapsed / 1000;
                }
            }
        }
        Arrays.sort(micros);
        System.out.printf("%s,%d,%d,%d,%d,%d,%d%n", name, micros[applies / 2], last.kernelNanos() / 1000, last.deviceToHostNanos() / 1000, last.kernelExits(), last.recompiles(),
                        last.reexecutedElements());
    }

    /**
     * Bit for bit against the sequential executor, except where {@code Math.sin} may differ within
     * its 1 ulp: the device computes StrictMath's bits, HotSpot its intrinsic's.
     */
    private static <R> void check(String name, Object[] expected, PArray<R> output) {
        for (int i = 0; i < expected.length; i++) {
            Object value = output.get(i);
            if (!expected[i].equals(value) && !(value instanceof Double d && Math.abs(d - (Double) expected[i]) <= Math.ulp(d))) {
                throw new AssertionError(name + ": element " + i + " is " + value + ", Java gives " + expected[i]);
            }
        }
    }
}
