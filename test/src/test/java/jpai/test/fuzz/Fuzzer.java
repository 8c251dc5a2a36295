package jpai.test.fuzz;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.test.fuzz.DifferentialRunner.Category;
import jpai.test.fuzz.DifferentialRunner.Outcome;

/**
 * JPAI's differential fuzzer: random well-typed lambdas, compiled in process, run on the JVM and on
 * the OpenCL device, compared. Program {@code i} of a run with seed {@code S} depends only on
 * {@code S}, {@code i}, the features and the element range, so
 * {@code bin/jpai fuzz --seed S --program i} reproduces it alone. See docs/fuzzing.md.
 *
 * <pre>
 * bin/jpai fuzz [--seed S] [--count N] [--first I] [--program I] [--features all,-tuple_input,...]
 *               [--elements MIN:MAX] [--batch B] [--timeout SECONDS] [--verbose]
 * </pre>
 *
 * Exit code: 0 when no bug was found, 1 when some were, 2 for bad arguments or no OpenCL device.
 */
public final class Fuzzer {

    /** What to run. */
    record Config(long seed, int first, int count, Set<Feature> features, int minElements, int maxElements, int batch, boolean verbose, boolean openCL, long timeoutSeconds) {

        static Config defaults(long seed, int count) {
            return new Config(seed, 0, count, Feature.all(), 200, 2000, 50, false, true, 300);
        }

        /** The command line that reproduces program {@code index} alone. */
        String reproducer(int index) {
            StringBuilder s = new StringBuilder("bin/jpai fuzz --seed ").append(seed).append(" --program ").append(index);
            if (!features.equals(Feature.all())) {
                s.append(" --features ").append(features.isEmpty() ? "none" : ProgramGenerator.names(features));
            }
            if (minElements != 200 || maxElements != 2000) {
                s.append(" --elements ").append(minElements).append(":").append(maxElements);
            }
            return s.toString();
        }
    }

    /** Counts per category, fallback reasons, the bugs found. */
    static final class Summary {
        final Config config;
        final Map<Category, Integer> counts = new EnumMap<>(Category.class);
        final Map<String, Integer> fallbackReasons = new TreeMap<>();
        final Map<String, Integer> exceptions = new TreeMap<>();
        final List<Outcome> bugs = new ArrayList<>();
        /** Per bug: its kind (category and detail's signature) and its reproducer line; also for bugs merged from {@code --jobs} children. */
        final List<String[]> bugLines = new ArrayList<>();
        /** FALLBACK programs whose JVM run threw, and whose Java fallback threw the same. */
        int fallbackThrew;
        long compileNanos;
        long runNanos;
        long wallNanos;
        int programs;

        Summary(Config config) {
            this.config = config;
            for (Category c : Category.values()) {
                counts.put(c, 0);
            }
        }

        void add(Outcome o) {
            programs++;
            counts.merge(o.category(), 1, Integer::sum);
            runNanos += o.nanos();
            if (o.category() == Category.FALLBACK) {
                fallbackReasons.merge(o.reason(), 1, Integer::sum);
                if (o.detail() != null) {
                    fallbackThrew++;
                    exceptions.merge(o.detail().substring("threw ".length()) + " (in Java, after a fallback)", 1, Integer::sum);
                }
            }
            if (o.category() == Category.BOTH_THREW_SAME) {
                exceptions.merge(o.reason(), 1, Integer::sum);
            }
            if (o.category().isBug) {
                bugs.add(o);
                bugLines.add(new String[] {o.category() + ": " + signature(o.detail()), config.reproducer(o.program().index()) + "    # " + o.category() + ": " + shorten(o.detail())});
            }
        }

        /** The counts as lines of text, for a {@code --jobs} parent to add up ({@link #addSaved}). */
        void save(java.nio.file.Path file) throws java.io.IOException {
            List<String> lines = new ArrayList<>();
            lines.add("T\t" + programs + "\t" + fallbackThrew + "\t" + compileNanos + "\t" + runNanos);
            counts.forEach((c, n) -> lines.add("C\t" + c + "\t" + n));
            fallbackReasons.forEach((r, n) -> lines.add("R\t" + n + "\t" + r.replace('\t', ' ').replace('\n', ' ')));
            exceptions.forEach((e, n) -> lines.add("E\t" + n + "\t" + e.replace('\t', ' ').replace('\n', ' ')));
            for (String[] b : bugLines) {
                lines.add("B\t" + b[0].replace('\t', ' ').replace('\n', ' ') + "\t" + b[1].replace('\t', ' ').replace('\n', ' '));
            }
            java.nio.file.Files.write(file, lines);
        }

