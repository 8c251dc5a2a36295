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
 * Discrete Fourier transform, float, the direct O(n^2) sum as in the VEE paper: for each k,
 * {@code X[k] = sum_t x[t] * e^(-2 pi i t k / n)}, twiddle factors computed inline with cos and sin
 * of {@code 2 pi ((t*k) mod n) / n} (the reduction mod n keeps the angle small and accurate).
 */
public final class Dft extends Program<Dft.Data> {

    /** Real and imaginary parts of the input signal. */
    public record Data(float[] re, float[] im) {
    }

    @Override
    public String name() {
        return "dft";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "direct DFT of n complex floats (cos/sin computed inline)";
    }

    /**
     * The large size is 8192, not the 16384 of the example: the sequential baseline at 16384
     * takes about 10 s a run (2^28 cos+sin pairs), which does not fit a 10-minute GPU session.
     */
    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 256;
            case QUICK -> 1024;
            case SMALL -> 4096;
            case LARGE -> 8192;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return n + " complex";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-4, 2e-6 * n);
    }

    @Override
    public String toleranceReason() {
        return "n-term float sums (|X| ~ sqrt(n)) of terms whose cos/sin differ by an ulp between Java and OpenCL; absolute part grows with n";
    }

    @Override
    public Data createData(int n, Random random) {
        float[] re = new float[n];
        float[] im = new float[n];
        for (int i = 0; i < n; i++) {
            re[i] = random.nextFloat() * 2 - 1;
            im[i] = random.nextFloat() * 2 - 1;
        }
        return new Data(re, im);
    }

    /** Real part of X[k]. */
    static float real(float[] re, float[] im, int k, float scale) {
        int n = re.length;
        float sum = 0;
        for (int t = 0; t < n; t++) {
            float angle = scale * ((t * k) % n);
            sum += re[t] * (float) Math.cos(angle) + im[t] * (float) Math.sin(angle);
        }
        return sum;
    }

    /** Imaginary part of X[k]. */
    static float imaginary(float[] re, float[] im, int k, float scale) {
        int n = re.length;
        float sum = 0;
        for (int t = 0; t < n; t++) {
            float angle = scale * ((t * k) % n);
            sum += im[t] * (float) Math.cos(angle) - re[t] * (float) Math.sin(angle);
        }
        return sum;
    }

    /** Both parts of X[k] in one pass (the sequential and stream versions). */
    static void transform(float[] re, float[] im, int k, float scale, float[] outRe, float[] outIm) {
        int n = re.length;
        float sumRe = 0;
        float sumIm = 0;
        for (int t = 0; t < n; t++) {
            float angle = scale * ((t * k) % n);
            float c = (float) Math.cos(angle);
            float s = (float) Math.sin(angle);
            sumRe += re[t] * c + im[t] * s;
            sumIm += im[t] * c - re[t] * s;
        }
        outRe[k] = sumRe;
        outIm[k] = sumIm;
    }

    static float scale(int n) {
        return (float) (2 * Math.PI / n);
    }

    @Override
    public Run sequential(Data d) {
        int n = d.re().length;
        float[] outRe = new float[n];
        float[] outIm = new float[n];
        return Run.java(() -> {
            float scale = scale(n);
            for (int k = 0; k < n; k++) {
                transform(d.re(), d.im(), k, scale, outRe, outIm);
            }
        }, () -> Output.of("re", outRe.clone(), "im", outIm.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Data d) {
        int n = d.re().length;
        float[] outRe = new float[n];
        float[] outIm = new float[n];
        return Run.java(() -> {
            float scale = scale(n);
            IntStream.range(0, n).parallel().forEach(k -> transform(d.re(), d.im(), k, scale, outRe, outIm));
        }, () -> Output.of("re", outRe.clone(), "im", outIm.clone()), "Java: fork/join pool");
    }

    /**
     * One map over k returning {@code new Tuple2<>(re, im)} (the twiddles computed once, as in the
     * sequential version), capturing the signal as resident {@code PArray}s and the scale; results read into two Java arrays.
     */
    @Override
    public Run jpai(Data d) {
        PArray<Float> re = PArray.of(d.re());
        PArray<Float> im = PArray.of(d.im());
        int n = d.re().length;
        float scale = scale(n);
        PArray<Integer> indices = JpaiRun.indices(n);
        float[] outRe = new float[n];
        float[] outIm = new float[n];
        ArrayFunction<Integer, Tuple2<Float, Float>> dft = JpaiRun.placed(AF.map((Integer k) -> {
            float sumRe = 0;
            float sumIm = 0;
            for (int t = 0; t < n; t++) {
                float angle = scale * ((t * k) % n);
                float c = (float) Math.cos(angle);
                float s = (float) Math.sin(angle);
                float x = re.get(t);
                float y = im.get(t);
                sumRe += x * c + y * s;
                sumIm += y * c - x * s;
            }
            return new Tuple2<>(sumRe, sumIm);
        }));
        return new JpaiRun(List.of(indices, re, im), () -> List.of(dft.apply(indices)), results -> {
            JpaiRun.copy(results.get(0), 0, outRe);
            JpaiRun.copy(results.get(0), 1, outIm);
        }, () -> Output.of("re", outRe.clone(), "im", outIm.clone()), "one map over k returning Tuple2(re, im), capturing the signal as resident PArrays");
    }

    /** The hand-written kernel, in OpenCL's precision: its float {@code cos} and {@code sin}. */
    private static final String KERNEL = """
                __kernel void dft(__global const float2* x, __global float2* out, const int n, const float scale) {
                    int k = get_global_id(0);
                    if (k >= n) return;
                    float2 sum = (float2)(0.0f);
                    for (int t = 0; t < n; t++) {
                        float angle = scale * (float)((t * k) % n);
                        float c = cos(angle);
                        float s = sin(angle);
                        float2 v = x[t];
                        sum.x += v.x * c + v.y * s;
                        sum.y += v.y * c - v.x * s;
                    }
                    out[k] = sum;
                }
                """;

    /** The same kernel as a programmer writes it for Java's results ({@link Jocl#javaPrecision}). */
    private static final String EXACT_KERNEL = Jocl.javaPrecision(KERNEL, "cos", "sin");

    @Override
    public Run openCL(Data d, Jocl cl) {
        return handWritten(d, cl, KERNEL);
    }

    @Override
    public boolean hasExactOpenCL() {
        return true;
    }

    @Override
    public Run openCLExact(Data d, Jocl cl) {
        cl.requireFp64();
        return handWritten(d, cl, EXACT_KERNEL);
    }

    private static Run handWritten(Data d, Jocl cl, String source) {
        int n = d.re().length;
        long bytes = 8L * n;
        Jocl.Pinned in = cl.pinned(bytes);
        Jocl.Pinned out = cl.pinned(bytes);
        for (int i = 0; i < n; i++) {
            in.host().putFloat(8 * i, d.re()[i]).putFloat(8 * i + 4, d.im()[i]);
        }
        cl_mem dIn = cl.deviceBuffer(bytes);
        cl_mem dOut = cl.deviceBuffer(bytes);
        cl_kernel kernel = cl.kernel(source, "dft");
        Jocl.arg(kernel, 0, dIn);
        Jocl.arg(kernel, 1, dOut);
        Jocl.arg(kernel, 2, n);
        Jocl.arg(kernel, 3, scale(n));
        long local = Math.min(cl.workGroup1D(), 128);
        // The input stays on the device between calls, as JPAI keeps its unchanged PArrays there.
        cl.writeNow(dIn, in);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
            cl.read(out, dOut);
            return cl.finish();
        }, () -> {
            float[] re = new float[n];
            float[] im = new float[n];
            for (int i = 0; i < n; i++) {
                re[i] = out.host().getFloat(8 * i);
                im[i] = out.host().getFloat(8 * i + 4);
            }
            return Output.of("re", re, "im", im);
        });
    }

    static final class DftKernel extends Kernel {
        float[] re, im, outRe, outIm;
        int n;
        float scale;

        @Override
        public void run() {
            int k = getGlobalId();
            float sumRe = 0;
            float sumIm = 0;
            for (int t = 0; t < n; t++) {
                float angle = scale * ((t * k) % n);
                float c = cos(angle);
                float s = sin(angle);
                sumRe += re[t] * c + im[t] * s;
                sumIm += im[t] * c - re[t] * s;
            }
            outRe[k] = sumRe;
            outIm[k] = sumIm;
        }
    }

    @Override
    public Run aparapi(Data d, AparapiSupport aparapi) {
        DftKernel k = new DftKernel();
        int n = d.re().length;
        k.re = d.re();
        k.im = d.im();
        k.n = n;
        k.scale = scale(n);
        k.outRe = new float[n];
        k.outIm = new float[n];
        return new AparapiRun(aparapi, k, () -> k.put(k.re).put(k.im), () -> k.get(k.outRe).get(k.outIm),
                () -> Output.of("re", k.outRe.clone(), "im", k.outIm.clone()), aparapi.range(n));
    }
}
