package jpai.examples;

import java.util.Random;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/** {@code y = alpha * x + y} over two zipped float arrays: the thesis's first example. */
final class Saxpy implements ThesisProgram {

    private final PArray<Float> x;
    private final PArray<Float> y;
    private final PArray<Tuple2<Float, Float>> xy;
    private final ArrayFunction<Tuple2<Float, Float>, Float> saxpy;
    /** The lambda the function maps, for the compile-time benchmark. */
    final Function<Tuple2<Float, Float>, Float> saxpyFunction;

    Saxpy(int size, long seed) {
        Random random = new Random(seed);
        float[] xs = new float[size];
        float[] ys = new float[size];
        for (int i = 0; i < size; i++) {
            xs[i] = random.nextFloat() * 100f - 50f;
            ys[i] = random.nextFloat() * 100f - 50f;
        }
        x = PArray.of(xs);
        y = PArray.of(ys);
        xy = PArray.zip(x, y);
        float alpha = 2.5f;
        saxpy = AF.<Float, Float>zip2().map(saxpyFunction = t -> alpha * t._1() + t._2());
    }

    @Override
    public String name() {
        return "saxpy";
    }

    @Override
    public String check() {
        return "bit-exact";
    }

    @Override
    public PArray<?> run(Executor executor) {
        return saxpy.on(executor).apply(xy);
    }

    @Override
    public String compare(PArray<?> reference, PArray<?> actual) {
        return ThesisProgram.compareExactly(reference, actual);
    }

    @Override
    public void close() {
        xy.close();
        x.close();
        y.close();
    }
}
