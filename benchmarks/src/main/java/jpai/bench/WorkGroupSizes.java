package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 12's work-group tuning, measured: four maps of different character (a streaming
 * {@code zip} map, an all-pairs N-Body step and a matrix product reading captured {@code PArray}s,
 * and Mandelbrot's divergent 2-D loop) run with every forced group size from 32 to 1024
 * ({@code -Djpai.workgroup}, set here per row) and then with the runtime's own choice after its
 * trials; the median kernel time (OpenCL events, {@code ApplyProfile.kernelNanos}) of each. Every
 * output is compared bit for bit with the first size's, and that one with Java's loop; a fallback is
 * an error.
 *
 * <p>Prints CSV ({@code program,work_group,median_kernel_us}; {@code tuned} for the runtime's
 * choice). Here: {@code bin/jpai run jpai.bench.WorkGroupSizes [applies per row, default 20] [--small]}; on the
 * GPU machine, after {@code bin/gpu-bundle --tests}: {@code bin/gpu-check workgroups}.
 */
public final class WorkGroupSizes {

    private static final long[] FORCED = {32, 64, 128, 256, 512, 1024};
    /** Applies before timing the runtime's choice: its trials (at most 5 sizes, 2 launches each) are over by then. */
    private static final int TUNING_APPLIES = 12;

    /** One program: its applies (each returning a result to compare and close) and Java's result. */
    private record Case(String name, Supplier<PArray<?>> apply, Supplier<Object> java, AutoCloseable data) {
    }

    private WorkGroupSizes() {
    }

