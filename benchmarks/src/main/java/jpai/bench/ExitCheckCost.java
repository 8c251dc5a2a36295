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
 * kernels that carry checks, compiled as usual and again, as other functions, with them removed
 * ({@code -Djpai.unsafe.noExitChecks=true}, set here around each run of the second build: unsafe,
 * for this measurement only), the timed runs of the two builds alternating: the suite's K-Means
 * (its loop over the captured centres) at the large size and four times it, matmul at the large size, and a gather through a random permutation
 * ({@code AF.map((Integer j) -> source.get(j))} over the index array: a check per element that no
 * hoisting removes). Every output is validated against the sequential version (or Java's gather)
 * before timing, in both modes. The goal: the checks under 3 % of kernel time.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.ExitCheckCost [timed runs of each build, default 100]}; on the GPU
 * machine {@code bin/gpu-run run jpai.bench.ExitCheckCost} after {@code bin/gpu-bundle}.
 */
public final class ExitCheckCost {

    private ExitCheckCost() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ExitCheckCost: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().name() + "; kernel-only medians of " + runs + " runs, ms");
        System.out.println("kernel,with_checks_ms,without_checks_ms,checks_share,with_checks_q1_q3_ms,without_checks_q1_q3_ms");
        boolean ok = true;
        ok &= program(new KMeans(), 1, runs);
        ok &= program(new KMeans(), 4, runs);
        ok &= program(new MatMul(), 1, runs);
        ok &= gather(1 << 24, runs);
        System.clearProperty(UnsafeExitCheckRemoval.PROPERTY);
        System.exit(ok ? 0 : 1);
    }

    private static <D> boolean program(Program<D> program, int scale, int runs) {
        int n = program.size(SizeClass.LARGE) * scale;
        D data = program.createData(n, new Random(42));
        Output reference = program.reference(data);
        // Both builds stay compiled, and the timed runs alternate between them, so that a drift of the
        // device's clock or of the host affects both alike; each run's kernel is its build's, because
        // a function compiles again only when the option it was compiled with changes.
        try (Run checked = program.jpai(data); Run unchecked = program.jpai(data)) {
            Run[] builds = {checked, unchecked};
            List<List<Long>> kernel = List.of(new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < runs + 3; i++) {
                for (int mode = 0; mode < 2; mode++) {
                    setChecks(mode == 0);
                    long nanos = builds[mode].run();
                    if (i == 0) {
                        String problem = program.validate(data, n, reference, builds[mode].output());
                        if (problem != null) {
                            System.out.println(program.name() + ": RESULT DIFFERS (" + (mode == 0 ? "with" : "without") + " checks): " + problem);
                            return false;
                        }
                    }
                    builds[mode].discard();
                    if (i >= 3) {
                        kernel.get(mode).add(nanos);
                    }
                }
            }
            print(program.name() + " " + program.sizeLabel(n), kernel);
        }
        return true;
    }

    private static boolean gather(int n, int runs) {
        Gather.Input input = Gather.Input.random(n, 21);
        float[] values = input.values();
        int[] permutation = input.permutation();
        try (PArray<Float> source = AF.<Float> copyToDevice().apply(PArray.of(values)); PArray<Integer> indices = AF.<Integer> copyToDevice().apply(PArray.of(permutation))) {
            List<ArrayFunction<Integer, Float>> builds = List.of(AF.map((Integer j) -> source.get(j), Float.class), AF.map((Integer j) -> source.get(j), Float.class));
            List<List<Long>> kernel = List.of(new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < runs + 3; i++) {
                for (int mode = 0; mode < 2; mode++) {
                    setChecks(mode == 0);
                    try (PArray<Float> out = builds.get(mode).apply(indices)) {
                        if (i == 0) {
                            float[] got = out.toFloatArray();
                            for (int k = 0; k < n; k++) {
                                if (Float.floatToRawIntBits(got[k]) != Float.floatToRawIntBits(values[permutation[k]])) {
                                    System.out.println("gather: RESULT DIFFERS at " + k + " (" + (mode == 0 ? "with" : "without") + " checks)");
                                    return false;
                                }
                            }
                        }
                        if (i >= 3) {
                            kernel.get(mode).add(AF.lastProfile().kernelNanos());
                        }
                    }
                }
            }
            print("gather 2^" + Integer.numberOfTrailingZeros(n) + " floats", kernel);
        }
        return true;
    }

    private static void setChecks(boolean checks) {
        if (checks) {
            System.clearProperty(UnsafeExitCheckRemoval.PROPERTY);
        } else {
            System.setProperty(UnsafeExitCheckRemoval.PROPERTY, "true");
        }
    }

    private static void print(String kernel, List<List<Long>> nanos) {
        Stats with = Stats.of(nanos.get(0).stream().mapToLong(Long::longValue).toArray());
        Stats without = Stats.of(nanos.get(1).stream().mapToLong(Long::longValue).toArray());
        System.out.printf("%s,%.4f,%.4f,%.1f%%,%.4f-%.4f,%.4f-%.4f%n", kernel, with.median() / 1e6, without.median() / 1e6,
                        100 * (with.median() - without.median()) / with.median(), with.q1() / 1e6, with.q3() / 1e6, without.q1() / 1e6, without.q3() / 1e6);
    }
}
