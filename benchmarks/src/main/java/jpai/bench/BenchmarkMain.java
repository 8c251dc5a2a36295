package jpai.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * {@code bin/jpai bench}: runs the suite and writes {@code results.csv}, {@code results.md},
 * {@code speedups.png} and {@code run.log} under {@code benchmarks/results/<device>-<date>/}.
 * Exit code 0 when every version that ran validated, 1 when one did not, 2 for bad arguments or a
 * {@code jpai.device} that matches nothing.
 */
public final class BenchmarkMain {

    static final String USAGE = """
            Usage: bin/jpai bench [options]
              --quick                 tiny sizes, 10 runs, short budgets: everything runs and validates in minutes
              --only NAME[,NAME]      programs to run: %s
              --versions ID[,ID]      versions to run besides the sequential reference: %s
              --size CLASS            small | large | all (default all; quick with --quick; tiny for tests)
              --runs N                timed runs per version at most (default 100; 10 with --quick)
              --warmup N              warm-up runs after the validation run at least, then more back to back until
                                      half the budget or 1 s is spent (default 5; 2 with --quick; 0: none)
              --budget SECONDS        per version, stop timing after this long once 3 runs are done (default 3; 0.5 with --quick)
              --deadline SECONDS      start nothing new after this long; what is left is reported "not run" (default none)
              --seed N                seed of the random inputs (default 42)
              --out DIR               write results to DIR (default <results root>/<device>-<date>)
              --results-root DIR      parent of the default DIR (default benchmarks/results)
              --report DIR            do not measure: remake results.md and speedups.png from DIR/results.csv
            The device is JPAI's choice (-Djpai.device=..., see bin/jpai help); the hand-written OpenCL and Aparapi
            versions run on the same device.
            """;

    private BenchmarkMain() {
    }

    /** The parsed command line. */
    record Options(boolean quick, List<String> only, Set<VersionKind> versions, List<SizeClass> sizes, int runs, int warmups, double budget,
            double deadline, long seed, Path out, Path resultsRoot, Path report) {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the suite; returns the exit code. */
    public static int run(String[] args) {
        // Before any Aparapi class loads: Aparapi reads its configuration once, in a static initialiser.
        System.setProperty("com.aparapi.enableProfiling", "true");
        System.setProperty("java.awt.headless", "true");
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("jpai bench: " + e.getMessage());
            System.err.print(usage());
            return 2;
        }
        if (options == null) {
            System.out.print(usage());
            return 0;
        }
        try {
            if (options.report() != null) {
                return report(options.report());
            }
            return measure(options, args);
        } catch (IOException e) {
            System.err.println("jpai bench: " + e.getMessage());
            return 2;
        }
    }

    private static String usage() {
        return String.format(Locale.ROOT, USAGE, String.join(",", Programs.names()),
                String.join(",", EnumSet.complementOf(EnumSet.of(VersionKind.SEQUENTIAL)).stream().map(VersionKind::id).toList()));
    }

