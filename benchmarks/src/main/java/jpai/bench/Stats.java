package jpai.bench;

import java.util.Arrays;

/** Median and spread of a series of times, in nanoseconds. */
public record Stats(double median, double min, double max, double q1, double q3, int count) {

    public static Stats of(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Stats(quantile(sorted, 0.5), sorted[0], sorted[sorted.length - 1], quantile(sorted, 0.25), quantile(sorted, 0.75), sorted.length);
    }

    /** Linear interpolation between closest ranks (the median of an even count is the mean of the middle two). */
    private static double quantile(long[] sorted, double q) {
        double position = q * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = (int) Math.ceil(position);
        return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
    }
}
