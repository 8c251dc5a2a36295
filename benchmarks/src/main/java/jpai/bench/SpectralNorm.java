package jpai.bench;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import com.aparapi.Kernel;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;

/**
 * Spectral norm, double (the Benchmarks Game program is double): one step of its power iteration,
 * {@code v = A^T (A u)} with {@code A[i][j] = 1 / ((i+j)(i+j+1)/2 + i + 1)} computed on the fly: two
 * passes, each n^2 divisions. The whole iteration (10 such steps and a norm) is this step repeated;
 * one step keeps the sequential baseline short enough for the GPU session.
 */
public final class SpectralNorm extends Program<double[]> {

    @Override
    public String name() {
        return "spectralnorm";
    }

    @Override
    public String precision() {
        return "double";
    }

    @Override
    public String description() {
        return "one power-iteration step v = A^T (A u), A generated on the fly";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 128;
            case QUICK -> 512;
            case SMALL -> 2048;
            case LARGE -> 8192;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return "n = " + n;
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-12, 0);
    }

    @Override
    public String toleranceReason() {
        return "sums of positive terms in the same order; a device may fuse multiply-adds";
    }

    @Override
    public double[] createData(int n, Random random) {
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            u[i] = 0.5 + random.nextDouble();
        }
        return u;
    }

    static double a(int i, int j) {
        return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
    }

    /** (A u)[i]. */
    static double av(double[] u, int i) {
        double sum = 0;
        for (int j = 0; j < u.length; j++) {
            sum += a(i, j) * u[j];
        }
        return sum;
    }

    /** (A^T t)[i]. */
    static double atv(double[] t, int i) {
        double sum = 0;
        for (int j = 0; j < t.length; j++) {
            sum += a(j, i) * t[j];
        }
        return sum;
    }

    @Override
    public Run sequential(double[] u) {
        int n = u.length;
        double[] t = new double[n];
        double[] v = new double[n];
        return Run.java(() -> {
            for (int i = 0; i < n; i++) {
                t[i] = av(u, i);
            }
            for (int i = 0; i < n; i++) {
                v[i] = atv(t, i);
            }
        }, () -> Output.of("v", v.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(double[] u) {
        int n = u.length;
        double[] t = new double[n];
        double[] v = new double[n];
        return Run.java(() -> {
            IntStream.range(0, n).parallel().forEach(i -> t[i] = av(u, i));
            IntStream.range(0, n).parallel().forEach(i -> v[i] = atv(t, i));
        }, () -> Output.of("v", v.clone()), "Java: fork/join pool");
    }

    /**
     * Two maps over indices: the first captures u and gives t = A u; t is read into a Java array that
     * the second map captures (captured arrays are read again at each apply) and gives v = A^T t.
     */
    @Override
    public Run jpai(double[] u) {
        int n = u.length;
        double[] t = new double[n];
        double[] v = new double[n];
        PArray<Integer> indices = JpaiRun.indices(n);
        ArrayFunction<Integer, Double> times = AF.map((Integer i) -> av(u, i));
        ArrayFunction<Integer, Double> transposedTimes = AF.map((Integer i) -> atv(t, i));
        return new JpaiRun(List.of(indices), () -> {
            try (PArray<Double> au = times.apply(indices)) {
                JpaiRun.profiled();
                au.copyTo(0, t);
            }
            return List.of(transposedTimes.apply(indices));
        }, results -> JpaiRun.copy(results.get(0), 0, v), () -> Output.of("v", v.clone()),
                "two maps over indices capturing u and t; t goes through the host between them");
    }

    @Override
    public Run openCL(double[] u, Jocl cl) {
        int n = u.length;
        long bytes = 8L * n;
        Jocl.Pinned in = cl.pinned(bytes);
        Jocl.Pinned out = cl.pinned(bytes);
        in.host().asDoubleBuffer().put(u);
        cl_mem dU = cl.deviceBuffer(bytes);
        cl_mem dT = cl.deviceBuffer(bytes);
        cl_mem dV = cl.deviceBuffer(bytes);
        String source = """
                #pragma OPENCL EXTENSION cl_khr_fp64 : enable
                double a(int i, int j) {
                    return 1.0 / (double)((i + j) * (i + j + 1) / 2 + i + 1);
                }
                __kernel void av(__global const double* u, __global double* t, const int n) {
                    int i = get_global_id(0);
                    if (i >= n) return;
                    double sum = 0.0;
                    for (int j = 0; j < n; j++) {
                        sum += a(i, j) * u[j];
                    }
                    t[i] = sum;
                }
                __kernel void atv(__global const double* t, __global double* v, const int n) {
                    int i = get_global_id(0);
                    if (i >= n) return;
                    double sum = 0.0;
                    for (int j = 0; j < n; j++) {
                        sum += a(j, i) * t[j];
                    }
                    v[i] = sum;
                }
                """;
        cl_kernel av = cl.kernel(source, "av");
        cl_kernel atv = cl.kernel(source, "atv");
        Jocl.arg(av, 0, dU);
        Jocl.arg(av, 1, dT);
        Jocl.arg(av, 2, n);
        Jocl.arg(atv, 0, dT);
        Jocl.arg(atv, 1, dV);
        Jocl.arg(atv, 2, n);
        long local = Math.min(cl.workGroup1D(), 128);
        long global = Jocl.roundUp(n, local);
        return new OpenCLRun(cl, () -> {
            cl.write(dU, in);
            cl.launch(av, new long[] {global}, new long[] {local});
            cl.launch(atv, new long[] {global}, new long[] {local});
            cl.read(out, dV);
            return cl.finish();
        }, () -> Output.of("v", OpenCLRun.doubles(out, n)));
    }

    /** Two passes in one kernel, selected by a field, as Aparapi programs usually do it. */
    static final class SpectralKernel extends Kernel {
        double[] u, t, v;
        int n;
        int pass;

        double a(int i, int j) {
            return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1);
        }

        @Override
        public void run() {
            int i = getGlobalId();
            double sum = 0;
            if (pass == 0) {
                for (int j = 0; j < n; j++) {
                    sum += a(i, j) * u[j];
                }
                t[i] = sum;
            } else {
                for (int j = 0; j < n; j++) {
                    sum += a(j, i) * t[j];
                }
                v[i] = sum;
            }
        }
    }

    @Override
    public Run aparapi(double[] u, AparapiSupport aparapi) {
        SpectralKernel k = new SpectralKernel();
        int n = u.length;
        k.n = n;
        k.u = u;
        k.t = new double[n];
        k.v = new double[n];
        int[] pass = {0};
        return new AparapiRun(aparapi, k, () -> {
            k.put(k.u);
            pass[0] = 0;
        }, () -> k.get(k.v), () -> Output.of("v", k.v.clone()), () -> k.pass = pass[0]++, aparapi.range(n), aparapi.range(n));
    }
}
