package jpai.bench;

import java.util.List;
import java.util.Locale;
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
 * K-Means membership step, int output: each 2-D float point is assigned the index of its nearest
 * centroid (squared Euclidean distance, lowest index on ties), {@value #K} centroids.
 */
public final class KMeans extends Program<KMeans.Data> {

    static final int K = 8;
    /** Two distances closer than this (relative) are a near-tie that rounding may decide either way. */
    static final double TIE = 1e-5;

    /** Points and centroids, structure of arrays. */
    public record Data(float[] px, float[] py, float[] cx, float[] cy) {
    }

    @Override
    public String name() {
        return "kmeans";
    }

    @Override
    public String precision() {
        return "float (int output)";
    }

    @Override
    public String description() {
        return "membership step: nearest of " + K + " centroids for each of n 2-D points";
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
        return pow2(n) + " points x " + K;
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.EXACT;
    }

    @Override
    public String toleranceReason() {
        return String.format(Locale.ROOT, "but a point whose two nearest centroids are within %.0e relative distance "
                + "(a near-tie that a fused multiply-add can decide either way) may take either", TIE);
    }

    @Override
    public Data createData(int n, Random random) {
        float[] px = new float[n];
        float[] py = new float[n];
        for (int i = 0; i < n; i++) {
            px[i] = random.nextFloat() * 100;
            py[i] = random.nextFloat() * 100;
        }
        float[] cx = new float[K];
        float[] cy = new float[K];
        for (int k = 0; k < K; k++) {
            cx[k] = random.nextFloat() * 100;
            cy[k] = random.nextFloat() * 100;
        }
        return new Data(px, py, cx, cy);
    }

    static float distance(Data d, int i, int k) {
        float dx = d.px()[i] - d.cx()[k];
        float dy = d.py()[i] - d.cy()[k];
        return dx * dx + dy * dy;
    }

    static int nearest(float x, float y, float[] cx, float[] cy) {
        int best = 0;
        float bestDistance = Float.MAX_VALUE;
        for (int k = 0; k < cx.length; k++) {
            float dx = x - cx[k];
            float dy = y - cy[k];
            float distance = dx * dx + dy * dy;
            if (distance < bestDistance) {
                bestDistance = distance;
                best = k;
            }
        }
        return best;
    }

    @Override
    public Run sequential(Data d) {
        int[] member = new int[d.px().length];
        return Run.java(() -> {
            for (int i = 0; i < member.length; i++) {
                member[i] = nearest(d.px()[i], d.py()[i], d.cx(), d.cy());
            }
        }, () -> Output.of("member", member.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(Data d) {
        int[] member = new int[d.px().length];
        return Run.java(() -> IntStream.range(0, member.length).parallel().forEach(i -> member[i] = nearest(d.px()[i], d.py()[i], d.cx(), d.cy())),
                () -> Output.of("member", member.clone()), "Java: fork/join pool");
    }

    /** {@link #nearest(float, float, float[], float[])} reading the centroids where they live. */
    static int nearest(float x, float y, PArray<Float> cx, PArray<Float> cy) {
        int best = 0;
        float bestDistance = Float.MAX_VALUE;
        for (int k = 0; k < cx.length(); k++) {
            float dx = x - cx.get(k);
            float dy = y - cy.get(k);
            float distance = dx * dx + dy * dy;
            if (distance < bestDistance) {
                bestDistance = distance;
                best = k;
            }
        }
        return best;
    }

    /**
     * {@code AF.zip2().map(p -> nearest(p._1(), p._2(), cx, cy))} over {@code PArray.zip(px, py)},
     * capturing the centroids as {@code PArray}s (resident on the device: a k-means step that moves
     * them writes them with {@code copyFrom}, and the next apply sends those 64 bytes); the result
     * read into a Java array.
     */
    @Override
    public Run jpai(Data d) {
        PArray<Float> cx = PArray.of(d.cx());
        PArray<Float> cy = PArray.of(d.cy());
        PArray<Float> px = PArray.of(d.px());
        PArray<Float> py = PArray.of(d.py());
        PArray<Tuple2<Float, Float>> points = PArray.zip(px, py);
        int[] member = new int[d.px().length];
        ArrayFunction<Tuple2<Float, Float>, Integer> membership = AF.<Float, Float>zip2().map(p -> nearest(p._1(), p._2(), cx, cy));
        return new JpaiRun(List.of(px, py, cx, cy), () -> List.of(membership.apply(points)), results -> JpaiRun.copy(results.get(0), 0, member),
                () -> Output.of("member", member.clone()), "zip2().map over zip(px, py) capturing the centroids as resident PArrays");
    }

    @Override
    public Run openCL(Data d, Jocl cl) {
        int n = d.px().length;
        Jocl.Pinned points = cl.pinned(8L * n);
        Jocl.Pinned centroids = cl.pinned(8L * K);
        Jocl.Pinned member = cl.pinned(4L * n);
        for (int i = 0; i < n; i++) {
            points.host().putFloat(8 * i, d.px()[i]).putFloat(8 * i + 4, d.py()[i]);
        }
        for (int k = 0; k < K; k++) {
            centroids.host().putFloat(8 * k, d.cx()[k]).putFloat(8 * k + 4, d.cy()[k]);
        }
        cl_mem dPoints = cl.deviceBuffer(8L * n);
        cl_mem dCentroids = cl.deviceBuffer(8L * K);
        cl_mem dMember = cl.deviceBuffer(4L * n);
        // Centroids in __constant memory (broadcast to all work-items); contraction off so that
        // distances, and therefore memberships, are those of the Java reference.
        cl_kernel kernel = cl.kernel("""
                #pragma OPENCL FP_CONTRACT OFF
                __kernel void membership(__global const float2* points, __constant float2* centroids, __global int* member, const int n, const int k) {
                    int i = get_global_id(0);
                    if (i >= n) return;
                    float2 p = points[i];
                    int best = 0;
                    float bestDistance = FLT_MAX;
                    for (int c = 0; c < k; c++) {
                        float2 d = p - centroids[c];
                        float distance = d.x * d.x + d.y * d.y;
                        if (distance < bestDistance) {
                            bestDistance = distance;
                            best = c;
                        }
                    }
                    member[i] = best;
                }
                """, "membership");
        Jocl.arg(kernel, 0, dPoints);
        Jocl.arg(kernel, 1, dCentroids);
        Jocl.arg(kernel, 2, dMember);
        Jocl.arg(kernel, 3, n);
        Jocl.arg(kernel, 4, K);
        long local = cl.workGroup1D();
        // Points and centroids stay on the device between calls, as JPAI keeps its PArrays there.
        cl.writeNow(dPoints, points);
        cl.writeNow(dCentroids, centroids);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(n, local)}, new long[] {local});
            cl.read(member, dMember);
            return cl.finish();
        }, () -> Output.of("member", OpenCLRun.ints(member, n)));
    }

    static final class MembershipKernel extends Kernel {
        float[] px, py, cx, cy;
        int[] member;
        int k;

        @Override
        public void run() {
            int i = getGlobalId();
            float x = px[i];
            float y = py[i];
            int best = 0;
            float bestDistance = Float.MAX_VALUE;
            for (int c = 0; c < k; c++) {
                float dx = x - cx[c];
                float dy = y - cy[c];
                float distance = dx * dx + dy * dy;
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = c;
                }
            }
            member[i] = best;
        }
    }

    @Override
    public Run aparapi(Data d, AparapiSupport aparapi) {
        MembershipKernel kernel = new MembershipKernel();
        kernel.px = d.px();
        kernel.py = d.py();
        kernel.cx = d.cx();
        kernel.cy = d.cy();
        kernel.k = K;
        kernel.member = new int[d.px().length];
        return new AparapiRun(aparapi, kernel, () -> kernel.put(kernel.px).put(kernel.py).put(kernel.cx).put(kernel.cy), () -> kernel.get(kernel.member),
                () -> Output.of("member", kernel.member.clone()), aparapi.range(d.px().length));
    }

    /** Exact, except near-ties (see {@link #toleranceReason()}). */
    @Override
    public String validate(Data d, int n, Output reference, Output candidate) {
        int[] expected = (int[]) reference.get("member");
        Object actualObject = candidate.get("member");
        if (!(actualObject instanceof int[] actual) || actual.length != expected.length) {
            return "member: missing or of the wrong length";
        }
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                if (actual[i] < 0 || actual[i] >= K) {
                    return "member[" + i + "] = " + actual[i] + ", not a centroid index";
                }
                double best = distance(d, i, expected[i]);
                double chosen = distance(d, i, actual[i]);
                if (Math.abs(chosen - best) > TIE * best) {
                    return String.format(Locale.ROOT, "member[%d] = %d at distance %s, expected %d at %s", i, actual[i], chosen, expected[i], best);
                }
            }
        }
        return null;
    }
}
