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
 * Dense matrix multiply, float: {@code C = A B}, n x n, row-major. Every version sums over k in
 * increasing order (the Java ones in i-k-j loop order for the cache, which adds the same products
 * in the same order as a dot product).
 */
public final class MatMul extends Program<MatMul.Data> {

    /** Tile side of the hand-written kernel. */
    static final int TILE = 16;

    /** The two factors. */
    public record Data(float[] a, float[] b, int n) {
    }

    @Override
    public String name() {
        return "matmul";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "C = A B for n x n float matrices";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 64;
            case QUICK -> 256;
            case SMALL -> 512;
            case LARGE -> 2048;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return n + "^2";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-4, 1e-6 * n);
    }

    @Override
    public String toleranceReason() {
        return "n-term float dot products in the same order; a device may fuse multiply-adds";
    }

    @Override
    public Data createData(int n, Random random) {
        float[] a = new float[n * n];
        float[] b = new float[n * n];
        for (int i = 0; i < n * n; i++) {
            a[i] = random.nextFloat() * 2 - 1;
            b[i] = random.nextFloat() * 2 - 1;
        }
        return new Data(a, b, n);
    }

    /** Row i of C, i-k-j order. */
    static void row(float[] a, float[] b, float[] c, int n, int i) {
        int ci = i * n;
        for (int j = 0; j < n; j++) {
            c[ci + j] = 0;
        }
        for (int k = 0; k < n; k++) {
            float aik = a[ci + k];
            int bk = k * n;
            for (int j = 0; j < n; j++) {
                c[ci + j] += aik * b[bk + j];
            }
        }
    }

    /** One element, as a dot product (the JPAI map's body), reading the factors where they live. */
    static float element(PArray<Float> a, PArray<Float> b, int n, int i, int j) {
        float sum = 0;
        for (int k = 0; k < n; k++) {
            sum += a.get(i * n + k) * b.get(k * n + j);
        }
        return sum;
    }

    @Override
    public Run sequential(Data d) {
        int n = d.n();
        float[] c = new float[n * n];
        return Run.java(() -> {
            for (int i = 0; i < n; i++) {
                row(d.a(), d.b(), c, n, i);
            }
        }, () -> Output.of("c", c.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Data d) {
        int n = d.n();
        float[] c = new float[n * n];
        return Run.java(() -> IntStream.range(0, n).parallel().forEach(i -> row(d.a(), d.b(), c, n, i)), () -> Output.of("c", c.clone()), "Java: fork/join pool");
    }

    /**
     * A map over element indices capturing A and B as {@code PArray}s (resident on the device: sent
     * by the first apply, not again while unchanged) and n, a dot product per element; the result
     * read into a Java array.
     */
    @Override
    public Run jpai(Data d) {
        int n = d.n();
        PArray<Float> a = PArray.of(d.a());
        PArray<Float> b = PArray.of(d.b());
        PArray<Tuple2<Integer, Integer>> elements = PArray.range(n, n);
        float[] c = new float[n * n];
        ArrayFunction<Tuple2<Integer, Integer>, Float> multiply = JpaiRun.placed(AF.map((Tuple2<Integer, Integer> ij) -> element(a, b, n, ij._1(), ij._2())));
        return new JpaiRun(List.of(elements, a, b), () -> List.of(multiply.apply(elements)), results -> JpaiRun.copy(results.get(0), 0, c),
                () -> Output.of("c", c.clone()), "map over the n x n index space PArray.range(n, n) capturing A and B as resident PArrays, and n");
    }

    @Override
    public Run openCL(Data d, Jocl cl) {
        int n = d.n();
        if (n % TILE != 0) {
            throw new NotRunException("not run", "the tiled kernel needs n to be a multiple of " + TILE);
        }
        long bytes = 4L * n * n;
        Jocl.Pinned a = cl.pinned(bytes);
        Jocl.Pinned b = cl.pinned(bytes);
        Jocl.Pinned c = cl.pinned(bytes);
        a.host().asFloatBuffer().put(d.a());
        b.host().asFloatBuffer().put(d.b());
        cl_mem dA = cl.deviceBuffer(bytes);
        cl_mem dB = cl.deviceBuffer(bytes);
        cl_mem dC = cl.deviceBuffer(bytes);
        // The classic local-memory tiling: each work-group computes a TILE x TILE block of C, walking
        // A's block row and B's block column one TILE x TILE tile at a time.
        cl_kernel kernel = cl.kernel("""
                #define TILE %d
                __kernel void matmul(__global const float* a, __global const float* b, __global float* c, const int n) {
                    __local float as[TILE][TILE];
                    __local float bs[TILE][TILE];
                    int col = get_local_id(0);
                    int row = get_local_id(1);
                    int j = get_group_id(0) * TILE + col;
                    int i = get_group_id(1) * TILE + row;
                    float sum = 0.0f;
                    for (int t = 0; t < n; t += TILE) {
                        as[row][col] = a[i * n + t + col];
                        bs[row][col] = b[(t + row) * n + j];
                        barrier(CLK_LOCAL_MEM_FENCE);
                        for (int k = 0; k < TILE; k++) {
                            sum += as[row][k] * bs[k][col];
                        }
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    c[i * n + j] = sum;
                }
                """.formatted(TILE), "matmul");
        Jocl.arg(kernel, 0, dA);
        Jocl.arg(kernel, 1, dB);
        Jocl.arg(kernel, 2, dC);
        Jocl.arg(kernel, 3, n);
        // A and B stay on the device between calls, as JPAI keeps its captured PArrays there.
        cl.writeNow(dA, a);
        cl.writeNow(dB, b);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {n, n}, new long[] {TILE, TILE});
            cl.read(c, dC);
            return cl.finish();
        }, () -> Output.of("c", OpenCLRun.floats(c, n * n)));
    }

    /** The straightforward Aparapi kernel: one work-item per element of C. */
    static final class MatMulKernel extends Kernel {
        float[] a, b, c;
        int n;

        @Override
        public void run() {
            int j = getGlobalId(0);
            int i = getGlobalId(1);
            float sum = 0;
            for (int k = 0; k < n; k++) {
                sum += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = sum;
        }
    }

    @Override
    public Run aparapi(Data d, AparapiSupport aparapi) {
        MatMulKernel k = new MatMulKernel();
        int n = d.n();
        k.n = n;
        k.a = d.a();
        k.b = d.b();
        k.c = new float[n * n];
        return new AparapiRun(aparapi, k, () -> k.put(k.a).put(k.b), () -> k.get(k.c), () -> Output.of("c", k.c.clone()), aparapi.range2D(n, n));
    }
}
