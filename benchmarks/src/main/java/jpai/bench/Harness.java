package jpai.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import jpai.FallbackException;

/**
 * The measuring method (the thesis's Algorithm 2, kept honest): for one program at one size, make
 * random inputs with a fixed seed; run the sequential version first and keep its output as the
 * reference (refusing an all-zero one); for every other version, run once and validate its output
 * against the reference before any timing (a version that fails is reported FAILED and not timed);
 * warm up (at least the warm-up count, then back to back until half the budget or a second is spent,
 * so that the JIT has compiled each version's host code; not at all when the validation run alone
 * outlasted the budget and 2 s); then time up to {@code runs} calls, each after a {@code System.gc()}, stopping early once
 * the version's time budget is spent (never under {@code minRuns}, never past the global deadline).
 * Each call's end-to-end time is taken with {@code System.nanoTime()} around it, and its kernel time
 * from OpenCL events where the version has them.
 */
public final class Harness {

    /**
     * @param runs           timed runs at most (the thesis uses 100)
     * @param warmups        warm-up runs after the validation run, at least (then more back to back,
     *                       until half the budget or {@link #MAX_WARMUP_SECONDS} is spent); 0: none
     * @param budgetSeconds  per version: stop timing after this much wall time (GC included), once
     *                       {@code minRuns} are done; warm-up stops after half of it
     * @param minRuns        timed runs at least (unless the deadline passes)
     * @param seed           the seed of every program's random inputs
     * @param deadlineNanos  {@code System.nanoTime()} after which nothing new starts (Long.MAX_VALUE: none)
     * @param versions       which versions to run (the sequential one always runs: it is the reference)
     */
    public record Settings(int runs, int warmups, double budgetSeconds, int minRuns, long seed, long deadlineNanos, Set<VersionKind> versions) {
    }

    private final Settings settings;
    private final Jocl jocl;
    private final String joclUnavailable;
    private final AparapiSupport aparapi;
    private final Consumer<Measurement> sink;
    private final PrintStream log;
    private final List<String> failures = new ArrayList<>();

    /**
     * Programs whose JPAI version is known not to run on the device (with the reason in
     * docs/benchmarks.md); any other program's fallback fails the run. None today.
     */
    static final Set<String> EXPECTED_FALLBACKS = Set.of();

    /** Warm-up calls at most, and the longest warm-up (besides the budget's half) in seconds. */
    static final int MAX_WARMUP_CALLS = 20_000;
    static final double MAX_WARMUP_SECONDS = 1.0;

    /**
     * @param jocl            the hand-written versions' OpenCL helper, or null when there is no device
     * @param joclUnavailable why {@code jocl} is null
     * @param sink            receives every measurement as soon as it is made (the CSV is written as it goes)
     */
    public Harness(Settings settings, Jocl jocl, String joclUnavailable, AparapiSupport aparapi, Consumer<Measurement> sink, PrintStream log) {
        this.settings = settings;
        this.jocl = jocl;
        this.joclUnavailable = joclUnavailable;
        this.aparapi = aparapi;
        this.sink = sink;
        this.log = log;
    }

    /** One line per validation failure, error or unexpected JPAI fallback; empty when all went well. */
    public List<String> failures() {
        return failures;
    }

    /** Measures every selected version of {@code program} at {@code sizeClass}. */
    public <D> void run(Program<D> program, SizeClass sizeClass) {
        int n = program.size(sizeClass);
        Context<D> context = new Context<>(program, sizeClass, n);
        if (System.nanoTime() > settings.deadlineNanos()) {
            for (VersionKind kind : VersionKind.values()) {
                if (settings.versions().contains(kind) || kind == VersionKind.SEQUENTIAL) {
                    context.notRun(kind, "not run", "the run's deadline had passed");
                }
            }
            return;
        }
        log.printf("%n== %s, %s (%s) ==%n", program.name(), sizeClass.id(), program.sizeLabel(n));
        context.data = program.createData(n, new Random(settings.seed() ^ program.name().hashCode() ^ n));
        for (VersionKind kind : VersionKind.values()) {
            if (kind != VersionKind.SEQUENTIAL && !settings.versions().contains(kind)) {
                continue;
            }
            if (kind == VersionKind.OPENCL_EXACT && !program.hasExactOpenCL()) {
                continue; // its hand-written kernel pays for no exactness that JPAI's does: nothing to compare
            }
            if (kind != VersionKind.SEQUENTIAL && context.reference == null) {
                context.notRun(kind, "not run", "no validated sequential reference");
                continue;
            }
            if (System.nanoTime() > settings.deadlineNanos()) {
                context.notRun(kind, "not run", "the run's deadline had passed");
                continue;
            }
            try {
                measure(context, kind);
            } catch (NotRunException e) {
                context.notRun(kind, e.ranOn(), e.getMessage());
            } catch (RuntimeException | OutOfMemoryError | LinkageError e) {
                String problem = e.getClass().getSimpleName() + ": " + e.getMessage();
                context.failed(kind, "error", problem);
                e.printStackTrace(log);
            }
        }
        context.data = null;
    }

