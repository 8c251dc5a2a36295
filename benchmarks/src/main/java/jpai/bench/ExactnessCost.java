package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import jpai.ocl.ExactFloatDivSqrt;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * What Java's exact float division and sqrt cost in N-Body, the suite's program with a division by
 * a square root per pair: the kernel time (OpenCL events) of the JPAI version with each formulation
 * of {@code -Djpai.exactDivSqrt} (builtin, double, fma), with {@code -Djpai.fastmath=true}, and of
 * the hand-written kernel (rsqrt, relaxed precision), in one run on one device. Each JPAI exact
 * version must equal sequential Java ({@link Tolerance#EXACT}: it is the same arithmetic); fast math and the
 * hand-written kernel are held to {@link Tolerance#relaxedForFastMath()} of N-Body's tolerance.
 * Every JPAI version runs with {@code -Djpai.fallback=error}.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.ExactnessCost [bodies, default 16384] [timed runs, default 20]};
 * on the GPU machine {@code bin/gpu-check exactness}.
 */
public final class ExactnessCost {

    private ExactnessCost() {
    }

    /** One version's kernel times and its check against Java. */
    private record Row(String version, long[] kernelNanos, String check) {
        double medianMs() {
            long[] sorted = kernelNanos.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2] / 1e6;
        }

        double minMs() {
            return Arrays.stream(kernelNanos).min().orElse(0) / 1e6;
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 16384;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ExactnessCost: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        NBody nbody = new NBody();
        NBody.Data data = nbody.createData(n, new Random(42));
        Output reference;
        try (Run sequential = nbody.sequential(data)) {
            sequential.run();
            reference = sequential.output();
        }
        Tolerance relaxed = nbody.tolerance(n).relaxedForFastMath();
        List<Row> rows = new ArrayList<>();
        boolean failed = false;
        for (ExactFloatDivSqrt formulation : ExactFloatDivSqrt.values()) {
            Row row = jpai(nbody, data, "JPAI exact, " + formulation.optionValue(), formulation, false, runs, reference, Tolerance.EXACT);
            rows.add(row);
            failed |= row.check() != null;
        }
        Row fast = jpai(nbody, data, "JPAI fast math", ExactFloatDivSqrt.BUILTIN, true, runs, reference, relaxed);
        rows.add(fast);
        failed |= fast.check() != null;
        try (Jocl cl = Jocl.open(device.device()); Run hand = nbody.openCL(data, cl)) {
            long[] times = time(hand, runs);
            String check = relaxed.check(reference, hand.output());
            rows.add(new Row("hand-written (rsqrt)", times, check));
            failed |= check != null;
        }
        double handMs = rows.get(rows.size() - 1).medianMs();
        System.out.printf(Locale.ROOT, "N-Body, %d bodies, %s, kernel time over %d runs (OpenCL events)%n", n, device.device().name().strip(), runs);
        System.out.printf(Locale.ROOT, "| version | median ms | min ms | / hand-written | check |%n|---|---:|---:|---:|---|%n");
        for (Row row : rows) {
            System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.2f | %s |%n", row.version(), row.medianMs(), row.minMs(), row.medianMs() / handMs,
                            row.check() == null ? "ok" : "FAILED: " + row.check());
        }
        System.exit(failed ? 1 : 0);
    }

    private static Row jpai(NBody nbody, NBody.Data data, String name, ExactFloatDivSqrt formulation, boolean fastMath, int runs, Output reference, Tolerance tolerance) {
        System.setProperty(JpaiOptions.EXACT_DIV_SQRT, formulation.optionValue());
        try (JpaiExecution ignored = JpaiExecution.enter(JpaiExecution.Executor.OPENCL, true, fastMath); Run run = nbody.jpai(data)) {
            long[] times = time(run, runs);
            return new Row(name, times, tolerance.check(reference, run.output()));
        } finally {
            System.clearProperty(JpaiOptions.EXACT_DIV_SQRT);
        }
    }

    /** One untimed run (compiles and builds), then {@code runs} kernel times. */
    private static long[] time(Run run, int runs) {
        run.run();
        long[] times = new long[runs];
        for (int i = 0; i < runs; i++) {
            run.discard();
            times[i] = run.run();
        }
        return times;
    }
}
