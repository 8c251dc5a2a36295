package jpai.examples;

import java.util.Random;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * The K-Means membership step as in the thesis: for each 2-D point (a zip of two arrays), the index
 * of the nearest of {@link #CLUSTERS} centroids, which the lambda captures as Java arrays.
 */
final class KMeans implements ThesisProgram {

    static final int CLUSTERS = 8;

    private final PArray<Float> xs;
    private final PArray<Float> ys;
    private final PArray<Tuple2<Float, Float>> points;
    private final ArrayFunction<Tuple2<Float, Float>, Integer> nearest;
    /** The lambda the function maps, for the compile-time benchmark. */
    final Function<Tuple2<Float, Float>, Integer> nearestFunction;

    KMeans(int size, long seed) {
        Random random = new Random(seed);
        float[] x = new float[size];
        float[] y = new float[size];
        for (int i = 0; i < size; i++) {
            x[i] = random.nextFloat() * 100f;
            y[i] = random.nextFloat() * 100f;
        }
        xs = PArray.of(x);
        ys = PArray.of(y);
        points = PArray.zip(xs, ys);
        float[] centroidX = new float[CLUSTERS];
        float[] centroidY = new float[CLUSTERS];
        for (int c = 0; c < CLUSTERS; c++) {
            centroidX[c] = x[c];
            centroidY[c] = y[c];
        }
        nearest = AF.<Float, Float>zip2().map(nearestFunction = point -> {
            int best = 0;
            float bestDistance = Float.MAX_VALUE;
            for (int c = 0; c < centroidX.length; c++) {
                float dx = point._1() - centroidX[c];
                float dy = point._2() - centroidY[c];
                float distance = dx * dx + dy * dy;
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = c;
                }
            }
            return best;
        });
    }

    @Override
    public String name() {
        return "K-Means membership";
    }

    @Override
    public String check() {
        return "bit-exact";
    }

    @Override
    public PArray<?> run(Executor executor) {
        return nearest.on(executor).apply(points);
    }

    @Override
    public String compare(PArray<?> reference, PArray<?> actual) {
        return ThesisProgram.compareExactly(reference, actual);
    }

    @Override
    public void close() {
        points.close();
        xs.close();
        ys.close();
    }
}
