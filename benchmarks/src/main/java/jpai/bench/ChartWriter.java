package jpai.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import javax.imageio.ImageIO;

/**
 * The chart: speedup over sequential Java (end-to-end medians) per program and size, one bar per
 * version, on a log scale; JPAI fallbacks hatched grey and labelled "fb", versions not run marked
 * "n/r". Drawn with java.awt in headless mode; needs the java.desktop module (the GPU bundle's
 * jlinked runtime lacks it: the chart is then drawn later with {@code --report DIR}). Callers check
 * {@link BenchmarkMain#canDraw()} before touching this class: loading it needs java.awt.
 */
public final class ChartWriter {

    public static final String FILE = "speedups.png";

    private static final List<VersionKind> BARS = List.of(VersionKind.STREAMS, VersionKind.JPAI_THREADS, VersionKind.JPAI_OPENCL, VersionKind.JPAI_FAST_MATH, VersionKind.OPENCL, VersionKind.APARAPI);
    private static final Color[] COLORS = {new Color(0x8c8c8c), new Color(0x6baed6), new Color(0x08519c), new Color(0x756bb1), new Color(0xe6550d), new Color(0x31a354)};

    private ChartWriter() {
    }

    public static void write(List<Measurement> rows, String title, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String[]> cases = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Measurement m : rows) {
            if (m.version() == VersionKind.SEQUENTIAL && m.figure().equals(Measurement.END_TO_END) && m.timed() && seen.add(m.program() + m.sizeClass())) {
                cases.add(new String[] {m.program(), m.sizeClass().name(), m.sizeLabel()});
            }
        }
        double[][] speedup = new double[cases.size()][BARS.size()];
        boolean[][] fallback = new boolean[cases.size()][BARS.size()];
        double lo = 1;
        double hi = 1;
        for (int c = 0; c < cases.size(); c++) {
            Measurement seq = find(rows, cases.get(c), VersionKind.SEQUENTIAL);
            for (int b = 0; b < BARS.size(); b++) {
                Measurement m = find(rows, cases.get(c), BARS.get(b));
                if (m != null && m.timed()) {
                    speedup[c][b] = seq.medianMs() / m.medianMs();
                    fallback[c][b] = m.fallback();
                    lo = Math.min(lo, speedup[c][b]);
                    hi = Math.max(hi, speedup[c][b]);
                }
            }
        }
        int decadeLo = (int) Math.floor(Math.log10(lo));
        int decadeHi = Math.max(decadeLo + 1, (int) Math.ceil(Math.log10(hi)));
        int groupWidth = BARS.size() * 14 + 22;
        int left = 80;
        int top = 60;
        int plotHeight = 420;
        int bottom = 150;
        int width = Math.max(700, left + cases.size() * groupWidth + 30);
        int height = top + plotHeight + bottom;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, left, 24);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawString("speedup over sequential Java, end-to-end medians, log scale; fb = JPAI fell back to Java threads; n/r = not run", left, 42);
        // axis and decades
        for (int d = decadeLo; d <= decadeHi; d++) {
            int y = yOf(Math.pow(10, d), decadeLo, decadeHi, top, plotHeight);
            g.setColor(d == 0 ? Color.DARK_GRAY : new Color(0xdddddd));
            g.setStroke(new BasicStroke(d == 0 ? 1.5f : 1f));
            g.drawLine(left, y, width - 20, y);
            g.setColor(Color.BLACK);
            String label = d >= 0 ? String.format(Locale.ROOT, "%.0fx", Math.pow(10, d)) : String.format(Locale.ROOT, "%sx", Double.toString(Math.pow(10, d)));
            g.drawString(label, left - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        g.drawLine(left, top, left, top + plotHeight);
        int baseY = yOf(1, decadeLo, decadeHi, top, plotHeight);
        FontMetrics metrics = g.getFontMetrics();
        for (int c = 0; c < cases.size(); c++) {
            int x0 = left + 12 + c * groupWidth;
            for (int b = 0; b < BARS.size(); b++) {
                int x = x0 + b * 14;
                if (speedup[c][b] <= 0) {
                    g.setColor(Color.GRAY);
                    drawVertical(g, "n/r", x + 2, baseY - 4);
                    continue;
                }
                int y = yOf(speedup[c][b], decadeLo, decadeHi, top, plotHeight);
                Color color = fallback[c][b] ? new Color(0xbbbbbb) : COLORS[b];
                g.setColor(color);
                g.fillRect(x, Math.min(y, baseY), 12, Math.max(1, Math.abs(baseY - y)));
                if (fallback[c][b]) {
                    g.setColor(COLORS[b]);
                    for (int h = Math.min(y, baseY); h < Math.max(y, baseY); h += 5) {
                        g.drawLine(x, h + 5, x + 12, h);
                    }
                    g.setColor(Color.DARK_GRAY);
                    g.drawString("fb", x, Math.min(y, baseY) - 3);
                }
            }
            g.setColor(Color.BLACK);
            String label = cases.get(c)[0] + " " + cases.get(c)[1].toLowerCase(Locale.ROOT);
            drawVertical(g, label, x0 + groupWidth / 2 - 8, top + plotHeight + 8 + metrics.stringWidth(label));
        }
        // legend
        int lx = left;
        int ly = height - 18;
        for (int b = 0; b < BARS.size(); b++) {
            g.setColor(COLORS[b]);
            g.fillRect(lx, ly - 10, 12, 12);
            g.setColor(Color.BLACK);
            g.drawString(BARS.get(b).title(), lx + 16, ly);
            lx += 26 + metrics.stringWidth(BARS.get(b).title());
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static void drawVertical(Graphics2D g, String text, int x, int yBottom) {
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2, x, yBottom);
        g.drawString(text, x, yBottom + 10);
        g.setTransform(saved);
    }

    private static int yOf(double value, int decadeLo, int decadeHi, int top, int plotHeight) {
        double position = (Math.log10(value) - decadeLo) / (decadeHi - decadeLo);
        return top + (int) Math.round(plotHeight * (1 - position));
    }

    private static Measurement find(List<Measurement> rows, String[] c, VersionKind version) {
        for (Measurement m : rows) {
            if (m.program().equals(c[0]) && m.sizeClass().name().equals(c[1]) && m.version() == version && m.figure().equals(Measurement.END_TO_END)) {
                return m;
            }
        }
        return null;
    }
}