    @SuppressWarnings("try") // the JpaiExecution scopes are held for their side effect
    private <D> void measure(Context<D> context, VersionKind kind) {
        Program<D> program = context.program;
        D data = context.data;
        switch (kind) {
            case SEQUENTIAL -> time(context, kind, () -> program.sequential(data), null);
            case STREAMS -> time(context, kind, () -> program.streams(data), null);
            case JPAI_THREADS -> {
                try (JpaiExecution ignored = JpaiExecution.enter(JpaiExecution.Executor.THREADS, false)) {
                    time(context, kind, () -> program.jpai(data), "Java threads (jpai.device=java)");
                }
            }
            case JPAI_OPENCL, JPAI_FAST_MATH -> measureJpaiOpenCL(context, kind);
            case OPENCL, OPENCL_EXACT -> {
                if (jocl == null) {
                    throw new NotRunException("not run", joclUnavailable);
                }
                try {
                    time(context, kind, () -> kind == VersionKind.OPENCL ? program.openCL(data, jocl) : program.openCLExact(data, jocl), null);
                } finally {
                    jocl.releaseAll();
                }
            }
            case APARAPI -> time(context, kind, () -> program.aparapi(data, aparapi), null);
        }
    }

    /**
     * JPAI on OpenCL: first with {@code jpai.fallback=error}, so that a fallback is known for sure;
     * if JPAI falls back, the version is timed again as what it is, "Java threads (fallback)", with
     * JPAI's reason in the note. It is never reported as having run on the device.
     */
    @SuppressWarnings("try") // the JpaiExecution scopes are held for their side effect
    private <D> void measureJpaiOpenCL(Context<D> context, VersionKind kind) {
        String where;
        boolean fastMath = kind == VersionKind.JPAI_FAST_MATH;
        try (JpaiExecution ignored = JpaiExecution.enter(JpaiExecution.Executor.OPENCL, true, fastMath)) {
            where = JpaiExecution.where();
            if (!where.startsWith("OpenCL")) {
                throw new NotRunException("not run", "JPAI has no OpenCL device in use (" + where + ")");
            }
            try {
                time(context, kind, () -> context.program.jpai(context.data), where);
                return;
            } catch (FallbackException e) {
                context.fallbackReason = e.getMessage();
            }
        }
        log.printf("  %-13s falls back to Java threads: %s%n", kind.id(), context.fallbackReason);
        if (!EXPECTED_FALLBACKS.contains(context.program.name())) {
            // A JPAI version that does not run on the device is a failure of the suite, not a timing
            // of Java threads under JPAI's name (issue 11: CI stayed green on a fallback).
            failures.add(context.program.name() + " " + context.sizeClass + ": " + kind.title() + " fell back to Java threads, which no program of the suite is expected to: " + context.fallbackReason);
        }
        try (JpaiExecution ignored = JpaiExecution.enter(JpaiExecution.Executor.OPENCL, false, fastMath)) {
            time(context, kind, () -> context.program.jpai(context.data), "Java threads (fallback)");
        } finally {
            context.fallbackReason = null;
        }
    }

