package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.Devices;

/**
 * Issues 17 and 22: the suite's programs with their maps split over 1, 2, ... devices
 * ({@code f.on(Devices.of(...))}, through {@link JpaiRun#placed}), inputs resident on each device as a
 * JPAI user keeps them (the timed calls apply the same function to the same arrays). For each
 * program and device count: the end-to-end median of the timed calls and the kernel-only median
 * (the longest part's kernel), the output validated against sequential Java first, the split the
 * runtime chose. Scaling is the time on the first device alone, unsplit (JPAI's single-device path), over
 * the time on k.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.SplitScaling DEVICES [PROGRAMS] [CALLS] [SIZE]}: DEVICES
 * is a comma-separated list of device specs ({@code 0,1}); PROGRAMS a comma-separated list (default
 * nbody,matmul,mandelbrot,dft,blackscholes); CALLS timed calls per case (default 20); SIZE
 * {@code large} (default), {@code small}, or {@code largeK}: K times the large size's elements
 * ({@code large4}: the "a size four times larger"; a 2-D program's side grows by the square
 * root of K, rounded to a multiple of 16). Sizes past the large one are checked against the
 * single-device result (the same kernel, so the same bits), which the large size checks against
 * sequential Java. The first row of each program is its first device unsplit (the single-device
 * path), for comparison.
 * Prints {@code program,size,devices,e2e_ms,kernel_ms,h2d_ms,d2h_ms,scaling_e2e,scaling_kernel,imbalance,split}:
 * medians of the timed calls; h2d and d2h as JPAI's profile counts them (for a split, the longest
 * part's, its copy-back included; unsplit, the copy-back at the host's read too); imbalance is the
 * longest part's kernel time over the mean of the parts' (1 when even), from the last timed call's
 * profile. Every call's results are closed after it, untimed, as a program applying a function
 * again and again would (results left to the garbage collector keep their pinned memory until
 * then, and every apply would pin fresh memory).
 */
public final class SplitScaling {

    private SplitScaling() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: SplitScaling DEVICES [PROGRAMS] [CALLS] [small|large]");
            System.exit(2);
        }
        String[] specs = args[0].split(",");
        List<String> names = Arrays.asList((args.length > 1 ? args[1] : "nbody,matmul,mandelbrot,dft,blackscholes").split(","));
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        String sizeArg = args.length > 3 ? args[3] : "large";
        SizeClass size = sizeArg.equals("small") ? SizeClass.SMALL : SizeClass.LARGE;
        int times = sizeArg.matches("large\\d+") ? Integer.parseInt(sizeArg.substring("large".length())) : 1;
        boolean ok = true;
        System.out.println("program,size,devices,e2e_ms,kernel_ms,h2d_ms,d2h_ms,scaling_e2e,scaling_kernel,imbalance,split");
        for (Program<?> program : Programs.all()) {
            if (names.contains(program.name())) {
                ok &= measure(program, specs, calls, size, times);
            }
        }
        System.exit(ok ? 0 : 1);
    }

    private static <D> boolean measure(Program<D> program, String[] specs, int calls, SizeClass size, int times) {
        int n = program.size(size);
        if (times > 1) {
            // K times the elements: a 2-D program's size is its side ("4096^2 pixels"), a 1-D program's its length
            n = program.sizeLabel(n).contains("^2") ? (int) (Math.round(n * Math.sqrt(times) / 16) * 16) : times * n;
        }
        D data = program.createData(n, new Random(42));
        // Larger sizes would take sequential Java minutes (matmul, N-Body): there the splits are
        // checked against the single-device result (the same kernel: the same bits), which the large
        // size checks against Java.
        Output reference = times > 1 ? null : program.reference(data);
        double baseE2e = 0;
        double baseKernel = 0;
        boolean ok = true;
        String device = System.getProperty("jpai.device");
        for (int k = 0; k <= specs.length; k++) {
            // k = 0: the first device alone, unsplit (the single-device path), for comparison with a split of one
            if (k == 0) {
                System.setProperty("jpai.device", specs[0]);
            } else {
                restore(device);
            }
            JpaiRun.splitOver(k == 0 ? null : Devices.of(Arrays.copyOf(specs, k)));
            try (Run jpai = program.jpai(data)) {
                jpai.run(); // compiles, builds and sends
                if (reference == null) {
                    reference = jpai.output();
                }
                String problem = program.validate(data, n, reference, jpai.output());
                if (problem != null) {
                    System.out.println(program.name() + ": RESULT DIFFERS on " + k + " devices: " + problem);
                    ok = false;
                    continue;
                }
                jpai.discard();
                for (int w = 0; w < 5; w++) {
                    jpai.run();
                    jpai.discard();
                }
                List<Long> e2e = new ArrayList<>();
                List<Long> kernel = new ArrayList<>();
                List<Long> h2d = new ArrayList<>();
                List<Long> d2h = new ArrayList<>();
                String split = "";
                for (int c = 0; c < calls; c++) {
                    long start = System.nanoTime();
                    jpai.run();
                    e2e.add(System.nanoTime() - start);
                    java.util.Map<String, Long> parts = JpaiRun.lastSplit();
                    jpai.discard();
                    ApplyProfile profile = AF.lastProfile();
                    kernel.add(profile.kernelNanos());
                    h2d.add(parts == null ? 0 : parts.get("h2d"));
                    d2h.add(parts == null ? 0 : parts.get("d2h"));
                    split = profile.device();
                    if (profile.fellBack()) {
                        System.out.println(program.name() + ": FELL BACK on " + k + " devices: " + profile.fallbackReason());
                        ok = false;
                        break;
                    }
                }
                double e2eMs = median(e2e) / 1e6;
                double kernelMs = median(kernel) / 1e6;
                if (k == 0) { // scaling against the single-device path
                    baseE2e = e2eMs;
                    baseKernel = kernelMs;
                }
                System.out.printf("%s,%s,%s,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f,%s%n", program.name(), program.sizeLabel(n), k == 0 ? "1 unsplit" : Integer.toString(k), e2eMs, kernelMs,
                                median(h2d) / 1e6, median(d2h) / 1e6, baseE2e / e2eMs,
                                kernelMs > 0 ? baseKernel / kernelMs : 0, imbalance(split), split.replace(',', ';'));
            } finally {
                JpaiRun.splitOver(null);
                restore(device);
            }
        }
        return ok;
    }

    private static void restore(String device) {
        if (device == null) {
            System.clearProperty("jpai.device");
        } else {
            System.setProperty("jpai.device", device);
        }
    }

    private static final java.util.regex.Pattern PART_KERNEL = java.util.regex.Pattern.compile("\\[\\d+\\] \\d+ % ([0-9.]+) ms");

    /** The longest part's kernel time over the parts' mean, read from the profile's device ("... [1] 50 % 0.712 ms + ..."); 1 for one part. */
    private static double imbalance(String device) {
        java.util.regex.Matcher m = PART_KERNEL.matcher(device);
        double max = 0;
        double sum = 0;
        int parts = 0;
        while (m.find()) {
            double ms = Double.parseDouble(m.group(1));
            max = Math.max(max, ms);
            sum += ms;
            parts++;
        }
        return parts == 0 || sum == 0 ? 1 : max / (sum / parts);
    }

    private static double median(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
