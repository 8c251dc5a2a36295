package jpai.test.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far the device's transcendental results may be from the JVM's: the numbers are those of
 * docs/java-semantics.md, read from its table of {@code Math} functions (section "Transcendental
 * functions"): for each function, the OpenCL bound of the built-in (OpenCL 1.2, section 7.4), Java's
 * own bound ({@code java.lang.Math}'s Javadoc) and, in the last column, their sum rounded up, the
 * bound of the difference of two results each within its bound of the exact value. This class
 * checks that the last column is that sum, so the document cannot state a bound the fuzzer does not
 * apply.
 *
 * <p>A {@code float} component computed as {@code (float) Math.f(x)}: see {@link #FLOAT_ULPS}.
 *
 * <p>Every other operation (+ - * /, %, sqrt, conversions, Math.abs/min/max/floor/ceil/rint/round/
 * signum/copySign, StrictMath, bit operations) is compared bit for bit.
 */
public final class UlpBounds {

    /** The document the bounds come from, relative to the repository root. */
    static final String DOCUMENT = "docs/java-semantics.md";

    /** A function name in backquotes (static initialisation order: before {@link #DOUBLE_ULPS}). */
    private static final Pattern NAME = Pattern.compile("`(\\w+)`");

    /** The transcendental functions of the document's table, with their bound in double ulps. */
    static final Map<String, Integer> DOUBLE_ULPS = readTable(findDocument(), "ulp bound, double", "Java's own bound", "device vs. JVM, double");

    /**
     * Float components: the compiler computes {@code (float) Math.f(x)} of {@code float} arguments with
     * the {@code float} built-in (FloatTranscendentalsPhase), so the bound is OpenCL's {@code float}
     * bound plus 1 (the document's column "device vs. JVM, float", checked to be that sum); with
     * {@code -Djpai.floatmath=false}, or when the call stays in {@code double}, 1 float ulp, which these
     * bounds include.
     */
    static final Map<String, Integer> FLOAT_ULPS = readTable(findDocument(), "ulp bound, float", null, "device vs. JVM, float");

    private UlpBounds() {
    }

    /**
     * The repository's docs/java-semantics.md: under {@code -Djpai.root}, else the first directory
     * holding it going up from the working directory or from where this class was loaded.
     */
    static Path findDocument() {
        List<Path> starts = new ArrayList<>();
        String root = System.getProperty("jpai.root");
        if (root != null) {
            starts.add(Path.of(root));
        }
        starts.add(Path.of("").toAbsolutePath());
        try {
            starts.add(Path.of(UlpBounds.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: the other places remain
        }
        for (Path start : starts) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(DOCUMENT);
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("cannot find " + DOCUMENT + " (the ulp bounds) above " + starts + "; run from the repository or pass -Djpai.root=<repository>");
    }

    /**
     * Reads the table whose header starts {@code | Java `Math` | OpenCL built-in |}: the function
     * names in backquotes in the first column, the double bound, Java's bound and the allowed
     * difference in the columns named so. Rows whose allowed difference is 0 (sqrt) are left out:
     * they are compared bit for bit.
     */
    static Map<String, Integer> readTable(Path document) {
        return readTable(document, "ulp bound, double", "Java's own bound", "device vs. JVM, double");
    }

    /**
     * As {@link #readTable(Path)}, for the columns named: the allowed difference in {@code allowedColumn}
     * must be the bound in {@code openclColumn} plus Java's in {@code javaColumn}, rounded up, or plus 1
     * (Java's rounding of a double result to float, and its tiny double error) when {@code javaColumn}
     * is null.
     */
    static Map<String, Integer> readTable(Path document, String openclColumn, String javaColumn, String allowedColumn) {
        List<String> lines;
        try {
            lines = Files.readAllLines(document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ulp bounds from " + document, e);
        }
        int header = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("| Java `Math` | OpenCL built-in |")) {
                header = i;
                break;
            }
        }
        if (header < 0) {
            throw new IllegalStateException(document + " has no table of ulp bounds (a header starting \"| Java `Math` | OpenCL built-in |\")");
        }
        List<String> columns = cells(lines.get(header));
        int opencl = columns.indexOf(openclColumn);
        int java = javaColumn == null ? -2 : columns.indexOf(javaColumn);
        int allowed = columns.indexOf(allowedColumn);
        if (opencl < 0 || java == -1 || allowed < 0) {
            throw new IllegalStateException(document + ": the table of ulp bounds lacks a column (" + columns + ")");
        }
        Map<String, Integer> bounds = new TreeMap<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> row = cells(lines.get(i));
            int difference = Integer.parseInt(row.get(allowed));
            if (difference == 0) {
                continue;
            }
            double sum = Double.parseDouble(row.get(opencl)) + (java < 0 ? 1 : Double.parseDouble(row.get(java)));
            if (difference != (int) Math.ceil(sum)) {
                throw new IllegalStateException(document + ", row " + row + ": the allowed difference " + difference + " is not the sum of the bounds rounded up (" + (int) Math.ceil(sum) + ")");
            }
            Matcher names = NAME.matcher(row.get(0));
            while (names.find()) {
                bounds.put(names.group(1), difference);
            }
        }
        if (bounds.isEmpty()) {
            throw new IllegalStateException(document + ": the table of ulp bounds has no rows");
        }
        return Map.copyOf(bounds);
    }

    private static List<String> cells(String row) {
        String trimmed = row.strip();
        String inner = trimmed.substring(1, trimmed.endsWith("|") ? trimmed.length() - 1 : trimmed.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|")) {
            cells.add(cell.strip());
        }
        return cells;
    }

    /** The bound for {@code function} (a name in {@link #DOUBLE_ULPS}) on a component of {@code type}. */
    static int bound(String function, Prim type) {
        Integer ulps = DOUBLE_ULPS.get(function);
        if (ulps == null) {
            throw new IllegalArgumentException("no ulp bound for " + function);
        }
        return type == Prim.FLOAT ? FLOAT_ULPS.get(function) : ulps;
    }

    /**
     * The distance in ulps between two values of a component ({@code Float} or {@code Double}):
     * 0 for equal bits or two NaNs, {@link Long#MAX_VALUE} for a NaN and a number. +0.0 and -0.0 are 1
     * apart; the largest finite value and infinity are 1 apart.
     */
    static long distance(Object expected, Object actual) {
        if (expected instanceof Double e && actual instanceof Double a) {
            if (e.isNaN() || a.isNaN()) {
                return e.isNaN() && a.isNaN() ? 0 : Long.MAX_VALUE;
            }
            return difference(ordered(Double.doubleToRawLongBits(e)), ordered(Double.doubleToRawLongBits(a)));
        }
        if (expected instanceof Float e && actual instanceof Float a) {
            if (e.isNaN() || a.isNaN()) {
                return e.isNaN() && a.isNaN() ? 0 : Long.MAX_VALUE;
            }
            return Math.abs(orderedInt(Float.floatToRawIntBits(e)) - orderedInt(Float.floatToRawIntBits(a)));
        }
        return expected.equals(actual) ? 0 : Long.MAX_VALUE;
    }

    /** Bits mapped so that consecutive doubles are consecutive integers (-0.0 is -1, +0.0 is 0). */
    private static long ordered(long bits) {
        return bits >= 0 ? bits : Long.MIN_VALUE - bits - 1;
    }

    private static long orderedInt(int bits) {
        return bits >= 0 ? bits : (long) Integer.MIN_VALUE - bits - 1;
    }

    private static long difference(long a, long b) {
        long d = a - b;
        // Saturate on overflow (values of opposite signs far apart).
        if (((a ^ b) & (a ^ d)) < 0) {
            return Long.MAX_VALUE;
        }
        return Math.abs(d);
    }
}
