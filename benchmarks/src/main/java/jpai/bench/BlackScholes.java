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
 * Black-Scholes, float, as in the AMD APP SDK sample the thesis uses: each option's price, strike,
 * expiry, rate and volatility come from one uniform random number {@code r}; the output is the
 * call and the put price (CND by the Abramowitz-Stegun polynomial).
 */
public final class BlackScholes extends Program<float[]> {

    static final float S_LO = 10f, S_HI = 100f, K_LO = 10f, K_HI = 100f, T_LO = 1f, T_HI = 10f;
    static final float R_LO = 0.01f, R_HI = 0.05f, V_LO = 0.01f, V_HI = 0.10f;

    @Override
    public String name() {
        return "blackscholes";
    }

    @Override
    public String precision() {
        return "float";
    }

    @Override
    public String description() {
        return "call and put price of n options, each from one random number (AMD SDK formulation)";
    }

    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 1 << 12;
            case QUICK -> 1 << 18;
            case SMALL -> 1 << 20;
            case LARGE -> 1 << 22;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return pow2(n) + " options";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.floats(1e-4, 2e-4);
    }

    @Override
    public String toleranceReason() {
        return "exp/log/sqrt: Java rounds double results to float, OpenCL's float built-ins are within a few ulp; "
                + "prices up to ~90 lose absolute digits where call and put are differences of large terms";
    }

    @Override
    public float[] createData(int n, Random random) {
        float[] r = new float[n];
        for (int i = 0; i < n; i++) {
            r[i] = random.nextFloat();
        }
        return r;
    }

    /** Cumulative normal distribution, Abramowitz and Stegun 26.2.17. */
    static float cnd(float d) {
        float k = 1.0f / (1.0f + 0.2316419f * Math.abs(d));
        float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
        float value = 0.39894228f * (float) Math.exp(-0.5f * d * d) * poly;
        return d > 0 ? 1.0f - value : value;
    }

    /** The call price of the option made from {@code r}. */
    static float call(float r) {
        float s = S_LO * r + S_HI * (1.0f - r);
        float k = K_LO * r + K_HI * (1.0f - r);
        float t = T_LO * r + T_HI * (1.0f - r);
        float rate = R_LO * r + R_HI * (1.0f - r);
        float v = V_LO * r + V_HI * (1.0f - r);
        float sqrtT = (float) Math.sqrt(t);
        float d1 = ((float) Math.log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float kExpRT = k * (float) Math.exp(-rate * t);
        return s * cnd(d1) - kExpRT * cnd(d2);
    }

    /** The put price of the option made from {@code r}. */
    static float put(float r) {
        float s = S_LO * r + S_HI * (1.0f - r);
        float k = K_LO * r + K_HI * (1.0f - r);
        float t = T_LO * r + T_HI * (1.0f - r);
        float rate = R_LO * r + R_HI * (1.0f - r);
        float v = V_LO * r + V_HI * (1.0f - r);
        float sqrtT = (float) Math.sqrt(t);
        float d1 = ((float) Math.log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float kExpRT = k * (float) Math.exp(-rate * t);
        return kExpRT * cnd(-d2) - s * cnd(-d1);
    }

    /** Both prices in one pass, as the sequential and stream versions compute them. */
    static void price(float r, float[] call, float[] put, int i) {
        float s = S_LO * r + S_HI * (1.0f - r);
        float k = K_LO * r + K_HI * (1.0f - r);
        float t = T_LO * r + T_HI * (1.0f - r);
        float rate = R_LO * r + R_HI * (1.0f - r);
        float v = V_LO * r + V_HI * (1.0f - r);
        float sqrtT = (float) Math.sqrt(t);
        float d1 = ((float) Math.log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float kExpRT = k * (float) Math.exp(-rate * t);
        call[i] = s * cnd(d1) - kExpRT * cnd(d2);
        put[i] = kExpRT * cnd(-d2) - s * cnd(-d1);
    }

    @Override
    public Run sequential(float[] r) {
        float[] call = new float[r.length];
        float[] put = new float[r.length];
        return Run.java(() -> {
            for (int i = 0; i < r.length; i++) {
                price(r[i], call, put, i);
            }
        }, () -> Output.of("call", call.clone(), "put", put.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(float[] r) {
        float[] call = new float[r.length];
        float[] put = new float[r.length];
        return Run.java(() -> IntStream.range(0, r.length).parallel().forEach(i -> price(r[i], call, put, i)),
                () -> Output.of("call", call.clone(), "put", put.clone()), "Java: fork/join pool");
    }

    /**
     * One map over the random numbers returning {@code new Tuple2<>(call, put)} (d1 and d2 computed
     * once, as in the sequential version); results read into two Java arrays.
     */
    @Override
    public Run jpai(float[] r) {
        PArray<Float> input = PArray.of(r);
        float[] call = new float[r.length];
        float[] put = new float[r.length];
        ArrayFunction<Float, Tuple2<Float, Float>> prices = JpaiRun.placed(AF.map((Float x) -> {
            float s = S_LO * x + S_HI * (1.0f - x);
            float k = K_LO * x + K_HI * (1.0f - x);
            float t = T_LO * x + T_HI * (1.0f - x);
            float rate = R_LO * x + R_HI * (1.0f - x);
            float v = V_LO * x + V_HI * (1.0f - x);
            float sqrtT = (float) Math.sqrt(t);
            float d1 = ((float) Math.log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
            float d2 = d1 - v * sqrtT;
            float kExpRT = k * (float) Math.exp(-rate * t);
            return new Tuple2<>(s * cnd(d1) - kExpRT * cnd(d2), kExpRT * cnd(-d2) - s * cnd(-d1));
        }));
        return new JpaiRun(List.of(input), () -> List.of(prices.apply(input)), results -> {
            JpaiRun.copy(results.get(0), 0, call);
            JpaiRun.copy(results.get(0), 1, put);
        }, () -> Output.of("call", call.clone(), "put", put.clone()), "one map returning Tuple2(call, put)");
    }

    /** The hand-written kernel, in OpenCL's precision: its float {@code exp}, {@code log}, {@code sqrt} and {@code /}. */
    private static final String KERNEL = """
                float cnd(float d) {
                    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
                    float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
                    float value = 0.39894228f * exp(-0.5f * d * d) * poly;
                    return d > 0 ? 1.0f - value : value;
                }
                __kernel void blackScholes(__global const float* rand, __global float* call, __global float* put, const int n) {
                    int i = get_global_id(0);
                    if (i >= n) return;
                    float r = rand[i];
                    float s = 10.0f * r + 100.0f * (1.0f - r);
                    float k = 10.0f * r + 100.0f * (1.0f - r);
                    float t = 1.0f * r + 10.0f * (1.0f - r);
                    float rate = 0.01f * r + 0.05f * (1.0f - r);
                    float v = 0.01f * r + 0.10f * (1.0f - r);
                    float sqrtT = sqrt(t);
                    float d1 = (log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
                    float d2 = d1 - v * sqrtT;
                    float kExpRT = k * exp(-rate * t);
                    call[i] = s * cnd(d1) - kExpRT * cnd(d2);
                    put[i] = kExpRT * cnd(-d2) - s * cnd(-d1);
                }
                """;

    /** The same kernel as a programmer writes it for Java's results ({@link Jocl#javaPrecision}). */
    private static final String EXACT_KERNEL = Jocl.javaPrecision(KERNEL, "exp", "log");

    @Override
    public Run openCL(float[] r, Jocl cl) {
        return handWritten(r, cl, KERNEL, "");
    }

    @Override
    public boolean hasExactOpenCL() {
        return true;
    }

    @Override
    public Run openCLExact(float[] r, Jocl cl) {
        cl.requireFp64();
        return handWritten(r, cl, EXACT_KERNEL, cl.correctlyRoundedDivideSqrt());
    }

    private static Run handWritten(float[] r, Jocl cl, String source, String buildOptions) {
        int n = r.length;
        long bytes = 4L * n;
        Jocl.Pinned in = cl.pinned(bytes);
        Jocl.Pinned call = cl.pinned(bytes);
        Jocl.Pinned put = cl.pinned(bytes);
        in.host().asFloatBuffer().put(r);
        cl_mem dIn = cl.deviceBuffer(bytes);
        cl_mem dCall = cl.deviceBuffer(bytes);
        cl_mem dPut = cl.deviceBuffer(bytes);
        cl_kernel kernel = cl.kernel(source, "blackScholes", buildOptions);
        Jocl.arg(kernel, 0, dIn);
        Jocl.arg(kernel, 1, dCall);
        Jocl.arg(kernel, 2, dPut);
        Jocl.arg(kernel, 3, n);
        long local = cl.workGroup1D();
        // The input stays on the device between calls, as JPAI keeps its unchanged PArrays there.
        cl.writeNow(dIn, in);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
            cl.read(call, dCall);
            cl.read(put, dPut);
            return cl.finish();
        }, () -> Output.of("call", OpenCLRun.floats(call, n), "put", OpenCLRun.floats(put, n)));
    }

    static final class BlackScholesKernel extends Kernel {
        float[] rand;
        float[] callPrice;
        float[] putPrice;

        float cndf(float d) {
            float k = 1.0f / (1.0f + 0.2316419f * abs(d));
            float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
            float value = 0.39894228f * exp(-0.5f * d * d) * poly;
            float result = value;
            if (d > 0) {
                result = 1.0f - value;
            }
            return result;
        }

        @Override
        public void run() {
            int i = getGlobalId();
            float r = rand[i];
            float s = 10.0f * r + 100.0f * (1.0f - r);
            float k = 10.0f * r + 100.0f * (1.0f - r);
            float t = 1.0f * r + 10.0f * (1.0f - r);
            float rate = 0.01f * r + 0.05f * (1.0f - r);
            float v = 0.01f * r + 0.10f * (1.0f - r);
            float sqrtT = sqrt(t);
            float d1 = (log(s / k) + (rate + 0.5f * v * v) * t) / (v * sqrtT);
            float d2 = d1 - v * sqrtT;
            float kExpRT = k * exp(-rate * t);
            callPrice[i] = s * cndf(d1) - kExpRT * cndf(d2);
            putPrice[i] = kExpRT * cndf(-d2) - s * cndf(-d1);
        }
    }

    @Override
    public Run aparapi(float[] r, AparapiSupport aparapi) {
        BlackScholesKernel kernel = new BlackScholesKernel();
        kernel.rand = r;
        kernel.callPrice = new float[r.length];
        kernel.putPrice = new float[r.length];
        return new AparapiRun(aparapi, kernel, () -> kernel.put(kernel.rand), () -> kernel.get(kernel.callPrice).get(kernel.putPrice),
                () -> Output.of("call", kernel.callPrice.clone(), "put", kernel.putPrice.clone()), aparapi.range(r.length));
    }
}
