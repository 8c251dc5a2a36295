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
 * Monte Carlo estimation of pi, int: each work-item has its own xorshift32 stream, seeded from a
 * random input array, draws {@value #SAMPLES_PER_THREAD} points with 15-bit integer coordinates
 * and counts those inside the quarter circle; pi = 4 * (sum of counts) / samples. Integer
 * arithmetic keeps every version exact. The final sum of the counts (n/64 ints) is left out of the
 * timed work everywhere (for JPAI it awaits AF.reduce).
 */
public final class MonteCarlo extends Program<int[]> {

    static final int SAMPLES_PER_THREAD = 64;

    @Override
    public String name() {
        return "montecarlo";
    }

    @Override
    public String precision() {
        return "int";
    }

    @Override
    public String description() {
        return "per-thread xorshift32 streams, " + SAMPLES_PER_THREAD + " points each: count of points inside the quarter circle per thread";
    }

    /** Samples in all; threads are samples / 64. */
    @Override
    public int size(SizeClass size) {
        return switch (size) {
            case TINY -> 1 << 14;
            case QUICK -> 1 << 18;
            case SMALL -> 1 << 20;
            case LARGE -> 1 << 24;
        };
    }

    @Override
    public String sizeLabel(int n) {
        return pow2(n) + " samples";
    }

    @Override
    public Tolerance tolerance(int n) {
        return Tolerance.EXACT;
    }

    /** One seed per thread, never 0 (xorshift's fixed point). */
    @Override
    public int[] createData(int n, Random random) {
        int[] seeds = new int[n / SAMPLES_PER_THREAD];
        for (int i = 0; i < seeds.length; i++) {
            seeds[i] = random.nextInt() | 1;
        }
        return seeds;
    }

    /** One thread's count of points inside the quarter circle. */
    static int countInside(int seed) {
        int s = seed;
        int inside = 0;
        for (int k = 0; k < SAMPLES_PER_THREAD; k++) {
            s ^= s << 13;
            s ^= s >>> 17;
            s ^= s << 5;
            int x = s >>> 17;
            s ^= s << 13;
            s ^= s >>> 17;
            s ^= s << 5;
            int y = s >>> 17;
            if (x * x + y * y < (1 << 30)) {
                inside++;
            }
        }
        return inside;
    }

    @Override
    public Run sequential(int[] seeds) {
        int[] counts = new int[seeds.length];
        return Run.java(() -> {
            for (int t = 0; t < seeds.length; t++) {
                counts[t] = countInside(seeds[t]);
            }
        }, () -> Output.of("counts", counts.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(int[] seeds) {
        int[] counts = new int[seeds.length];
        return Run.java(() -> IntStream.range(0, seeds.length).parallel().forEach(t -> counts[t] = countInside(seeds[t])),
                () -> Output.of("counts", counts.clone()), "Java: fork/join pool");
    }

    /** A map over the seeds; captures nothing, so it runs on OpenCL today. */
    @Override
    public Run jpai(int[] seeds) {
        PArray<Integer> input = PArray.of(seeds);
        ArrayFunction<Integer, Integer> count = AF.map((Integer seed) -> countInside(seed), Integer.class);
        return new JpaiRun(List.of(input), () -> List.of(count.apply(input)), results -> Output.of("counts", results.get(0).toIntArray()), null);
    }

    @Override
    public Run openCL(int[] seeds, Jocl cl) {
        int threads = seeds.length;
        long bytes = 4L * threads;
        Jocl.Pinned in = cl.pinned(bytes);
        Jocl.Pinned out = cl.pinned(bytes);
        in.host().asIntBuffer().put(seeds);
        cl_mem dIn = cl.deviceBuffer(bytes);
        cl_mem dOut = cl.deviceBuffer(bytes);
        cl_kernel kernel = cl.kernel("""
                __kernel void monteCarlo(__global const uint* seeds, __global int* counts, const int threads) {
                    int t = get_global_id(0);
                    if (t >= threads) return;
                    uint s = seeds[t];
                    int inside = 0;
                    for (int k = 0; k < %d; k++) {
                        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
                        int x = s >> 17;
                        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
                        int y = s >> 17;
                        inside += (x * x + y * y < (1 << 30)) ? 1 : 0;
                    }
                    counts[t] = inside;
                }
                """.formatted(SAMPLES_PER_THREAD), "monteCarlo");
        Jocl.arg(kernel, 0, dIn);
        Jocl.arg(kernel, 1, dOut);
        Jocl.arg(kernel, 2, threads);
        long local = cl.workGroup1D();
        return new OpenCLRun(cl, () -> {
            cl.write(dIn, in);
            cl.launch(kernel, new long[] {Jocl.roundUp(threads, local)}, new long[] {local});
            cl.read(out, dOut);
            return cl.finish();
        }, () -> Output.of("counts", OpenCLRun.ints(out, threads)));
    }

    static final class MonteCarloKernel extends Kernel {
        int[] seeds;
        int[] counts;

        @Override
        public void run() {
            int t = getGlobalId();
            int s = seeds[t];
            int inside = 0;
            for (int k = 0; k < SAMPLES_PER_THREAD; k++) {
                s ^= s << 13;
                s ^= s >>> 17;
                s ^= s << 5;
                int x = s >>> 17;
                s ^= s << 13;
                s ^= s >>> 17;
                s ^= s << 5;
                int y = s >>> 17;
                if (x * x + y * y < (1 << 30)) {
                    inside++;
                }
            }
            counts[t] = inside;
        }
    }

    @Override
    public Run aparapi(int[] seeds, AparapiSupport aparapi) {
        MonteCarloKernel k = new MonteCarloKernel();
        k.seeds = seeds;
        k.counts = new int[seeds.length];
        return new AparapiRun(aparapi, k, () -> k.put(k.seeds), () -> k.get(k.counts), () -> Output.of("counts", k.counts.clone()), aparapi.range(seeds.length));
    }
}
