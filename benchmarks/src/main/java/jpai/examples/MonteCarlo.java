package jpai.examples;

import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * Monte Carlo estimation of pi as in the thesis: each element is a seed; its lambda draws
 * {@link #POINTS_PER_SEED} points with its own linear congruential generator and counts those inside
 * the quarter circle; a reduction sums the counts.
 */
final class MonteCarlo implements ThesisProgram {

    static final int POINTS_PER_SEED = 256;

    private final PArray<Integer> seeds;
    private final ArrayFunction<Integer, Integer> insideCount;
    /** The lambdas of the map and of the reduction fused with it, for the compile-time benchmark. */
    final Function<Integer, Integer> insideFunction;
    final BinaryOperator<Integer> sumFunction;

    MonteCarlo(int size, long seed) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) {
            values[i] = (int) (seed * 0x9E3779B9L) ^ (i * 0x85EBCA6B);
        }
        seeds = PArray.of(values);
        int points = POINTS_PER_SEED;
        insideCount = AF.map(insideFunction = (Integer s) -> {
            int state = s;
            int inside = 0;
            for (int k = 0; k < points; k++) {
                state = state * 1664525 + 1013904223;
                float x = (state >>> 8) * 0x1p-24f;
                state = state * 1664525 + 1013904223;
                float y = (state >>> 8) * 0x1p-24f;
                if (x * x + y * y <= 1.0f) {
                    inside++;
                }
            }
            return inside;
        }).reduce(sumFunction = (a, b) -> a + b, 0);
    }

    @Override
    public String name() {
        return "Monte Carlo";
    }

    @Override
    public String check() {
        return "bit-exact (integer count)";
    }

    @Override
    public PArray<?> run(Executor executor) {
        return insideCount.on(executor).apply(seeds);
    }

    /** The estimate of pi from a result of {@link #run}. */
    double pi(PArray<?> count) {
        return 4.0 * (Integer) count.get(0) / ((double) seeds.length() * POINTS_PER_SEED);
    }

    @Override
    public String compare(PArray<?> reference, PArray<?> actual) {
        return ThesisProgram.compareExactly(reference, actual);
    }

    @Override
    public void close() {
        seeds.close();
    }
}
