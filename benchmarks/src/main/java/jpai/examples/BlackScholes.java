package jpai.examples;

import java.util.Random;
import java.util.function.Function;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;

/**
 * Black-Scholes option pricing as in the thesis: for each stock price, the call and put prices of a
 * European option, returned as a tuple.
 */
final class BlackScholes implements ThesisProgram {

    /** Relative error allowed: exp, log and sqrt map to OpenCL built-ins, within a few float ulps of Java's (docs/java-semantics.md). */
    static final float TOLERANCE = 1e-4f;

    private final PArray<Float> prices;
    private final ArrayFunction<Float, Tuple2<Float, Float>> blackScholes;
    /** The lambda the function maps, for the compile-time benchmark. */
    final Function<Float, Tuple2<Float, Float>> blackScholesFunction;

    BlackScholes(int size, long seed) {
        Random random = new Random(seed);
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = 5f + random.nextFloat() * 25f;
        }
        prices = PArray.of(values);
        float strike = 17f;
        float rate = 0.02f;
        float volatility = 0.30f;
        float years = 0.5f;
        blackScholes = AF.map(blackScholesFunction = (Float price) -> {
            float sqrtT = (float) Math.sqrt(years);
            float d1 = ((float) Math.log(price / strike) + (rate + volatility * volatility * 0.5f) * years) / (volatility * sqrtT);
            float d2 = d1 - volatility * sqrtT;
            float discount = (float) Math.exp(-rate * years);
            float call = price * cnd(d1) - strike * discount * cnd(d2);
            float put = strike * discount * cnd(-d2) - price * cnd(-d1);
            return new Tuple2<>(call, put);
        });
    }

    /** The cumulative normal distribution, by the Abramowitz-Stegun polynomial the thesis used. */
    static float cnd(float d) {
        float k = 1.0f / (1.0f + 0.2316419f * Math.abs(d));
        float polynomial = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
        float w = 1.0f - 0.3989422804f * (float) Math.exp(-0.5f * d * d) * polynomial;
        return d < 0 ? 1.0f - w : w;
    }

    @Override
    public String name() {
        return "Black-Scholes";
    }

    @Override
    public String check() {
        return "relative error <= " + TOLERANCE + " (exp, log: OpenCL ulp bounds)";
    }

    @Override
    public PArray<?> run(Executor executor) {
        return blackScholes.on(executor).apply(prices);
    }

    @Override
    public String compare(PArray<?> reference, PArray<?> actual) {
        for (long i = 0; i < reference.length(); i++) {
            Tuple2<?, ?> expected = (Tuple2<?, ?>) reference.get(i);
            Tuple2<?, ?> got = (Tuple2<?, ?>) actual.get(i);
            if (!close((Float) expected._1(), (Float) got._1()) || !close((Float) expected._2(), (Float) got._2())) {
                return "option " + i + " is " + got + ", Java gives " + expected;
            }
        }
        return null;
    }

    private static boolean close(float expected, float actual) {
        return Math.abs(expected - actual) <= TOLERANCE * Math.max(1f, Math.abs(expected));
    }

    @Override
    public void close() {
        prices.close();
    }
}
