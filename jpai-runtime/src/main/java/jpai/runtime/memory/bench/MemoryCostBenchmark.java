package jpai.runtime.memory.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;

/**
 * What memory safety and coherence cost on the host, per call, on the default device: the figures
 * of docs/runtime.md's section on memory. Uses only API calls older versions have too, so the same class
 * measures the code before and after a change.
 *
 * <ul>
 * <li>{@code apply+close}: a map applied to an input already on the device and unchanged (nothing
 * sent), its output closed unread;</li>
 * <li>{@code apply+get(0)+close}: the same, reading one element of the output (a reduction's
 * result is read so);</li>
 * <li>{@code apply+300 gets+close}: the same, reading 300 elements one by one (past the point where
 * an array makes its access arena, whose close is a thread handshake);</li>
 * <li>{@code apply+toFloatArray+close}: the same, reading the whole output;</li>
 * <li>{@code put (per element)}, {@code get (per element)}: host loops of 64 Ki accesses over an
 * array used on the device.</li>
 * </ul>
 *
 * Median of {@code runs} (default 200) timings after as many warm-up calls, in microseconds (per
 * element in nanoseconds). Run: {@code bin/jpai run jpai.runtime.memory.bench.MemoryCostBenchmark [runs [sizes...]]}.
 */
public final class MemoryCostBenchmark {

    private MemoryCostBenchmark() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        System.setProperty("jpai.fallback", "error"); // the device must run every apply measured
        ArrayFunction<Float, Float> f = AF.map((Float x) -> x * 2f + 1f);
        int[] sizes = args.length > 1 ? java.util.Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray() : new int[] {1 << 10, 1 << 20};
        for (int n : sizes) {
            float[] values = new float[n];
            for (int i = 0; i < n; i++) {
                values[i] = i * 0.25f;
            }
            try (PArray<Float> input = PArray.of(values)) {
                f.apply(input).close(); // compiles, and makes the input resident
                // The host loops first: what the JIT makes of them depends on what ran before.
                int accesses = 1 << 16; // over the first 64 Ki elements, or round the array again
                int mask = Math.min(n, accesses) - 1;
                report("put (per element)", n, Math.max(50, runs / 10), accesses, () -> timed(() -> {
                    for (int i = 0; i < accesses; i++) {
                        input.put(i & mask, values[i & mask]);
                    }
                }));
                f.apply(input).close(); // resident again
                report("get (per element)", n, Math.max(50, runs / 10), accesses, () -> timed(() -> {
                    float sum = 0;
                    for (int i = 0; i < accesses; i++) {
                        sum += input.get(i & mask);
                    }
                    if (sum == -1f) {
                        System.out.print("");
                    }
                }));
                f.apply(input).close(); // resident again
                report("apply+close", n, runs, 1, () -> timed(() -> f.apply(input).close()));
                report("apply+get(0)+close", n, runs, 1, () -> timed(() -> {
                    try (PArray<Float> out = f.apply(input)) {
                        out.get(0);
                    }
                }));
                report("apply+300 gets+close", n, runs, 1, () -> timed(() -> {
                    try (PArray<Float> out = f.apply(input)) {
                        for (int i = 0; i < 300; i++) {
                            out.get(i & mask);
                        }
                    }
                }));
                report("apply+toFloatArray+close", n, runs, 1, () -> timed(() -> {
                    try (PArray<Float> out = f.apply(input)) {
                        out.toFloatArray();
                    }
                }));
            }
        }
    }

    private static long timed(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return System.nanoTime() - start;
    }

    /** Prints the median of {@code runs} timings after as many warm-up ones, per call (us) or per element (ns). */
    private static void report(String what, int n, int runs, int perTiming, LongSupplier timing) {
        for (int i = 0; i < runs; i++) {
            timing.getAsLong();
        }
        long[] nanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            nanos[i] = timing.getAsLong();
        }
        Arrays.sort(nanos);
        double median = nanos[runs / 2];
        if (perTiming == 1) {
            System.out.printf(Locale.ROOT, "%-26s n=%-8d %10.1f us%n", what, n, median / 1e3);
        } else {
            System.out.printf(Locale.ROOT, "%-26s n=%-8d %10.2f ns%n", what, n, median / perTiming);
        }
    }
}
