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

/** saxpy, float: {@code z[i] = a * x[i] + y[i]} into a new array (so every run does the same work). */
public final class Saxpy extends Program<Saxpy.Data> {

    /** The inputs: a scalar and two vectors. */
    public record Data(float a, float[] x, float[] y) {
    }

    @Override
    public String name() {
        return "saxpy";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "z = a*x + y over n floats, into a new array";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 1 << 12;
            case QUICK -> 1 << 18;
            case SMALL -> 1 << 20;
            case LARGE -> 1 << 24;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return pow2(n) + " floats";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-6, 1e-6);
    }

    @Override
    public String toleranceReason() {
        return "a device compiler may fuse a*x+y into one fma (one rounding instead of two)";
    }

    @Override
    public Data createData(int n, Random random) {
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = random.nextFloat() * 2 - 1;
            y[i] = random.nextFloat() * 2 - 1;
        }
        return new Data(1.5f + random.nextFloat(), x, y);
    }

    @Override
    public Run sequential(Data d) {
        float[] z = new float[d.x().length];
        return Run.java(() -> {
            float a = d.a();
            float[] x = d.x();
            float[] y = d.y();
            for (int i = 0; i < z.length; i++) {
                z[i] = a * x[i] + y[i];
            }
        }, () -> Output.of("z", z.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Data d) {
        float[] z = new float[d.x().length];
        return Run.java(() -> {
            float a = d.a();
            float[] x = d.x();
            float[] y = d.y();
            IntStream.range(0, z.length).parallel().forEach(i -> z[i] = a * x[i] + y[i]);
        }, () -> Output.of("z", z.clone()), "Java: fork/join pool");
    }

    /**
     * {@code AF.zip2().map(t -> a * t._1() + t._2())} over {@code PArray.zip(x, y)}, capturing the
     * scalar {@code a}; the result is read into a Java array.
     */
    @Override
    public Run jpai(Data d) {
        float a = d.a();
        PArray<Float> x = PArray.of(d.x());
        PArray<Float> y = PArray.of(d.y());
        PArray<Tuple2<Float, Float>> xy = PArray.zip(x, y);
        float[] z = new float[d.x().length];
        ArrayFunction<Tuple2<Float, Float>, Float> saxpy = AF.<Float, Float>zip2().map(t -> a * t._1() + t._2());
        return new JpaiRun(List.of(x, y), () -> List.of(saxpy.apply(xy)), results -> JpaiRun.copy(results.get(0), 0, z),
                () -> Output.of("z", z.clone()), "zip2().map over zip(x, y) capturing a");
    }

    @Override
    public Run openCL(Data d, Jocl cl) {
        int n = d.x().length;
        long bytes = 4L * n;
        Jocl.Pinned x = cl.pinned(bytes);
        Jocl.Pinned y = cl.pinned(bytes);
        Jocl.Pinned z = cl.pinned(bytes);
        x.host().asFloatBuffer().put(d.x());
        y.host().asFloatBuffer().put(d.y());
        cl_mem dx = cl.deviceBuffer(bytes);
        cl_mem dy = cl.deviceBuffer(bytes);
        cl_mem dz = cl.deviceBuffer(bytes);
        cl_kernel kernel = cl.kernel("""
                __kernel void saxpy(const float a, __global const float* x, __global const float* y, __global float* z, const int n) {
                    int i = get_global_id(0);
                    if (i < n) {
                        z[i] = a * x[i] + y[i];
                    }
                }
                """, "saxpy");
        Jocl.arg(kernel, 0, d.a());
        Jocl.arg(kernel, 1, dx);
        Jocl.arg(kernel, 2, dy);
        Jocl.arg(kernel, 3, dz);
        Jocl.arg(kernel, 4, n);
        long local = cl.workGroup1D();
        // The inputs stay on the device between calls, as JPAI keeps its unchanged PArrays there.
        cl.writeNow(dx, x);
        cl.writeNow(dy, y);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
            cl.read(z, dz);
            return cl.finish();
        }, () -> Output.of("z", OpenCLRun.floats(z, n)));
    }

    /** Aparapi's kernel: fields are its arguments; compiled from bytecode (needs javac -g). */
    static final class SaxpyKernel extends Kernel {
        float a;
        float[] x;
        float[] y;
        float[] z;

        @Override
        public void run() {
            int i = getGlobalId();
            z[i] = a * x[i] + y[i];
        }
    }

    @Override
    public Run aparapi(Data d, AparapiSupport aparapi) {
        SaxpyKernel kernel = new SaxpyKernel();
        kernel.a = d.a();
        kernel.x = d.x();
        kernel.y = d.y();
        kernel.z = new float[d.x().length];
        return new AparapiRun(aparapi, kernel, () -> kernel.put(kernel.x).put(kernel.y), () -> kernel.get(kernel.z),
                () -> Output.of("z", kernel.z.clone()), aparapi.range(d.x().length));
    }
}
