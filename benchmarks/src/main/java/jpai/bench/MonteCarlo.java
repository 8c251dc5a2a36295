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
 * arithmetic keeps every version exact. Every version includes the final sum of the counts (the
 * output is the number of points inside): JPAI as a map then reduce (one fused kernel), the
 * hand-written kernel with a work-group reduction and a host sum of the per-group partials, Aparapi
 * with a host sum of the per-thread counts.
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
        return "per-thread xorshift32 streams, " + SAMPLES_PER_THREAD + " points each, counts inside the quarter circle summed";
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
        int[] total = new int[1];
        return Run.java(() -> {
            int sum = 0;
            for (int t = 0; t < seeds.length; t++) {
                sum += countInside(seeds[t]);
            }
            total[0] = sum;
        }, () -> Output.of("inside", total.clone()), "Java: 1 thread");
    }

    @Override
    public Run streams(int[] seeds) {
        int[] total = new int[1];
        return Run.java(() -> total[0] = IntStream.of(seeds).parallel().map(MonteCarlo::countInside).sum(),
                () -> Output.of("inside", total.clone()), "Java: fork/join pool");
    }

    /**
     * {@code AF.map(seed -> countInside(seed)).reduce((a, b) -> a + b, 0)} over the seeds: map and
     * reduce fused into one kernel; the one-element result read on the host.
     */
    @Override
    public Run jpai(int[] seeds) {
        PArray<Integer> input = PArray.of(seeds);
        int[] total = new int[1];
        ArrayFunction<Integer, Integer> count = JpaiRun.placed(AF.map((Integer seed) -> countInside(seed)).reduce((a, b) -> a + b, 0));
        return new JpaiRun(List.of(input), () -> List.of(count.apply(input)), results -> total[0] = (Integer) results.get(0).get(0),
                () -> Output.of("inside", total.clone()), "map then reduce (fused into one kernel)");
    }

    @Override
    public Run openCL(int[] seeds, Jocl cl) {
        int threads = seeds.length;
        long bytes = 4L * threads;
        long local = Long.highestOneBit(cl.workGroup1D()); // a power of two for the tree reduction
        int groups = (int) (Jocl.roundUp(threads, local) / local);
        Jocl.Pinned in = cl.pinned(bytes);
        Jocl.Pinned out = cl.pinned(4L * groups);
        in.host().asIntBuffer().put(seeds);
        cl_mem dIn = cl.deviceBuffer(bytes);
        cl_mem dOut = cl.deviceBuffer(4L * groups);
        cl_kernel kernel = cl.kernel("""
                __kernel void monteCarlo(__global const uint* seeds, __global int* partial, const int threads, __local int* scratch) {
                    int t = get_global_id(0);
                    int inside = 0;
                    if (t < threads) {
                        uint s = seeds[t];
                        for (int k = 0; k < %d; k++) {
                            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
                            int x = s >> 17;
                            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
                            int y = s >> 17;
                            inside += (x * x + y * y < (1 << 30)) ? 1 : 0;
                        }
                    }
                    int l = get_local_id(0);
                    scratch[l] = inside;
                    barrier(CLK_LOCAL_MEM_FENCE);
                    for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
                        if (l < stride) {
                            scratch[l] += scratch[l + stride];
                        }
                        barrier(CLK_LOCAL_MEM_FENCE);
                    }
                    if (l == 0) {
                        partial[get_group_id(0)] = scratch[0];
                    }
                }
                """.formatted(SAMPLES_PER_THREAD), "monteCarlo");
        Jocl.arg(kernel, 0, dIn);
        Jocl.arg(kernel, 1, dOut);
        Jocl.arg(kernel, 2, threads);
        Jocl.localArg(kernel, 3, 4L * local);
        int[] total = new int[1];
        // The input stays on the device between calls, as JPAI keeps its unchanged PArrays there.
        cl.writeNow(dIn, in);
        return new OpenCLRun(cl, () -> {
            cl.launch(kernel, new long[] {Jocl.roundUp(threads, local)}, new long[] {local});
            cl.read(out, dOut);
            long nanos = cl.finish();
            int sum = 0;
            for (int g = 0; g < groups; g++) {
                sum += out.host().getInt(4 * g);
            }
            total[0] = sum;
            return nanos;
        }, () -> Output.of("inside", total.clone()));
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

    /** Per-thread counts on the device, summed on the host after the copy-back (inside the timed call). */
    @Override
    public Run aparapi(int[] seeds, AparapiSupport aparapi) {
        MonteCarloKernel k = new MonteCarloKernel();
        k.seeds = seeds;
        k.counts = new int[seeds.length];
        int[] total = new int[1];
        return new AparapiRun(aparapi, k, () -> k.put(k.seeds), () -> {
            k.get(k.counts);
            int sum = 0;
            for (int c : k.counts) {
                sum += c;
            }
            total[0] = sum;
        }, () -> Output.of("inside", total.clone()), aparapi.range(seeds.length));
    }
}
