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
 * Mandelbrot set, float iterations, int output: the escape iteration count (at most
 * {@value #MAX_ITERATIONS}) of each pixel of an n x n image of [-2, 1] x [-1.5, 1.5]. The input is
 * the image itself, so the data are not random; the fixed region has both fast and slow pixels.
 */
public final class Mandelbrot extends Program<Integer> {

    static final int MAX_ITERATIONS = 256;

    @Override
    public String name() {
        return "mandelbrot";
    }

    @Override
    public String precision() {
        return "float (int output)";
    }

    @Override
    public String description() {
        return "escape counts (max " + MAX_ITERATIONS + ") of an n x n image of [-2,1] x [-1.5,1.5]";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 64;
            case QUICK -> 256;
            case SMALL -> 1024;
            case LARGE -> 4096;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return n + "^2 pixels";
    }

    @Override
    public Tolerance tolerance(int n) {
        return new Tolerance(0, 0, 1e-2);
    }

    @Override
    public String toleranceReason() {
        return "counts come from a chaotic float iteration: where a device fuses multiply-adds (Aparapi's generated C does not forbid it) "
                + "pixels on the set's boundary may escape an iteration earlier or later; JPAI and the hand-written kernel (FP_CONTRACT OFF) should match exactly";
    }

    /** The side of the image (the data of this program is its size). */
    @Override
    public Integer createData(int n, Random random) {
        return n;
    }

    static int escape(int px, int py, float step) {
        float cx = -2.0f + px * step;
        float cy = -1.5f + py * step;
        float zx = 0;
        float zy = 0;
        int i = 0;
        while (i < MAX_ITERATIONS && zx * zx + zy * zy <= 4.0f) {
            float t = zx * zx - zy * zy + cx;
            zy = 2.0f * zx * zy + cy;
            zx = t;
            i++;
        }
        return i;
    }

    @Override
    public Run sequential(Integer n) {
        int[] image = new int[n * n];
        return Run.java(() -> {
            float step = 3.0f / n;
            for (int y = 0; y < n; y++) {
                for (int x = 0; x < n; x++) {
                    image[y * n + x] = escape(x, y, step);
                }
            }
        }, () -> Output.of("count", image.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Integer n) {
        int[] image = new int[n * n];
        return Run.java(() -> {
            float step = 3.0f / n;
            IntStream.range(0, n).parallel().forEach(y -> {
                for (int x = 0; x < n; x++) {
                    image[y * n + x] = escape(x, y, step);
                }
            });
        }, () -> Output.of("count", image.clone()), "Java: fork/join pool");
    }

    /** A map over the (row, column) index space of the image capturing the step; the result read into a Java array. */
    @Override
    public Run jpai(Integer size) {
        int n = size;
        float step = 3.0f / n;
        PArray<Tuple2<Integer, Integer>> pixels = PArray.range(n, n);
        int[] image = new int[n * n];
        ArrayFunction<Tuple2<Integer, Integer>, Integer> mandelbrot = JpaiRun.placed(AF.map2D((y, x) -> escape(x, y, step)));
        return new JpaiRun(List.of(pixels), () -> List.of(mandelbrot.apply(pixels)), results -> JpaiRun.copy(results.get(0), 0, image),
                () -> Output.of("count", image.clone()), "AF.map2D over the image's index space PArray.range(n, n) capturing the step");
    }

    @Override
    public Run openCL(Integer size, Jocl cl) {
        int n = size;
        long bytes = 4L * n * n;
        Jocl.Pinned out = cl.pinned(bytes);
        cl_mem dOut = cl.deviceBuffer(bytes);
        // Contraction off: the counts are then Java's, bit for bit.
        cl_kernel kernel = cl.kernel("""
                #pragma OPENCL FP_CONTRACT OFF
                __kernel void mandelbrot(__global int* image, const int n, const float step, const int maxIterations) {
                    int x = get_global_id(0);
                    int y = get_global_id(1);
                    if (x >= n || y >= n) return;
                    float cx = -2.0f + x * step;
                    float cy = -1.5f + y * step;
                    float zx = 0.0f, zy = 0.0f;
                    int i = 0;
                    while (i < maxIterations && zx * zx + zy * zy <= 4.0f) {
                        float t = zx * zx - zy * zy + cx;
                        zy = 2.0f * zx * zy + cy;
                        zx = t;
                        i++;
                    }
                    image[y * n + x] = i;
                }
                """, "mandelbrot");
        Jocl.arg(kernel, 0, dOut);
        Jocl.arg(kernel, 1, n);
        Jocl.arg(kernel, 2, 3.0f / n);
        Jocl.arg(kernel, 3, MAX_ITERATIONS);
        long side = Math.min(16, (long) Math.sqrt(cl.device().maxWorkGroupSize()));
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, side), Jocl.roundUp(n, side)}, new long[] {side, side});
            cl.read(out, dOut);
            return cl.finish();
        }, () -> Output.of("count", OpenCLRun.ints(out, n * n)));
    }

    static final class MandelbrotKernel extends Kernel {
        int[] image;
        int n;
        float step;

        @Override
        public void run() {
            int x = getGlobalId(0);
            int y = getGlobalId(1);
            float cx = -2.0f + x * step;
            float cy = -1.5f + y * step;
            float zx = 0;
            float zy = 0;
            int i = 0;
            while (i < MAX_ITERATIONS && zx * zx + zy * zy <= 4.0f) {
                float t = zx * zx - zy * zy + cx;
                zy = 2.0f * zx * zy + cy;
                zx = t;
                i++;
            }
            image[y * n + x] = i;
        }
    }

    @Override
    public Run aparapi(Integer size, AparapiSupport aparapi) {
        MandelbrotKernel k = new MandelbrotKernel();
        int n = size;
        k.n = n;
        k.step = 3.0f / n;
        k.image = new int[n * n];
        return new AparapiRun(aparapi, k, () -> { }, () -> k.get(k.image), () -> Output.of("count", k.image.clone()), aparapi.range2D(n, n));
    }
}
