package jpai.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results as CSV, one row per program × size × version × figure, written row by row as the
 * harness measures (a run cut short still leaves its rows), and read back by {@code --report}.
 */
public final class ResultsCsv implements AutoCloseable {

    public static final String FILE = "results.csv";
    static final String HEADER = "program,size_class,n,size_label,precision,version,figure,median_ms,min_ms,max_ms,q1_ms,q3_ms,runs,validated,ran_on,tolerance,note";

    private final BufferedWriter out;

    public ResultsCsv(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        out.write(HEADER);
        out.newLine();
        out.flush();
    }

    public void append(Measurement m) {
        try {
            out.write(String.join(",", quote(m.program()), m.sizeClass().id(), Integer.toString(m.n()), quote(m.sizeLabel()), m.precision(),
                    m.version().id(), m.figure(), number(m.medianMs()), number(m.minMs()), number(m.maxMs()), number(m.q1Ms()), number(m.q3Ms()),
                    Integer.toString(m.runs()), m.validated(), quote(m.ranOn()), quote(m.tolerance()), quote(m.note() == null ? "" : m.note())));
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    public static List<Measurement> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(file + " is not a results file of this suite (header differs)");
        }
        List<Measurement> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> f = split(line);
            rows.add(new Measurement(f.get(0), SizeClass.valueOf(f.get(1).toUpperCase(Locale.ROOT)), Integer.parseInt(f.get(2)), f.get(3), f.get(4),
                    VersionKind.fromId(f.get(5)), f.get(6), parse(f.get(7)), parse(f.get(8)), parse(f.get(9)), parse(f.get(10)), parse(f.get(11)),
                    Integer.parseInt(f.get(12)), f.get(13), f.get(14), f.get(15), f.get(16).isEmpty() ? null : f.get(16)));
        }
        return rows;
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.6f", value);
    }

    private static double parse(String value) {
        return value.isEmpty() ? Double.NaN : Double.parseDouble(value);
    }

    private static String quote(String value) {
        if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
            return "\"" + value.replace("\"", "\"\"").replace("\n", " ") + "\"";
        }
        return value;
    }

    private static List<String> split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
