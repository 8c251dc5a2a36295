package jpai.examples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The main job ({@code bin/jpai demo}): the thesis's five programs (saxpy, Black-Scholes, N-Body,
 * Monte Carlo, K-Means membership), written with the JPAI API, run on the default device (or the one
 * {@code -Djpai.device} names). Each result is checked against the same function run sequentially by
 * the JVM, then both are timed. Exit code 0 when every check passes, 1 when one fails, 2 for a
 * {@code jpai.device} that matches nothing.
 *
 * <p>{@code -Djpai.explain} is on unless set: a program that falls back to Java threads says why.
 */
public final class Demo {

    private static final int TIMED_RUNS = 5;

    /** A program and the size it runs at, scaled by the command line's factor. */
    private record Entry(String name, IntFunction<ThesisProgram> make, int size) {
    }

    public static void main(String[] args) {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        if (System.getProperty("jpai.explain") == null) {
            System.setProperty("jpai.explain", "true");
        }
        String spec = System.getProperty(DeviceSelector.PROPERTY);
        if (spec != null) {
            try {
                DeviceSelector.select(spec, OpenCLPlatforms.discover());
            } catch (DeviceSelectionException e) {
                System.err.println("jpai: " + e.getMessage());
                System.exit(2);
            }
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        System.out.println("JPAI demo: the thesis's five programs, checked against Java and timed against sequential Java");
        System.out.println("device: " + choice.describe());
        System.out.println();

        List<Entry> entries = new ArrayList<>();
        entries.add(new Entry("saxpy", size -> new Saxpy(size, 1), 1 << 22));
        entries.add(new Entry("Black-Scholes", size -> new BlackScholes(size, 2), 1 << 20));
        entries.add(new Entry("N-Body", size -> new NBody(size, 3), 4096));
        entries.add(new Entry("Monte Carlo", size -> new MonteCarlo(size, 4), 1 << 16));
        entries.add(new Entry("K-Means membership", size -> new KMeans(size, 5), 1 << 21));

        System.out.printf("%-20s %10s  %-6s %12s %12s %9s  %s%n", "program", "size", "check", "JPAI ms", "Java ms", "speedup", "compared");
        boolean allPassed = true;
        for (Entry entry : entries) {
            int size = Math.max(64, (int) (entry.size() * scale));
            try (ThesisProgram program = entry.make().apply(size)) {
                allPassed &= run(program, size);
            }
        }
        System.out.println();
        if (Boolean.getBoolean("jpai.agent.installed")) {
            // bin/jpai starts the JVM with the agent: the annotated methods run on the device too
            System.out.println("Accelerated methods (@Accelerate, through the agent), checked against Java:");
            allPassed &= AnnotatedLoops.runAll(Math.max(1024, (int) ((1 << 20) * scale)), Math.max(16, (int) (256 * Math.sqrt(scale))));
            System.out.println();
        } else {
            System.out.println("(started without JPAI's agent: the @Accelerate examples, jpai.examples.AnnotatedLoops, are left out; bin/jpai demo adds the agent)");
            System.out.println();
        }
        System.out.println(allPassed ? "all results match Java's" : "RESULT CHECK FAILED");
        System.exit(allPassed ? 0 : 1);
    }

    private static boolean run(ThesisProgram program, int size) {
        String difference;
        try (PArray<?> reference = program.run(Executor.SEQUENTIAL); PArray<?> result = program.run(Executor.AUTO)) {
            difference = program.compare(reference, result);
            if (program instanceof MonteCarlo monteCarlo) {
                System.out.printf("  (Monte Carlo estimates pi as %.6f)%n", monteCarlo.pi(result));
            }
        }
        long[] jpai = new long[TIMED_RUNS];
        long[] java = new long[TIMED_RUNS];
        for (int run = 0; run < TIMED_RUNS; run++) {
            jpai[run] = timed(program, Executor.AUTO);
            java[run] = timed(program, Executor.SEQUENTIAL);
        }
        double jpaiMs = median(jpai) / 1e6;
        double javaMs = median(java) / 1e6;
        System.out.printf("%-20s %10d  %-6s %12.3f %12.3f %8.2fx  %s%n", program.name(), size, difference == null ? "PASS" : "FAIL", jpaiMs, javaMs, javaMs / jpaiMs, program.check());
        if (difference != null) {
            System.out.println("  " + difference);
        }
        return difference == null;
    }

    private static long timed(ThesisProgram program, Executor executor) {
        long start = System.nanoTime();
        try (PArray<?> result = program.run(executor)) {
            result.get(0); // results come back when the host reads them: the caller's wait includes that
            result.get(result.length() - 1);
            return System.nanoTime() - start;
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
