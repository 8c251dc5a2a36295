package jpai.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The Markdown summary: speedups over sequential Java, JPAI against hand-written OpenCL and Aparapi,
 * kernel-only times, geometric means, and every version that did not run on the device and why.
 * Made from the CSV rows alone (plus run-info), so {@code --report DIR} can remake it.
 */
public final class MarkdownReport {

    public static final String FILE = "results.md";

    private final List<Measurement> rows;
    private final Properties info;
    private final List<Program<?>> programs;

    public MarkdownReport(List<Measurement> rows, Properties info, List<Program<?>> programs) {
        this.rows = rows;
        this.info = info;
        this.programs = programs;
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, render(), StandardCharsets.UTF_8);
    }

    /** Program × size pairs in the order they were measured. */
    private List<String[]> cases() {
        Set<String> seen = new LinkedHashSet<>();
        List<String[]> cases = new ArrayList<>();
        for (Measurement m : rows) {
            if (seen.add(m.program() + "/" + m.sizeClass())) {
                cases.add(new String[] {m.program(), m.sizeClass().name()});
            }
        }
        return cases;
    }

    /** The median kernel time of {@code numerator} over {@code denominator}'s for case {@code c}, or a dash where either is missing or fell back. */
    private String kernelRatio(String[] c, VersionKind numerator, VersionKind denominator) {
        Measurement top = find(c[0], c[1], numerator, Measurement.KERNEL);
        Measurement bottom = find(c[0], c[1], denominator, Measurement.KERNEL);
        if (top == null || bottom == null || !top.timed() || !bottom.timed() || top.fallback() || bottom.fallback() || bottom.medianMs() <= 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f", top.medianMs() / bottom.medianMs());
    }

    private Measurement find(String program, String sizeClass, VersionKind version, String figure) {
        for (Measurement m : rows) {
            if (m.program().equals(program) && m.sizeClass().name().equals(sizeClass) && m.version() == version && m.figure().equals(figure)) {
                return m;
            }
        }
        return null;
    }

    String render() {
        StringBuilder md = new StringBuilder();
        md.append("# JPAI benchmark suite: ").append(info.getProperty("device", "?")).append(", ").append(info.getProperty("date", "?")).append("\n\n");
        md.append("| | |\n|---|---|\n");
        for (String key : List.of("device", "device-detail", "host", "java", "mode", "arguments", "seed", "method")) {
            if (info.getProperty(key) != null) {
                md.append("| ").append(key).append(" | ").append(escape(info.getProperty(key))).append(" |\n");
            }
        }
        md.append('\n');
        if (info.getProperty("caveat") != null) {
            md.append("> **").append(info.getProperty("caveat")).append("**\n\n");
        }
        md.append("End-to-end: what the caller waits for (transfers, per-call buffer creation and kernels), "
                + "median of the timed runs after validation and warm-up, a `System.gc()` before each. "
                + "Speedup = sequential median / version median. `†` marks JPAI running on Java threads because it "
                + "fell back (never counted as the device); `—` marks a version not run (see the notes). "
                + "Full figures (min, max, quartiles, runs) are in `results.csv`.\n\n");

        Map<String, List<String[]>> bySize = new LinkedHashMap<>();
        for (String[] c : cases()) {
            bySize.computeIfAbsent(c[1], k -> new ArrayList<>()).add(c);
        }
        List<VersionKind> compared = List.of(VersionKind.STREAMS, VersionKind.JPAI_THREADS, VersionKind.JPAI_OPENCL, VersionKind.JPAI_FAST_MATH, VersionKind.OPENCL, VersionKind.OPENCL_EXACT, VersionKind.APARAPI);
        for (Map.Entry<String, List<String[]>> size : bySize.entrySet()) {
            md.append("## Speedup over sequential Java, size ").append(size.getKey().toLowerCase(Locale.ROOT)).append("\n\n");
            md.append("| program | size | precision | sequential ms |");
            compared.forEach(v -> md.append(' ').append(v.title()).append(" |"));
            md.append("\n|---|---|---|---:|");
            compared.forEach(v -> md.append("---:|"));
            md.append('\n');
            Map<VersionKind, List<Double>> speedups = new LinkedHashMap<>();
            for (String[] c : size.getValue()) {
                Measurement seq = find(c[0], c[1], VersionKind.SEQUENTIAL, Measurement.END_TO_END);
                if (seq == null) {
                    continue;
                }
                md.append("| ").append(c[0]).append(" | ").append(seq.sizeLabel()).append(" | ").append(seq.precision()).append(" | ")
                        .append(seq.timed() ? ms(seq.medianMs()) : cell(seq)).append(" |");
                for (VersionKind v : compared) {
                    Measurement m = find(c[0], c[1], v, Measurement.END_TO_END);
                    if (m != null && m.timed() && seq.timed()) {
                        double speedup = seq.medianMs() / m.medianMs();
                        md.append(' ').append(ratio(speedup)).append(m.fallback() ? "†" : "").append(" |");
                        if (!m.fallback()) {
                            speedups.computeIfAbsent(v, k -> new ArrayList<>()).add(speedup);
                        }
                    } else {
                        md.append(' ').append(cell(m)).append(" |");
                    }
                }
                md.append('\n');
            }
            md.append("| **geometric mean** | | | |");
            for (VersionKind v : compared) {
                List<Double> values = speedups.get(v);
                md.append(' ').append(values == null ? "—" : "**" + ratio(geomean(values)) + "** (" + values.size() + ")").append(" |");
            }
            md.append("\n\nGeometric means leave out fallbacks (†) and versions not run; the count of programs is in parentheses.\n\n");

            md.append("### JPAI on OpenCL against the others, size ").append(size.getKey().toLowerCase(Locale.ROOT)).append("\n\n");
            md.append("Ratio = the other's time / JPAI's time (end-to-end medians): above 1, JPAI is faster. Only where JPAI ran on the device.\n\n");
            md.append("| program | JPAI OpenCL ms | hand-written OpenCL ms | hand-written / JPAI | Aparapi ms | Aparapi / JPAI |\n|---|---:|---:|---:|---:|---:|\n");
            List<Double> vsOpenCL = new ArrayList<>();
            List<Double> vsAparapi = new ArrayList<>();
            for (String[] c : size.getValue()) {
                Measurement jpai = find(c[0], c[1], VersionKind.JPAI_OPENCL, Measurement.END_TO_END);
                Measurement hand = find(c[0], c[1], VersionKind.OPENCL, Measurement.END_TO_END);
                Measurement aparapi = find(c[0], c[1], VersionKind.APARAPI, Measurement.END_TO_END);
                boolean onDevice = jpai != null && jpai.timed() && !jpai.fallback();
                md.append("| ").append(c[0]).append(" | ").append(jpai != null && jpai.timed() ? ms(jpai.medianMs()) + (jpai.fallback() ? "†" : "") : cell(jpai)).append(" | ")
                        .append(hand != null && hand.timed() ? ms(hand.medianMs()) : cell(hand)).append(" | ");
                if (onDevice && hand != null && hand.timed()) {
                    double r = hand.medianMs() / jpai.medianMs();
                    vsOpenCL.add(r);
                    md.append(ratio(r));
                } else {
                    md.append("—");
                }
                md.append(" | ").append(aparapi != null && aparapi.timed() ? ms(aparapi.medianMs()) : cell(aparapi)).append(" | ");
                if (onDevice && aparapi != null && aparapi.timed()) {
                    double r = aparapi.medianMs() / jpai.medianMs();
                    vsAparapi.add(r);
                    md.append(ratio(r));
                } else {
                    md.append("—");
                }
                md.append(" |\n");
            }
            md.append("| **geometric mean** | | | ").append(vsOpenCL.isEmpty() ? "—" : "**" + ratio(geomean(vsOpenCL)) + "** (" + vsOpenCL.size() + ")")
                    .append(" | | ").append(vsAparapi.isEmpty() ? "—" : "**" + ratio(geomean(vsAparapi)) + "** (" + vsAparapi.size() + ")").append(" |\n\n");

            md.append("### Kernel-only time (OpenCL events), size ").append(size.getKey().toLowerCase(Locale.ROOT)).append("\n\n");
            md.append("| program | JPAI OpenCL | JPAI fast math | hand-written OpenCL | hand-written exact OpenCL | Aparapi | exact / fast math | JPAI fast math / hand-written | JPAI exact / hand-written exact |\n"
                    + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (String[] c : size.getValue()) {
                md.append("| ").append(c[0]).append(" | ");
                for (VersionKind v : List.of(VersionKind.JPAI_OPENCL, VersionKind.JPAI_FAST_MATH, VersionKind.OPENCL, VersionKind.OPENCL_EXACT, VersionKind.APARAPI)) {
                    Measurement k = find(c[0], c[1], v, Measurement.KERNEL);
                    md.append(k != null && k.timed() && !k.fallback() ? ms(k.medianMs()) + " ms" : "—").append(" | ");
                }
                md.append(kernelRatio(c, VersionKind.JPAI_OPENCL, VersionKind.JPAI_FAST_MATH)).append(" | ").append(kernelRatio(c, VersionKind.JPAI_FAST_MATH, VersionKind.OPENCL))
                        .append(" | ").append(kernelRatio(c, VersionKind.JPAI_OPENCL, VersionKind.OPENCL_EXACT)).append(" |\n");
            }
            md.append("\nJPAI's kernel-only time is the sum of `kernelNanos` of its applies' profiles (`AF.lastProfile()`, OpenCL events). "
                    + "\"exact / fast math\" is the cost of Java's exact results (`-Djpai.fastmath=true` drops them); "
                    + "\"JPAI fast math / hand-written\" compares the compiler with a human in the same precision class (below 1, JPAI's kernel is faster); "
                    + "\"JPAI exact / hand-written exact\" compares it with a human writing for Java's results (no contraction, correctly rounded `/` and `sqrt`, "
                    + "`exp`, `log`, `sin`, `cos` in `double` rounded to float), only for the programs whose exactness costs their kernels something "
                    + "(its notes in `results.csv` say how many outputs differ from Java's bits).\n\n");

            md.append("### JPAI on OpenCL: profiler split, size ").append(size.getKey().toLowerCase(Locale.ROOT)).append("\n\n");
            md.append("Medians over the timed runs, ms, from `AF.lastProfile()` of each apply of a call (summed over the applies). "
                    + "`d2h` is device time of device→host copies: in the apply itself when the function's results are read ahead (its last result "
                    + "was read on the host, docs/runtime.md), else at the host read after the apply, counted from `Profiler.lazyDeviceToHost()` "
                    + "deltas around the call; `read` is the wall time of that host read (any lazy d2h plus the copy into the Java array); `rest` is the call's wall time minus graal, codegen, driver build, h2d, kernel and d2h. "
                    + "Medians of parts need not add up to the end-to-end median.\n\n");
            md.append("| program | end-to-end |");
            JpaiProfiler.PHASES.forEach(phase -> md.append(' ').append(phase).append(" |"));
            md.append(" h2d bytes | d2h bytes |\n|---|---:|");
            JpaiProfiler.PHASES.forEach(phase -> md.append("---:|"));
            md.append("---:|---:|\n");
            for (String[] c : size.getValue()) {
                Measurement e2e = find(c[0], c[1], VersionKind.JPAI_OPENCL, Measurement.END_TO_END);
                if (e2e == null || !e2e.timed() || e2e.fallback()) {
                    continue;
                }
                md.append("| ").append(c[0]).append(" | ").append(ms(e2e.medianMs())).append(" |");
                for (String phase : JpaiProfiler.PHASES) {
                    Measurement m = find(c[0], c[1], VersionKind.JPAI_OPENCL, "jpai:" + phase);
                    md.append(' ').append(m != null && m.timed() ? ms(m.medianMs()) : "—").append(" |");
                }
                for (String phase : List.of("h2d", "d2h")) {
                    Measurement m = find(c[0], c[1], VersionKind.JPAI_OPENCL, "jpai:" + phase);
                    String bytes = m == null || m.note() == null ? "—" : m.note().replace("median bytes per call: ", "");
                    md.append(' ').append(bytes).append(" |");
                }
                md.append('\n');
            }
            md.append('\n');
        }

        md.append("## Versions that did not run on the device, and why\n\n| program | size | version | ran on | note |\n|---|---|---|---|---|\n");
        Set<String> listed = new LinkedHashSet<>();
        for (Measurement m : rows) {
            if (!m.figure().equals(Measurement.END_TO_END) || (m.timed() && !m.fallback() && m.validated().equals("yes"))) {
                continue;
            }
            String reason = m.note() == null ? "" : m.note();
            String key = m.program() + m.sizeClass() + m.version();
            if (listed.add(key)) {
                md.append("| ").append(m.program()).append(" | ").append(m.sizeClass().id()).append(" | ").append(m.version().title())
                        .append(" | ").append(escape(m.ranOn())).append(m.validated().equals("FAILED") ? " **FAILED**" : "")
                        .append(" | ").append(escape(reason)).append(" |\n");
            }
        }
        md.append("\n## Programs, precision and validation tolerance\n\n| program | precision | one run computes | tolerance against sequential |\n|---|---|---|---|\n");
        for (Program<?> program : programs) {
            if (rows.stream().noneMatch(m -> m.program().equals(program.name()))) {
                continue;
            }
            String tolerance = rows.stream().filter(m -> m.program().equals(program.name())).map(Measurement::tolerance).distinct().reduce((a, b) -> a + "; " + b).orElse("");
            String reason = program.toleranceReason();
            md.append("| ").append(program.name()).append(" | ").append(program.precision()).append(" | ").append(escape(program.description()))
                    .append(" | ").append(escape(tolerance)).append(reason.isEmpty() ? "" : " (" + escape(reason) + ")").append(" |\n");
        }
        md.append('\n');
        return md.toString();
    }

    private static String cell(Measurement m) {
        if (m == null) {
            return "—";
        }
        if (m.validated().equals("FAILED")) {
            return "FAILED";
        }
        return m.ranOn().startsWith("fell back") ? "fell back" : "—";
    }

    static double geomean(List<Double> values) {
        double sum = 0;
        for (double v : values) {
            sum += Math.log(v);
        }
        return Math.exp(sum / values.size());
    }

    private static String ms(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : value >= 1 ? String.format(Locale.ROOT, "%.2f", value) : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String ratio(double value) {
        return value >= 10 ? String.format(Locale.ROOT, "%.1fx", value) : String.format(Locale.ROOT, "%.2fx", value);
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