        /** Adds the counts a {@code --jobs} child saved. */
        void addSaved(java.nio.file.Path file) throws java.io.IOException {
            for (String line : java.nio.file.Files.readAllLines(file)) {
                String[] f = line.split("\t", -1);
                switch (f[0]) {
                    case "T" -> {
                        programs += Integer.parseInt(f[1]);
                        fallbackThrew += Integer.parseInt(f[2]);
                        compileNanos += Long.parseLong(f[3]);
                        runNanos += Long.parseLong(f[4]);
                    }
                    case "C" -> counts.merge(Category.valueOf(f[1]), Integer.parseInt(f[2]), Integer::sum);
                    case "R" -> fallbackReasons.merge(f[2], Integer.parseInt(f[1]), Integer::sum);
                    case "E" -> exceptions.merge(f[2], Integer.parseInt(f[1]), Integer::sum);
                    case "B" -> bugLines.add(new String[] {f[1], f[2]});
                    default -> throw new IllegalStateException("bad line in " + file + ": " + line);
                }
            }
        }

        int count(Category c) {
            return counts.get(c);
        }

        /** The one line a run ends with. */
        String line() {
            String reasons = fallbackReasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(4)
                            .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining("; "));
            int otherReasons = fallbackReasons.size() > 4 ? fallbackReasons.size() - 4 : 0;
            return String.format(Locale.ROOT, "fuzz: seed %d, %d programs: %d match, %d mismatch, %d fallback%s, %d threw the same (+%d in the Java fallback), %d threw differently, %d fallback mismatch, %d rejected by OpenCL, %d generator errors",
                            config.seed, programs, count(Category.MATCH), count(Category.MISMATCH), count(Category.FALLBACK),
                            reasons.isEmpty() ? "" : " (" + reasons + (otherReasons > 0 ? "; " + otherReasons + " more reasons" : "") + ")",
                            count(Category.BOTH_THREW_SAME), fallbackThrew, count(Category.THREW_DIFFERENTLY), count(Category.FALLBACK_MISMATCH), count(Category.OPENCL_REJECTED),
                            count(Category.GENERATOR_ERROR));
        }