    /** "all 12,288 outputs have Java's bits", or how many differ: an exact version is held to Java's bits, a tolerance only hides what differs. */
    private static String javaBitsNote(Output reference, Output candidate) {
        long total = 0;
        long differing = 0;
        for (String name : reference.names()) {
            Object expected = reference.get(name);
            Object actual = candidate.get(name);
            int length = java.lang.reflect.Array.getLength(expected);
            total += length;
            for (int i = 0; i < length; i++) {
                Object e = java.lang.reflect.Array.get(expected, i);
                Object a = java.lang.reflect.Array.get(actual, i);
                boolean same = switch (e) {
                    case Float f -> Float.floatToRawIntBits(f) == Float.floatToRawIntBits((Float) a);
                    case Double d -> Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits((Double) a);
                    default -> e.equals(a);
                };
                if (!same) {
                    differing++;
                }
            }
        }
        return differing == 0 ? String.format(Locale.ROOT, "all %,d outputs have Java's bits", total)
                : String.format(Locale.ROOT, "%,d of %,d outputs differ from Java's bits", differing, total);
    }

    /** Validates, warms up and times one version. {@code ranOnOverride}: where it ran, when the run cannot tell. */
    private <D> void time(Context<D> context, VersionKind kind, Supplier<Run> factory, String ranOnOverride) {
        try (Run run = factory.get()) {
            long start = System.nanoTime();
            long firstKernel = run.run();
            long first = System.nanoTime() - start;
            Output output = run.output();
            run.discard();
            String ranOn = ranOnOverride != null ? ranOnOverride : run.ranOn();
            String note = join(run.note(), context.fallbackReason);
            String problem;
            if (kind == VersionKind.SEQUENTIAL) {
                problem = output.allZero() ? "the reference output is all zero" : null;
            } else {
                problem = kind == VersionKind.JPAI_FAST_MATH ? context.program.validateFastMath(context.data, context.n, context.reference, output)
                                : context.program.validate(context.data, context.n, context.reference, output);
            }
            if (problem != null) {
                context.failed(kind, ranOn, problem);
                return;
            }
            if (kind == VersionKind.OPENCL_EXACT) {
                note = join(note, javaBitsNote(context.reference, output));
            }
            if (kind == VersionKind.SEQUENTIAL) {
                context.reference = output;
            }
            output = null;
            double budgetNanos = settings.budgetSeconds() * 1e9;
            long warmStart = System.nanoTime();
            // A version whose first call alone outlasts the budget and 2 s (seconds of work, not of
            // compilation) had its hot loops compiled during that call: the validation run is its warm-up.
            int warmups = first > Math.max(budgetNanos, 2e9) ? 0 : settings.warmups();
            // At least `warmups` calls, then calls back to back until the warm-up's time is spent (at
            // most MAX_WARMUP_CALLS): five calls leave a version's host code in the interpreter or
            // in C1's profiling tier (HotSpot compiles a method with C2 after thousands of calls), which
            // times the JIT's warm-up, not the version; a long-running program calls it far more often.
            // Every version gets the same warm-up; first calls are measured apart (FIRST_RUN rows).
            double warmupNanos = Math.min(budgetNanos / 2, MAX_WARMUP_SECONDS * 1e9);
            int warmed = 0;
            while (warmed < MAX_WARMUP_CALLS && System.nanoTime() - warmStart < budgetNanos / 2
                    && (warmed < warmups || (warmups > 0 && System.nanoTime() - warmStart < warmupNanos))) {
                run.run();
                run.discard();
                warmed++;
            }
            long[] endToEnd = new long[settings.runs()];
            long[] kernel = new long[settings.runs()];
            Map<String, long[]> split = new HashMap<>();
            JpaiProfiler profiler = JpaiProfiler.current();
            boolean isJpai = kind == VersionKind.JPAI_OPENCL || kind == VersionKind.JPAI_FAST_MATH || kind == VersionKind.JPAI_THREADS;
            int count = 0;
            long timedStart = System.nanoTime();
            while (count < settings.runs()
                    && (count < settings.minRuns() || System.nanoTime() - timedStart < budgetNanos)
                    && (count == 0 || System.nanoTime() < settings.deadlineNanos())) {
                System.gc();
                long t0 = System.nanoTime();
                long k = run.run();
                endToEnd[count] = System.nanoTime() - t0;
                kernel[count] = k;
                run.discard();
                if (isJpai) {
                    Optional<Map<String, Long>> phases = profiler.lastSplit();
                    int index = count;
                    phases.ifPresent(p -> p.forEach((phase, nanos) -> split.computeIfAbsent(phase, x -> new long[settings.runs()])[index] = nanos));
                }
                count++;
            }
            long[] e2e = java.util.Arrays.copyOf(endToEnd, count);
            Stats stats = Stats.of(e2e);
            context.record(kind, Measurement.END_TO_END, stats, "yes", ranOn, note);
            if (firstKernel != Run.NO_KERNEL_TIME && kernel[0] != Run.NO_KERNEL_TIME) {
                context.record(kind, Measurement.KERNEL, Stats.of(java.util.Arrays.copyOf(kernel, count)), "yes", ranOn, note);
            }
            context.record(kind, Measurement.FIRST_RUN, Stats.of(new long[] {first}), "yes", ranOn, "first call: compilation and kernel build included");
            StringBuilder splitLog = new StringBuilder();
            for (String phase : JpaiProfiler.PHASES) {
                if (split.containsKey(phase)) {
                    String bytesKey = phase + "-bytes";
                    String phaseNote = split.containsKey(bytesKey)
                            ? String.format(java.util.Locale.ROOT, "median bytes per call: %.0f", Stats.of(java.util.Arrays.copyOf(split.get(bytesKey), count)).median())
                            : null;
                    Stats phaseStats = Stats.of(java.util.Arrays.copyOf(split.get(phase), count));
                    context.record(kind, "jpai:" + phase, phaseStats, "yes", ranOn, phaseNote);
                    splitLog.append(String.format(java.util.Locale.ROOT, " %s %.3f", phase, phaseStats.median() / 1e6));
                }
            }
            log.printf("  %-13s %10.3f ms median (min %.3f, max %.3f, %d runs)%s  on %s%s%n", kind.id(), stats.median() / 1e6, stats.min() / 1e6, stats.max() / 1e6, count,
                    kernel[0] >= 0 && firstKernel >= 0 ? String.format(java.util.Locale.ROOT, ", kernel %.3f ms", Stats.of(java.util.Arrays.copyOf(kernel, count)).median() / 1e6) : "",
                    ranOn, note == null ? "" : "  [" + note + "]");
            if (!splitLog.isEmpty()) {
                log.printf("  %-13s split (ms, medians):%s%n", "", splitLog);
            }
        }
    }

