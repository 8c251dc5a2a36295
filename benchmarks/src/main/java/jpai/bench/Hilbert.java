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
import jpai.Tuple2;

/**
 * Hilbert matrix, float: {@code H[i][j] = 1 / (i + j + 1)}, n x n, row-major. Almost no arithmetic:
 * a measure of writing, and moving back to the host, n^2 floats. The data is the size itself.
 */
public final class Hilbert extends Program<Integer> {

    @Override
    public String name() {
        return "hilbert";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "the n x n Hilbert matrix 1/(i+j+1)";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 64;
            case QUICK -> 512;
            case SMALL -> 2048;
            case LARGE -> 8192;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return n + "^2 floats";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(4e-7, 0);
    }

    @Override
    public String toleranceReason() {
        return "OpenCL's default float division is exact to 2.5 ulp (Java's is correctly rounded)";
    }

    @Override
    public Integer createData(int n, Random random) {
        return n;
    }

    @Override
    public Run sequential(Integer size) {
        int n = size;
        float[] h = new float[n * n];
        return Run.java(() -> {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    h[i * n + j] = 1.0f / (i + j + 1);
                }
            }
        }, () -> Output.of("h", h.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Integer size) {
        int n = size;
        float[] h = new float[n * n];
        return Run.java(() -> IntStream.range(0, n).parallel().forEach(i -> {
            for (int j = 0; j < n; j++) {
                h[i * n + j] = 1.0f / (i + j + 1);
            }
        }), () -> Output.of("h", h.clone()), "Java: fork/join pool");
    }

    /** A map over the n x n index space (a 2-D NDRange on the device); the result read into a Java array. */
    @Override
    public Run jpai(Integer size) {
        int n = size;
        PArray<Tuple2<Integer, Integer>> matrix = PArray.range(n, n);
        float[] h = new float[n * n];
        ArrayFunction<Tuple2<Integer, Integer>, Float> hilbert = AF.map2D((i, j) -> 1.0f / (i + j + 1));
        return new JpaiRun(List.of(matrix), () -> List.of(hilbert.apply(matrix)), results -> JpaiRun.copy(results.get(0), 0, h),
                () -> Output.of("h", h.clone()), "AF.map2D over the n x n index space PArray.range(n, n)");
    }

    @Override
    public Run openCL(Integer size, Jocl cl) {
        int n = size;
        long bytes = 4L * n * n;
        Jocl.Pinned out = cl.pinned(bytes);
        cl_mem dOut = cl.deviceBuffer(bytes);
        cl_kernel kernel = cl.kernel("""
                __kernel void hilbert(__global float* h, const int n) {
                    int j = get_global_id(0);
                    int i = get_global_id(1);
                    if (i < n && j < n) {
                        h[i * n + j] = 1.0f / (float)(i + j + 1);
                    }
                }
                """, "hilbert");
        Jocl.arg(kernel, 0, dOut);
        Jocl.arg(kernel, 1, n);
        long side = Math.min(16, (long) Math.sqrt(cl.device().maxWorkGroupSize()));
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, side), Jocl.roundUp(n, side)}, new long[] {side, side});
            cl.read(out, dOut);
            return cl.finish();
        }, () -> Output.of("h", OpenCLRun.floats(out, n * n)));
    }

    static final class HilbertKernel extends Kernel {
        float[] h;
        int n;

        @Override
        public void run() {
            int j = getGlobalId(0);
            int i = getGlobalId(1);
            h[i * n + j] = 1.0f / (i + j + 1);
        }
    }

    @Override
    public Run aparapi(Integer size, AparapiSupport aparapi) {
        HilbertKernel k = new HilbertKernel();
        int n = size;
        k.n = n;
        k.h = new float[n * n];
        return new AparapiRun(aparapi, k, () -> { }, () -> k.get(k.h), () -> Output.of("h", k.h.clone()), aparapi.range2D(n, n));
    }
}