        void print(PrintStream out) {
            out.println("fuzz: fallback reasons (" + count(Category.FALLBACK) + " programs):");
            fallbackReasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                            .forEach(e -> out.printf(Locale.ROOT, "fuzz:   %6d  %s%n", e.getValue(), e.getKey()));
            if (!exceptions.isEmpty()) {
                out.println("fuzz: exceptions both sides threw: " + exceptions);
            }
            double seconds = wallNanos / 1e9;
            out.printf(Locale.ROOT, "fuzz: %d programs in %.1f s (%.1f programs/s; javac %.1f s, runs %.1f s)%n", programs, seconds, programs / Math.max(seconds, 1e-9), compileNanos / 1e9,
                            runNanos / 1e9);
            if (!bugLines.isEmpty()) {
                Map<String, Integer> kinds = new TreeMap<>();
                for (String[] b : bugLines) {
                    kinds.merge(b[0], 1, Integer::sum);
                }
                out.println("fuzz: bugs by kind:");
                kinds.forEach((k, n) -> out.printf(Locale.ROOT, "fuzz:   %6d  %s%n", n, k));
                out.println("fuzz: " + bugLines.size() + " bug(s); reproduce each with:");
                for (String[] b : bugLines) {
                    out.println("fuzz:   " + b[1]);
                }
            }
            out.println(line());
        }
    }

    private final Config config;
    private final PrintStream out;
    private final ProgramGenerator generator;
    private final InMemoryCompiler compiler = new InMemoryCompiler();
    private final DifferentialRunner runner;

    Fuzzer(Config config, PrintStream out) {
        this.config = config;
        this.out = out;
        this.generator = new ProgramGenerator(config.features(), config.minElements(), config.maxElements());
        this.runner = new DifferentialRunner(config.openCL());
    }

    /** Generates program {@code index} (no compiling, no running). */
    Program program(int index) {
        return generator.generate(config.seed(), index);
    }

    /** Runs programs {@code first .. first+count-1}, printing each bug as it is found. */
    Summary run() {
        Summary summary = new Summary(config);
        long start = System.nanoTime();
        AtomicReference<Program> current = new AtomicReference<>();
        AtomicLong currentStart = new AtomicLong();
        Thread watchdog = watchdog(current, currentStart);
        try {
            int end = config.first() + config.count();
            long lastProgress = System.nanoTime();
            for (int from = config.first(); from < end; from += config.batch()) {
                int to = Math.min(end, from + config.batch());
                List<Program> programs = new ArrayList<>();
                for (int i = from; i < to; i++) {
                    programs.add(program(i));
                }
                long compileStart = System.nanoTime();
                InMemoryCompiler.Batch batch = compiler.compile(programs);
                summary.compileNanos += System.nanoTime() - compileStart;
                for (Program p : programs) {
                    String error = batch.errors().get(p.className());
                    Outcome outcome;
                    if (error != null) {
                        outcome = new Outcome(p, Category.GENERATOR_ERROR, error, null, 0);
                    } else {
                        Function<Object, Object> f = batch.lambdas().get(p.className());
                        current.set(p);
                        currentStart.set(System.nanoTime());
                        outcome = runner.run(p, f, batch.reductions().get(p.className()));
                        current.set(null);
                    }
                    summary.add(outcome);
                    if (outcome.category().isBug) {
                        report(outcome);
                    } else if (config.verbose()) {
                        out.println("fuzz: program " + p.index() + ": " + outcome.category() + (outcome.reason() == null ? "" : " (" + outcome.reason() + ")"));
                    }
                }
                if (System.nanoTime() - lastProgress > 30e9) {
                    lastProgress = System.nanoTime();
                    double seconds = (lastProgress - start) / 1e9;
                    out.printf(Locale.ROOT, "fuzz: ... %d/%d programs, %.1f s, %d bug(s) so far%n", summary.programs, config.count(), seconds, summary.bugs.size());
                }
            }
        } finally {
            watchdog.interrupt();
        }
        summary.wallNanos = System.nanoTime() - start;
        return summary;
    }

    /** Prints a bug: seed, reproducer, source, what differs. */
    void report(Outcome o) {
        Program p = o.program();
        out.println("fuzz: " + o.category() + " in program " + p.index() + " of seed " + p.runSeed() + " (program seed " + p.seed() + ", " + p.elements() + " elements, input "
                        + p.inputType().javaName() + ", output " + p.outputType().javaName() + ")");
        out.println("fuzz:   " + shorten(o.detail()));
        out.println("fuzz:   reproduce: " + config.reproducer(p.index()));
        out.print(p.numberedSource());
    }

    /** A bug's detail without element numbers and values: what to group bugs by. */
    static String signature(String detail) {
        if (detail == null) {
            return "";
        }
        String s = detail.replace('\n', ' ');
        if (s.startsWith("element ")) { // element i[ component _c]: input ..., JVM ..., device ... (compared ...)
            String component = s.contains(" component _") ? s.substring(s.indexOf(" component _"), s.indexOf(':')) : "";
            int compared = s.lastIndexOf(" (compared ");
            s = "element" + component + " differs" + (compared < 0 ? "" : s.substring(compared).replaceAll("off by \\d+ ulp", "off by N ulp"));
        }
        s = s.replaceAll("Fuzz\\w+\\.java:\\d+", "F.java:N").replaceAll("element \\d+", "element N");
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static String shorten(String s) {
        if (s == null) {
            return "";
        }
        String line = s.replace('\n', ' ');
        return line.length() > 600 ? line.substring(0, 600) + "..." : line;
    }

    /** Stops the JVM, naming the program, if one program runs longer than the timeout (a device hang cannot be interrupted). */
    private Thread watchdog(AtomicReference<Program> current, AtomicLong currentStart) {
        Thread thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                Program p = current.get();
                if (p != null && System.nanoTime() - currentStart.get() > config.timeoutSeconds() * 1_000_000_000L) {
                    out.println("fuzz: HANG: program " + p.index() + " of seed " + p.runSeed() + " ran longer than " + config.timeoutSeconds() + " s");
                    out.println("fuzz:   reproduce: " + config.reproducer(p.index()));
                    out.print(p.numberedSource());
                    out.flush();
                    Runtime.getRuntime().halt(3);
                }
            }
        }, "jpai-fuzz-watchdog");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    // ------------------------------------------------------------------------------------ main

    public static void main(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        boolean verbose = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--verbose") || a.equals("-v")) {
                verbose = true;
            } else if (a.equals("--help") || a.equals("-h")) {
                usage(System.out);
                return;
            } else if (a.startsWith("--") && i + 1 < args.length) {
                options.put(a.substring(2), args[++i]);
            } else {
                System.err.println("fuzz: unknown argument '" + a + "'");
                usage(System.err);
                System.exit(2);
            }
        }
        Config config;
        try {
            long seed = options.containsKey("seed") ? Long.parseLong(options.get("seed")) : System.nanoTime() % 1_000_000;
            int first = Integer.parseInt(options.getOrDefault("first", "0"));
            int count = Integer.parseInt(options.getOrDefault("count", "1000"));
            if (options.containsKey("program")) {
                first = Integer.parseInt(options.get("program"));
                count = 1;
                verbose = true;
            }
            Set<Feature> features = Feature.parse(options.getOrDefault("features", "all"));
            String[] elements = options.getOrDefault("elements", "200:2000").split(":");
            int batch = Integer.parseInt(options.getOrDefault("batch", "50"));
            long timeout = Long.parseLong(options.getOrDefault("timeout", "300"));
            config = new Config(seed, first, count, features, Integer.parseInt(elements[0]), Integer.parseInt(elements[elements.length - 1]), batch, verbose, true, timeout);
        } catch (IllegalArgumentException e) {
            System.err.println("fuzz: bad argument: " + e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        int jobs = Integer.parseInt(options.getOrDefault("jobs", "1"));
        if (jobs > 1 && !options.containsKey("program")) {
            System.exit(runJobs(config, jobs, args));
            return;
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        if (!(choice instanceof DeviceChoice.OpenCL)) {
            System.err.println("fuzz: no OpenCL device in use (" + choice + "): nothing to compare with the JVM");
            System.exit(2);
        }
        System.out.println("fuzz: seed " + config.seed() + ", programs " + config.first() + ".." + (config.first() + config.count() - 1) + ", features " + ProgramGenerator.names(config.features())
                        + ", " + config.minElements() + ".." + config.maxElements() + " elements each, device " + choice);
        Fuzzer fuzzer = new Fuzzer(config, System.out);
        if (options.containsKey("program")) {
            Program p = fuzzer.program(config.first());
            System.out.print(p.numberedSource());
        }
        Summary summary = fuzzer.run();
        summary.print(System.out);
        if (options.containsKey("summary-out")) {
            try {
                summary.save(java.nio.file.Path.of(options.get("summary-out")));
            } catch (java.io.IOException e) {
                System.err.println("fuzz: could not write " + options.get("summary-out") + ": " + e);
                System.exit(2);
            }
        }
        System.out.flush();
        System.exit(summary.bugs.isEmpty() ? 0 : 1);
    }

    /**
     * {@code --jobs K}: runs the programs in K JVMs at once, each with a contiguous share, started with
     * this JVM's own command line (so with the same flags and device), and adds up their summaries.
     * Each program is generated from its own seed, so the programs are the same as in one JVM; only
     * the history each JVM has seen before a program differs (see docs/fuzzing.md, "Reproducing").
     * The device's compiler and the host's cores are then used in parallel: the H100's host has 16.
     */
    private static int runJobs(Config config, int jobs, String[] args) {
        List<String> command;
        try {
            byte[] raw = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/cmdline"));
            command = new ArrayList<>(List.of(new String(raw, java.nio.charset.StandardCharsets.UTF_8).split("\0")));
        } catch (java.io.IOException e) {
            System.err.println("fuzz: --jobs needs /proc/self/cmdline (Linux): " + e);
            return 2;
        }
        int main = command.indexOf(Fuzzer.class.getName());
        if (main < 0) {
            System.err.println("fuzz: --jobs: cannot find " + Fuzzer.class.getName() + " on this JVM's command line");
            return 2;
        }
        List<String> prefix = command.subList(0, main + 1);
        List<String> passOn = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--jobs") || a.equals("--first") || a.equals("--count") || a.equals("--seed") || a.equals("--summary-out")) {
                i++;
            } else {
                passOn.add(a);
            }
        }
        System.out.println("fuzz: seed " + config.seed() + ", programs " + config.first() + ".." + (config.first() + config.count() - 1) + " in " + jobs + " JVMs");
        long start = System.nanoTime();
        Summary total = new Summary(config);
        List<Process> processes = new ArrayList<>();
        List<Thread> relays = new ArrayList<>();
        List<java.nio.file.Path> summaries = new ArrayList<>();
        try {
            java.nio.file.Path poclCaches = java.nio.file.Files.createTempDirectory("jpai-fuzz-pocl-");
            int share = (config.count() + jobs - 1) / jobs;
            for (int j = 0; j < jobs; j++) {
                int first = config.first() + j * share;
                int count = Math.min(share, config.first() + config.count() - first);
                if (count <= 0) {
                    break;
                }
                java.nio.file.Path file = java.nio.file.Files.createTempFile("jpai-fuzz-job" + j + "-", ".txt");
                summaries.add(file);
                List<String> child = new ArrayList<>(prefix);
                child.addAll(List.of("--seed", Long.toString(config.seed()), "--first", Integer.toString(first), "--count", Integer.toString(count), "--summary-out", file.toString()));
                child.addAll(passOn);
                ProcessBuilder builder = new ProcessBuilder(child).redirectErrorStream(true);
                // Each job its own PoCL kernel cache: 15 JVMs building the same kernels into one cold
                // PoCL cache crashed 3 of them with SIGBUS in the dynamic loader (PoCL 3.1 on the
                // H100's host, seed 20261133), one process loading a kernel library another was writing.
                builder.environment().put("POCL_CACHE_DIR", poclCaches.resolve("job-" + j).toString());
                Process process = builder.start();
                processes.add(process);
                String tag = "[job " + j + ": " + first + ".." + (first + count - 1) + "] ";
                Thread relay = new Thread(() -> {
                    try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                            synchronized (System.out) {
                                System.out.println(tag + line);
                            }
                        }
                    } catch (java.io.IOException e) {
                        System.out.println(tag + "output lost: " + e);
                    }
                }, "jpai-fuzz-relay-" + j);
                relay.start();
                relays.add(relay);
            }
            int worst = 0;
            for (int j = 0; j < processes.size(); j++) {
                int code = processes.get(j).waitFor();
                relays.get(j).join();
                if (code == 0 || code == 1) {
                    total.addSaved(summaries.get(j));
                } else {
                    System.out.println("fuzz: job " + j + " ended with exit code " + code + " (see its lines above)");
                }
                worst = Math.max(worst, code);
            }
            total.wallNanos = System.nanoTime() - start;
            System.out.println("fuzz: all " + processes.size() + " jobs, added up:");
            total.print(System.out);
            if (worst > 1) {
                return worst;
            }
            return total.bugLines.isEmpty() ? 0 : 1;
        } catch (java.io.IOException e) {
            System.err.println("fuzz: --jobs: " + e);
            return 2;
        } catch (InterruptedException e) {
            processes.forEach(Process::destroyForcibly);
            Thread.currentThread().interrupt();
            return 2;
        } finally {
            for (java.nio.file.Path file : summaries) {
                try {
                    java.nio.file.Files.deleteIfExists(file);
                } catch (java.io.IOException e) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    private static void usage(PrintStream out) {
        out.println("""
                        Usage: bin/jpai fuzz [options]
                          --seed S            the run's seed (default: random, printed)
                          --count N           how many programs (default 1000)
                          --first I           the first program's number (default 0): runs I .. I+N-1
                          --program I         only program I, printing its source and outcome (a reproducer)
                          --features LIST     which features programs may use: all (default), none, names to add,
                                              -name to remove: branches, loops, arrays, captures, tuple_input,
                                              tuple_output, math, transcendentals, division, exceptions,
                                              strided, reductions
                          --elements MIN:MAX  input elements per program (default 200:2000)
                          --batch B           programs per javac task (default 50)
                          --timeout SECONDS   stop (exit 3) when one program runs longer (default 300)
                          --jobs K            run in K JVMs at once (contiguous shares; summaries added up)
                          --verbose           print every program's outcome
                        Exit code 0: no bug found; 1: bugs found (each with its reproducer); 2: bad arguments or no OpenCL device.""");
    }
}
