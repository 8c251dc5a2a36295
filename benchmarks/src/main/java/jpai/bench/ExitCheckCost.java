package jpai.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.compiler.UnsafeExitCheckRemoval;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 21's question: what do a kernel's exit checks cost when nothing exits? Kernel-only medians of
 * kernels that carry checks, compiled as usual and then again with them removed
 * ({@code -Djpai.unsafe.noExitChecks=true}, set here between the two compilations, each of fresh
 * functions: unsafe, for this measurement only): the suite's K-Means (its loop over the captured
 * centres) and matmul at the large size, and a gather through a random permutation
 * ({@code AF.map((Integer j) -> source.get(j))} over the index array: a check per element that no
 * hoisting removes). Every output is validated against the sequential version (or Java's gather)
 * before timing, in both modes. The goal: the checks under 3 % of kernel time.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.ExitCheckCost [timed runs, default 20]}; on the GPU
 * machine {@code bin/gpu-run run jpai.bench.ExitCheckCost} after {@code bin/gpu-bundle}.
 */
public final class ExitCheckCost {

    private ExitCheckCost() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ExitCheckCost: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().name() + "; kernel-only medians of " + runs + " runs, ms");
        System.out.println("kernel,with_checks_ms,without_checks_ms,checks_share");
        boolean ok = true;
        ok &= program(new KMeans(), runs);
        ok &= program(new MatMul(), runs);
        ok &= gather(1 << 24, runs);
        System.clearProperty(UnsafeExitCheckRemoval.PROPERTY);
        System.exit(ok ? 0 : 1);
    }

    private static <D> boolean program(Program<D> program, int runs) {
        int n = program.size(SizeClass.LARGE);
        D data = program.createData(n, new Random(42));
        Output reference;
        try (Run sequential = program.sequential(data)) {
            sequential.run();
            reference = sequential.output();
        }
        double[] medians = new double[2];
        for (int mode = 0; mode < 2; mode++) {
            setChecks(mode == 0);
            try (Run jpai = program.jpai(data)) {
                List<Long> kernel = new ArrayList<>();
                for (int i = 0; i < runs + 3; i++) {
                    long nanos = jpai.run();
                    if (i == 0) {
                        String problem = program.validate(data, n, reference, jpai.output());
                        if (problem != null) {
                            System.out.println(program.name() + ": RESULT DIFFERS (" + (mode == 0 ? "with" : "without") + " checks): " + problem);
                            return false;
                        }
                    }
                    jpai.discard();
                    if (i >= 3) {
                        kernel.add(nanos);
                    }
                }
                medians[mode] = Stats.of(kernel.stream().mapToLong(Long::longValue).toArray()).median() / 1e6;
            }
        }
        print(program.name() + " " + program.sizeLabel(n), medians);
        return true;
    }

    private static boolean gather(int n, int runs) {
        Gather.Input input = Gather.Input.random(n, 21);
        float[] values = input.values();
        int[] permutation = input.permutation();
        double[] medians = new double[2];
        try (PArray<Float> source = AF.<Float> copyToDevice().apply(PArray.of(values)); PArray<Integer> indices = AF.<Integer> copyToDevice().apply(PArray.of(permutation))) {
            for (int mode = 0; mode < 2; mode++) {
                setChecks(mode == 0);
                ArrayFunction<Integer, Float> gather = AF.map((Integer j) -> source.get(j), Float.class);
                long[] kernel = new long[runs];
                for (int i = 0; i < runs + 3; i++) {
                    try (PArray<Float> out = gather.apply(indices)) {
                        if (i == 0) {
                            float[] got = out.toFloatArray();
                            for (int k = 0; k < n; k++) {
                                if (Float.floatToRawIntBits(got[k]) != Float.floatToRawIntBits(values[permutation[k]])) {
                                    System.out.println("gather: RESULT DIFFERS at " + k);
                                    return false;
                                }
                            }
                        }
                        if (i >= 3) {
                            kernel[i - 3] = AF.lastProfile().kernelNanos();
                        }
                    }
                }
                medians[mode] = Stats.of(kernel).median() / 1e6;
            }
        }
        print("gather 2^" + Integer.numberOfTrailingZeros(n) + " floats", medians);
        return true;
    }

    private static void setChecks(boolean checks) {
        if (checks) {
            System.clearProperty(UnsafeExitCheckRemoval.PROPERTY);
        } else {
            System.setProperty(UnsafeExitCheckRemoval.PROPERTY, "true");
        }
    }

    private static void print(String kernel, double[] medians) {
        System.out.printf("%s,%.3f,%.3f,%.1f%%%n", kernel, medians[0], medians[1], 100 * (medians[0] - medians[1]) / medians[0]);
    }
}
