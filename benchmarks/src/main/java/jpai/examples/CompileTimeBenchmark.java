package jpai.examples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import jpai.DataType;
import jpai.ElementType;
import jpai.TupleType;
import jpai.runtime.KernelCompilation;

/**
 * Compile time per lambda for the thesis's five programs: Graal graph building with our phases, then
 * OpenCL C generation, without the runtime's kernel cache (through {@link KernelCompilation}), after
 * warm-up; median and minimum in ms. No OpenCL driver build is included.
 *
 * <p>Usage: {@code CompileTimeBenchmark [--warmup N] [--runs N]} (defaults 40 and 60).
 */
public final class CompileTimeBenchmark {

    /** One program's compilation: what the runtime compiles for its apply. */
    private record Case(String name, Supplier<KernelCompilation.Result> compile) {
    }

    private CompileTimeBenchmark() {
    }

    public static void main(String[] args) {
        int warmup = 40;
        int runs = 60;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        DataType floats = TupleType.of(Float.class, Float.class);
        Saxpy saxpy = new Saxpy(16, 1);
        BlackScholes blackScholes = new BlackScholes(16, 2);
        NBody nBody = new NBody(16, 3);
        MonteCarlo monteCarlo = new MonteCarlo(16, 4);
        KMeans kMeans = new KMeans(16, 5);
        List<Case> cases = List.of(
                        new Case("saxpy (map)", () -> KernelCompilation.map(saxpy.saxpyFunction, floats, ElementType.FLOAT)),
                        new Case("Black-Scholes (map)", () -> KernelCompilation.map(blackScholes.blackScholesFunction, ElementType.FLOAT, floats)),
                        new Case("N-Body (map)", () -> KernelCompilation.map(nBody.stepFunction, ElementType.INT,
                                        TupleType.of(Float.class, Float.class, Float.class, Float.class, Float.class, Float.class))),
                        new Case("Monte Carlo (map+reduce)", () -> KernelCompilation.reduce(monteCarlo.sumFunction, ElementType.INT, monteCarlo.insideFunction, ElementType.INT)),
                        new Case("K-Means (map)", () -> KernelCompilation.map(kMeans.nearestFunction, floats, ElementType.INT)));

        System.out.printf(Locale.ROOT, "JPAI compile time per lambda: Graal graph building + JPAI phases, OpenCL C generation (no driver build), %d warm-up and %d timed compilations each, ms%n",
                        warmup, runs);
        System.out.printf(Locale.ROOT, "java %s, %s%n", System.getProperty("java.version"), System.getProperty("os.arch"));
        System.out.printf(Locale.ROOT, "%-26s %12s %12s %12s %12s %12s %12s%n", "program", "graph med", "graph min", "codegen med", "codegen min", "total med", "total min");
        List<String> summary = new ArrayList<>();
        try {
            for (Case c : cases) {
                for (int i = 0; i < warmup; i++) {
                    c.compile().get();
                }
                long[] graph = new long[runs];
                long[] generation = new long[runs];
                long[] total = new long[runs];
                for (int i = 0; i < runs; i++) {
                    KernelCompilation.Result result = c.compile().get();
                    graph[i] = result.graphNanos();
                    generation[i] = result.generationNanos();
                    total[i] = result.totalNanos();
                }
                System.out.printf(Locale.ROOT, "%-26s %12.2f %12.2f %12.2f %12.2f %12.2f %12.2f%n", c.name(), median(graph), min(graph), median(generation), min(generation),
                                median(total), min(total));
                summary.add(String.format(Locale.ROOT, "%s %.1f", c.name().replaceAll(" \\(.*", ""), median(total)));
            }
        } finally {
            saxpy.close();
            blackScholes.close();
            nBody.close();
            monteCarlo.close();
            kMeans.close();
        }
        System.out.println("median total, ms: " + String.join(", ", summary) + " (target < 30 each)");
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return (n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0) / 1e6;
    }

    private static double min(long[] nanos) {
        return Arrays.stream(nanos).min().orElse(0) / 1e6;
    }
}