    public static void main(String[] args) throws Exception {
        int applies = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        boolean small = args.length > 1 && args[1].equals("--small"); // a quarter of each size's work or less, for a CPU device
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("WorkGroupSizes: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.setProperty("jpai.fallback", "error");
        System.out.println("device: " + device.device().name().strip() + "; " + applies + " timed applies per row");
        System.out.println("program,work_group,median_kernel_us");
        for (Case c : cases(small)) {
            try (AutoCloseable data = c.data()) {
                Object expected = c.java().get();
                Object first = null;
                for (long size : FORCED) {
                    System.setProperty("jpai.workgroup", Long.toString(size));
                    Object output = result(c);
                    if (first == null) {
                        check(c.name() + " against Java", expected, output);
                        first = output;
                    } else {
                        check(c.name() + " with groups of " + size, first, output);
                    }
                    System.out.printf("%s,%d,%.1f%n", c.name(), size, medianKernelMicros(c, applies));
                }
                System.clearProperty("jpai.workgroup");
                for (int i = 0; i < TUNING_APPLIES; i++) {
                    c.apply().get().close();
                }
                check(c.name() + " with the tuned size", first, result(c));
                System.out.printf("%s,tuned,%.1f%n", c.name(), medianKernelMicros(c, applies));
            }
        }
    }

    private static List<Case> cases(boolean small) {
        List<Case> cases = new ArrayList<>();
        int n = small ? 1 << 20 : 1 << 24;
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * 0.001f - 7f;
            y[i] = 3f - i * 0.0005f;
        }
        PArray<Float> px = PArray.of(x);
        PArray<Float> py = PArray.of(y);
        PArray<Tuple2<Float, Float>> xy = PArray.zip(px, py);
        ArrayFunction<Tuple2<Float, Float>, Float> saxpy = AF.<Float, Float>zip2().map(t -> 2.5f * t._1() + t._2());
        cases.add(new Case("saxpy " + n, () -> saxpy.apply(xy), () -> {
            float[] z = new float[n];
            for (int i = 0; i < n; i++) {
                z[i] = 2.5f * x[i] + y[i];
            }
            return z;
        }, () -> {
            px.close();
            py.close();
        }));

        int bodies = small ? 2048 : 8192;
        float[] bx = new float[bodies];
        float[] bm = new float[bodies];
        for (int i = 0; i < bodies; i++) {
            bx[i] = (i * 37 % 1000) * 0.002f - 1f;
            bm[i] = 1f / bodies;
        }
        PArray<Float> positions = PArray.of(bx);
        PArray<Float> masses = PArray.of(bm);
        PArray<Integer> indices = PArray.range(bodies);
        ArrayFunction<Integer, Float> force = AF.map((Integer i) -> {
            float p = positions.get(i);
            float f = 0;
            for (int j = 0; j < bodies; j++) {
                float d = positions.get(j) - p;
                float inv = 1.0f / (float) Math.sqrt(d * d + 0.01f);
                f += masses.get(j) * d * inv * inv * inv;
            }
            return f;
        });
        cases.add(new Case("nbody-1d " + bodies, () -> force.apply(indices), () -> {
            float[] f = new float[bodies];
            for (int i = 0; i < bodies; i++) {
                float sum = 0;
                for (int j = 0; j < bodies; j++) {
                    float d = bx[j] - bx[i];
                    float inv = 1.0f / (float) Math.sqrt(d * d + 0.01f);
                    sum += bm[j] * d * inv * inv * inv;
                }
                f[i] = sum;
            }
            return f;
        }, () -> {
            positions.close();
            masses.close();
            indices.close();
        }));

        int m = small ? 256 : 512;
        float[] a = new float[m * m];
        float[] b = new float[m * m];
        for (int i = 0; i < m * m; i++) {
            a[i] = (i % 17) * 0.25f - 2f;
            b[i] = (i % 13) * 0.5f - 3f;
        }
        PArray<Float> pa = PArray.of(a);
        PArray<Float> pb = PArray.of(b);
        PArray<Tuple2<Integer, Integer>> cells = PArray.range(m, m);
        ArrayFunction<Tuple2<Integer, Integer>, Float> product = AF.map((Tuple2<Integer, Integer> ij) -> {
            float sum = 0;
            for (int k = 0; k < m; k++) {
                sum += pa.get(ij._1() * m + k) * pb.get(k * m + ij._2());
            }
            return sum;
        });
        cases.add(new Case("matmul " + m + "^2", () -> product.apply(cells), () -> {
            float[] c = new float[m * m];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    float sum = 0;
                    for (int k = 0; k < m; k++) {
                        sum += a[i * m + k] * b[k * m + j];
                    }
                    c[i * m + j] = sum;
                }
            }
            return c;
        }, () -> {
            pa.close();
            pb.close();
            cells.close();
        }));

        int side = small ? 512 : 2048;
        PArray<Tuple2<Integer, Integer>> pixels = PArray.range(side, side);
        ArrayFunction<Tuple2<Integer, Integer>, Integer> mandelbrot = AF.map((Tuple2<Integer, Integer> ij) -> escape(ij._1(), ij._2(), side));
        cases.add(new Case("mandelbrot " + side + "^2", () -> mandelbrot.apply(pixels), () -> {
            int[] counts = new int[side * side];
            for (int i = 0; i < side; i++) {
                for (int j = 0; j < side; j++) {
                    counts[i * side + j] = escape(i, j, side);
                }
            }
            return counts;
        }, pixels::close));
        return cases;
    }

    static int escape(int row, int column, int side) {
        float cr = column * 3f / side - 2f;
        float ci = row * 3f / side - 1.5f;
        float zr = 0;
        float zi = 0;
        int k = 0;
        while (k < 256 && zr * zr + zi * zi <= 4f) {
            float t = zr * zr - zi * zi + cr;
            zi = 2f * zr * zi + ci;
            zr = t;
            k++;
        }
        return k;
    }

    /** One apply's result as a Java array. */
    private static Object result(Case c) {
        try (PArray<?> out = c.apply().get()) {
            return out.elementType() == jpai.ElementType.INT ? out.toIntArray() : out.toFloatArray();
        }
    }

    private static double medianKernelMicros(Case c, int applies) {
        long[] nanos = new long[applies];
        for (int i = 0; i < applies; i++) {
            c.apply().get().close();
            ApplyProfile profile = AF.lastProfile();
            if (profile.fellBack() || profile.kernelCount() == 0) {
                throw new IllegalStateException(c.name() + " did not run on the device: " + profile);
            }
            nanos[i] = profile.kernelNanos();
        }
        Arrays.sort(nanos);
        return nanos[applies / 2] / 1e3;
    }

    private static void check(String what, Object expected, Object actual) {
        boolean same = expected instanceof float[] e && actual instanceof float[] f ? Arrays.equals(e, f) // bit for bit, NaNs alike
                : Arrays.equals((int[]) expected, (int[]) actual);
        if (!same) {
            throw new AssertionError(what + ": the results differ");
        }
    }
}