    private static String join(String a, String b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + "; " + b;
    }

    /** One program at one size while it is measured. */
    private final class Context<D> {
        final Program<D> program;
        final SizeClass sizeClass;
        final int n;
        D data;
        Output reference;
        String fallbackReason;

        Context(Program<D> program, SizeClass sizeClass, int n) {
            this.program = program;
            this.sizeClass = sizeClass;
            this.n = n;
        }

        void record(VersionKind kind, String figure, Stats stats, String validated, String ranOn, String note) {
            sink.accept(new Measurement(program.name(), sizeClass, n, program.sizeLabel(n), program.precision(), kind, figure,
                    stats.median() / 1e6, stats.min() / 1e6, stats.max() / 1e6, stats.q1() / 1e6, stats.q3() / 1e6, stats.count(),
                    validated, ranOn, program.tolerance(n).describe(), note));
        }

        void notRun(VersionKind kind, String ranOn, String why) {
            log.printf("  %-13s %s: %s%n", kind.id(), ranOn, why);
            sink.accept(new Measurement(program.name(), sizeClass, n, program.sizeLabel(n), program.precision(), kind, Measurement.END_TO_END,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, "n/a", ranOn, program.tolerance(n).describe(), why));
        }

        void failed(VersionKind kind, String ranOn, String problem) {
            String line = program.name() + " " + sizeClass.id() + " " + kind.id() + ": " + problem;
            failures.add(line);
            log.printf("  %-13s VALIDATION FAILED on %s: %s%n", kind.id(), ranOn, problem);
            sink.accept(new Measurement(program.name(), sizeClass, n, program.sizeLabel(n), program.precision(), kind, Measurement.END_TO_END,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, "FAILED", ranOn, program.tolerance(n).describe(), problem));
        }
    }

    /** All versions. */
    public static Set<VersionKind> allVersions() {
        return EnumSet.allOf(VersionKind.class);
    }
}
