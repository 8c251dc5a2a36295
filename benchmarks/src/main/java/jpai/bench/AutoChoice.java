package jpai.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import jpai.AF;
import jpai.runtime.JpaiOptions;

/**
 * Issue 21's cost-model goal: {@code AUTO} with {@code -Djpai.costModel=true} against the best of
 * the two executors it chooses between, for every suite program at the sizes asked for. Per program
 * and size, in one JVM, three fresh JPAI versions one after the other: on Java threads
 * ({@code jpai.device=java}), on the device ({@code AUTO} as the suite runs it), and with the cost
 * model. Each is validated against the sequential version on its first call, warmed up (the cost
 * model learns from those calls: its first is tiered, later ones measure either side), then timed
 * end to end, medians, each version for at most {@code runs} calls or 3 s once 3 are done (Java
 * threads take a second per call on some programs), after warm-up calls for at least 1 s. The
 * runtime's apply paths of all three are warmed first (thousands of applies each), so that no version
 * is timed while HotSpot still compiles the path the others warmed. The goal: the cost model within 10 % of the better executor
 * everywhere.
 *
 * <p>Prints one CSV line per program and size: the three medians, the ratio of the cost model's to
 * the best, and how many timed calls the cost model chose Java threads for, and how many it shared
 * between Java threads and the device to measure Java's pace again.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.AutoChoice [small|large|all] [timed runs, default 60]
 * [warm-up runs, default 40] [program,...]}; on the GPU machine, after {@code bin/gpu-bundle}:
 * {@code bin/gpu-check autochoice}.
 */
public final class AutoChoice {

    private AutoChoice() {
    }

    public static void main(String[] args) {
        String sizes = args.length > 0 ? args[0] : "all";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int warmups = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        List<String> only = args.length > 3 ? List.of(args[3].split(",")) : null;
        List<SizeClass> classes = switch (sizes) {
            case "small" -> List.of(SizeClass.SMALL);
            case "large" -> List.of(SizeClass.LARGE);
            default -> List.of(SizeClass.SMALL, SizeClass.LARGE);
        };
        System.out.println("device: " + JpaiExecution.where() + "; end-to-end medians of " + runs + " calls after " + warmups + " warm-up calls, ms");
        System.out.println("program,size,threads_ms,device_ms,cost_model_ms,cost_model_vs_best,cost_model_calls_on_java,cost_model_calls_shared");
        warmApplyPaths();
        boolean ok = true;
        for (SizeClass size : classes) {
            for (Program<?> program : Programs.all()) {
                if (only == null || only.contains(program.name())) {
                    ok &= compare(program, size, runs, warmups);
                }
            }
        }
        System.exit(ok ? 0 : 1);
    }

    private static <D> boolean compare(Program<D> program, SizeClass size, int runs, int warmups) {
        int n = program.size(size);
        D data = program.createData(n, new Random(42));
        Output reference = program.reference(data);
        double[] medians = new double[3];
        int onJava = 0;
        int shared = 0;
        int timed = 0;
        for (int mode = 0; mode < 3; mode++) {
            JpaiExecution.Executor executor = mode == 0 ? JpaiExecution.Executor.THREADS : JpaiExecution.Executor.OPENCL;
            if (mode == 2) {
                System.setProperty(JpaiOptions.COST_MODEL, "true");
            }
            try (JpaiExecution ignored = JpaiExecution.enter(executor, false); Run jpai = program.jpai(data)) {
                List<Long> times = new ArrayList<>();
                long started = System.nanoTime();
                for (int i = 0; i < 1 + warmups + runs; i++) {
                    if (i > warmups && times.size() >= 3 && System.nanoTime() - started > BUDGET_NANOS) {
                        break;
                    }
                    if (i == warmups + 1) {
                        started = System.nanoTime();
                    }
                    long start = System.nanoTime();
                    jpai.run();
                    long nanos = System.nanoTime() - start;
                    if (i == 0) {
                        String problem = program.validate(data, n, reference, jpai.output());
                        if (problem != null) {
                            System.out.println(program.name() + ": RESULT DIFFERS (" + new String[] {"threads", "device", "cost model"}[mode] + "): " + problem);
                            return false;
                        }
                    }
                    if (i > warmups) {
                        times.add(nanos);
                        String choice = AF.lastProfile().costChoice();
                        if (mode == 2 && choice != null) {
                            onJava += choice.startsWith("Java threads:") || choice.startsWith("Java threads, measuring") ? 1 : 0;
                            shared += choice.startsWith("Java threads for ") ? 1 : 0;
                        }
                    } else if (i == warmups && System.nanoTime() - started < WARM_UP_NANOS) {
                        i--; // warm-up: at least this long, so that small calls reach HotSpot's top tier
                    } else if (i < warmups && System.nanoTime() - started > BUDGET_NANOS) {
                        i = warmups - 1; // warm-up within the budget too
                    }
                    jpai.discard();
                }
                medians[mode] = Stats.of(times.stream().mapToLong(Long::longValue).toArray()).median() / 1e6;
                if (mode == 2) {
                    timed = times.size();
                }
            } finally {
                System.clearProperty(JpaiOptions.COST_MODEL);
            }
        }
        double best = Math.min(medians[0], medians[1]);
        System.out.printf(Locale.ROOT, "%s,%s,%.3f,%.3f,%.3f,%.2f,%d of %d,%d of %d%n", program.name(), program.sizeLabel(n), medians[0], medians[1], medians[2], medians[2] / best,
                        onJava, timed, shared, timed);
        return true;
    }

    /** Per version: at most this long timing (once 3 calls are timed), and at most this long warming up. */
    private static final long BUDGET_NANOS = 3_000_000_000L;
    /** Per version: warming up at least this long (and at least the warm-up calls asked for). */
    private static final long WARM_UP_NANOS = 1_000_000_000L;

    /**
     * Thousands of small map applies on each of the three paths, so that HotSpot has compiled the
     * runtime's apply path of each before any version is timed.
     */
    private static void warmApplyPaths() {
        float[] values = new float[1 << 16];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f;
        }
        for (int mode = 0; mode < 3; mode++) {
            if (mode == 2) {
                System.setProperty(JpaiOptions.COST_MODEL, "true");
            }
            try (JpaiExecution ignored = JpaiExecution.enter(mode == 0 ? JpaiExecution.Executor.THREADS : JpaiExecution.Executor.OPENCL, false);
                            jpai.PArray<Float> input = jpai.PArray.of(values)) {
                // a chain of multiply-adds per element: the device's path also under the cost model (Java would be slower)
                jpai.ArrayFunction<Float, Float> f = AF.map((Float x) -> {
                    float s = x;
                    for (int k = 0; k < 256; k++) {
                        s = s * 0.999f + 0.5f;
                    }
                    return s;
                });
                for (int i = 0; i < 3000; i++) {
                    try (jpai.PArray<Float> out = f.apply(input)) {
                        out.get(i % values.length);
                    }
                }
            } finally {
                System.clearProperty(JpaiOptions.COST_MODEL);
            }
        }
    }
}