    static Options parse(String[] args) {
        boolean quick = false;
        List<String> only = new ArrayList<>();
        Set<VersionKind> versions = EnumSet.allOf(VersionKind.class);
        String size = null;
        Integer runs = null;
        Integer warmups = null;
        Double budget = null;
        double deadline = 0;
        long seed = 42;
        Path out = null;
        Path root = null;
        Path report = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--quick" -> quick = true;
                case "--only" -> {
                    for (String name : value(args, ++i, arg).split(",")) {
                        if (!Programs.names().contains(name.strip())) {
                            throw new IllegalArgumentException("unknown program '" + name + "'; programs: " + String.join(",", Programs.names()));
                        }
                        only.add(name.strip());
                    }
                }
                case "--versions" -> {
                    versions = EnumSet.of(VersionKind.SEQUENTIAL);
                    for (String id : value(args, ++i, arg).split(",")) {
                        versions.add(VersionKind.fromId(id.strip()));
                    }
                }
                case "--size" -> size = value(args, ++i, arg);
                case "--runs" -> runs = positive(value(args, ++i, arg), arg);
                case "--warmup" -> warmups = Integer.parseInt(value(args, ++i, arg));
                case "--budget" -> budget = Double.parseDouble(value(args, ++i, arg));
                case "--deadline" -> deadline = Double.parseDouble(value(args, ++i, arg));
                case "--seed" -> seed = Long.parseLong(value(args, ++i, arg));
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--results-root" -> root = Path.of(value(args, ++i, arg));
                case "--report" -> report = Path.of(value(args, ++i, arg));
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'");
            }
        }
        List<SizeClass> sizes = switch (size == null ? (quick ? "quick" : "all") : size) {
            case "all" -> List.of(SizeClass.SMALL, SizeClass.LARGE);
            case "small" -> List.of(SizeClass.SMALL);
            case "large" -> List.of(SizeClass.LARGE);
            case "quick" -> List.of(SizeClass.QUICK);
            case "tiny" -> List.of(SizeClass.TINY);
            default -> throw new IllegalArgumentException("--size takes small, large, all, quick or tiny, not '" + size + "'");
        };
        if (root == null) {
            String property = System.getProperty("jpai.bench.results");
            root = Path.of(property != null ? property : "benchmarks/results");
        }
        return new Options(quick, only.isEmpty() ? Programs.names() : only, versions, sizes, runs != null ? runs : quick ? 10 : 100,
                warmups != null ? warmups : quick ? 2 : 5, budget != null ? budget : quick ? 0.5 : 3.0, deadline, seed, out, root, report);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int positive(String text, String option) {
        int value = Integer.parseInt(text);
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1");
        }
        return value;
    }

    private static int measure(Options options, String[] args) throws IOException {
        long started = System.nanoTime();
        String spec = System.getProperty(DeviceSelector.PROPERTY);
        if (spec != null && !spec.isBlank()) {
            try {
                DeviceSelector.select(spec, OpenCLPlatforms.discover());
            } catch (DeviceSelectionException e) {
                System.err.println("jpai: " + e.getMessage());
                return 2;
            }
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        OpenCLDeviceInfo device = choice instanceof DeviceChoice.OpenCL openCL ? openCL.device() : null;
        String date = LocalDate.now().toString();
        Path out = options.out() != null ? options.out() : options.resultsRoot().resolve(slug(device) + "-" + date);
        Files.createDirectories(out);
        PrintStream log = new PrintStream(new Tee(System.out, Files.newOutputStream(out.resolve("run.log"))), true, StandardCharsets.UTF_8);

        Properties info = new Properties();
        info.setProperty("date", date);
        info.setProperty("device", device == null ? "Java threads (no OpenCL device)" : device.name().strip());
        info.setProperty("device-detail", choice.describe() + (device == null ? "" : ", driver " + device.driverVersion() + ", " + device.platformVersion()) + "; " + choice.why());
        info.setProperty("host", Runtime.getRuntime().availableProcessors() + " cores, " + cpuModel() + ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        info.setProperty("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
        info.setProperty("mode", (options.quick() ? "quick" : "standard") + ": sizes " + options.sizes().stream().map(SizeClass::id).toList() + ", at most " + options.runs()
                + " timed runs, at least " + options.warmups() + " warm-up (then back to back until half the budget or 1 s), budget " + options.budget() + " s per version (at least 3 runs)"
                + (options.deadline() > 0 ? ", deadline " + options.deadline() + " s" : ""));
        info.setProperty("arguments", args.length == 0 ? "(none)" : String.join(" ", args));
        info.setProperty("seed", Long.toString(options.seed()));
        info.setProperty("method", "validate against sequential, then warm up, then time with System.gc() before each run; end-to-end by System.nanoTime(), kernel-only by OpenCL events");
        if (options.quick() || (device != null && device.platformName().contains("Portable Computing Language"))) {
            info.setProperty("caveat", (options.quick() ? "Quick mode: small sizes and few runs. " : "") + "These numbers come from "
                    + (device == null ? "Java threads" : device.name().strip() + " (" + device.platformName() + ")") + " on "
                    + Runtime.getRuntime().availableProcessors() + " cores and mean little for GPUs: they show that every version runs and validates, not how fast it is on a GPU.");
        }
        try (OutputStream file = Files.newOutputStream(out.resolve("run-info.properties"))) {
            info.store(file, "jpai bench run");
        }
        log.println("JPAI benchmark suite -> " + out.toAbsolutePath());
        log.println("device: " + choice.describe() + " (" + choice.why() + ")");
        log.println(info.getProperty("mode"));

        Jocl jocl = null;
        String joclUnavailable = "no OpenCL device in use (" + choice.why() + ")";
        if (device != null) {
            try {
                jocl = Jocl.open(device);
            } catch (RuntimeException | LinkageError e) {
                joclUnavailable = "JOCL could not open " + device.name() + ": " + e;
            }
        }
        AparapiSupport aparapi = AparapiSupport.forDevice(device);
        log.println(aparapi);

        List<Measurement> rows = new ArrayList<>();
        long deadline = options.deadline() > 0 ? started + (long) (options.deadline() * 1e9) : Long.MAX_VALUE;
        Harness.Settings settings = new Harness.Settings(options.runs(), options.warmups(), options.budget(), 3, options.seed(), deadline, options.versions());
        List<String> failures;
        try (ResultsCsv csv = new ResultsCsv(out.resolve(ResultsCsv.FILE))) {
            Harness harness = new Harness(settings, jocl, joclUnavailable, aparapi, m -> {
                rows.add(m);
                csv.append(m);
            }, log);
            // All programs at one size before the next size: a deadline then cuts large cases, not whole programs.
            for (SizeClass size : options.sizes()) {
                for (Program<?> program : Programs.all()) {
                    if (options.only().contains(program.name())) {
                        harness.run(program, size);
                    }
                }
            }
            failures = new ArrayList<>(harness.failures());
            if (jocl != null && options.only().equals(Programs.names())) {
                // issue 12's apply-overhead microbenchmark: the host cost of one small apply against the hand-written call
                try {
                    // 5 timed calls per timed run of a program: 500 by default, 50 with --quick, at least 10
                    ApplyOverhead.measure(jocl, Math.clamp(5L * options.runs(), 10, 500), log, out.resolve(ApplyOverhead.CSV));
                } catch (RuntimeException | AssertionError e) {
                    failures.add("apply overhead: " + e);
                    e.printStackTrace(log);
                }
            }
        } finally {
            if (jocl != null) {
                jocl.close();
            }
        }
        writeReports(out, rows, info, log);
        log.printf("%nfinished in %.1f s; results in %s%n", (System.nanoTime() - started) / 1e9, out.toAbsolutePath());
        if (!failures.isEmpty()) {
            log.println(failures.size() + " version(s) failed validation or crashed:");
            failures.forEach(f -> log.println("  " + f));
            return 1;
        }
        log.println("every version that ran was validated against the sequential one");
        return 0;
    }

    private static void writeReports(Path out, List<Measurement> rows, Properties info, PrintStream log) throws IOException {
        new MarkdownReport(rows, info, Programs.all()).write(out.resolve(MarkdownReport.FILE));
        if (canDraw()) {
            ChartWriter.write(rows, "JPAI benchmark suite: " + info.getProperty("device") + ", " + info.getProperty("date"), out.resolve(ChartWriter.FILE));
        } else {
            log.println("chart not drawn: this Java runtime has no java.desktop module (the GPU bundle's does not);"
                    + " draw it where there is one: bin/jpai bench --report " + out);
        }
    }

    /**
     * True when this Java runtime can draw the chart (it has java.desktop). Checked here, not in
     * {@link ChartWriter}: loading that class at all needs java.awt.
     */
    static boolean canDraw() {
        return ModuleLayer.boot().findModule("java.desktop").isPresent();
    }

    /** Remakes the Markdown and the chart from a results directory's CSV. */
    private static int report(Path dir) throws IOException {
        List<Measurement> rows = ResultsCsv.read(dir.resolve(ResultsCsv.FILE));
        Properties info = new Properties();
        Path infoFile = dir.resolve("run-info.properties");
        if (Files.exists(infoFile)) {
            try (var in = Files.newInputStream(infoFile)) {
                info.load(in);
            }
        }
        writeReports(dir, rows, info, System.out);
        System.out.println("wrote " + dir.resolve(MarkdownReport.FILE) + (canDraw() ? " and " + dir.resolve(ChartWriter.FILE) : ""));
        return 0;
    }

    /** "nvidia-h100", "pocl-cpu", "java-threads": the device part of the results folder's name. */
    static String slug(OpenCLDeviceInfo device) {
        if (device == null) {
            return "java-threads";
        }
        if (device.platformName().contains("Portable Computing Language")) {
            return "pocl-" + device.kind().name().toLowerCase(Locale.ROOT);
        }
        String[] words = device.name().strip().toLowerCase(Locale.ROOT).split("[^a-z0-9]+");
        if (words.length >= 2 && words[0].equals("nvidia")) {
            return "nvidia-" + words[1];
        }
        String joined = String.join("-", java.util.Arrays.asList(words).subList(0, Math.min(3, words.length)));
        return joined.isEmpty() ? "device" : joined;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the JVM's view is enough
        }
        return "CPU";
    }

    /** Writes to the console and to run.log. */
    private static final class Tee extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        Tee(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int value) throws IOException {
            a.write(value);
            b.write(value);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            a.write(bytes, offset, length);
            b.write(bytes, offset, length);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
