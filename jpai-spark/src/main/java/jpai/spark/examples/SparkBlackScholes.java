package jpai.spark.examples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple2;
import jpai.spark.ElementLayout;
import jpai.spark.FunctionRecipe;
import jpai.spark.JpaiSpark;
import jpai.spark.PartitionTimes;

/**
 * Black-Scholes prices of European options with JPAI in Spark's executors: a JPAI map over each
 * partition of an RDD of option parameters (one float per option, from which spot, strike, time,
 * rate and volatility are drawn, as in the benchmark suite), returning (call, put) pairs.
 *
 * <p>Usage (the driver needs JPAI's flags, as every JPAI program does; see the README, "JPAI in
 * Spark"): {@code SparkBlackScholes [OPTIONS [PARTITIONS [JOBS]]]} with the master given by
 * {@code spark-submit --master} or {@code -Dspark.master=...}. It checks every price against the
 * same function applied by JPAI on the driver, without Spark (bit for bit), then times JOBS jobs
 * over the cached input (each the prices and their sum) and prints the median beside Spark alone
 * summing the same input, and where each partition's task spent its time ({@link PartitionTimes})
 * on which device.
 */
public final class SparkBlackScholes {

    private static final float S_LO = 10.0f;
    private static final float S_HI = 50.0f;
    private static final float K_LO = 10.0f;
    private static final float K_HI = 50.0f;
    private static final float T_LO = 0.2f;
    private static final float T_HI = 2.0f;
    private static final float R_LO = 0.02f;
    private static final float R_HI = 0.05f;
    private static final float V_LO = 0.1f;
    private static final float V_HI = 0.5f;

    private SparkBlackScholes() {
    }

    /** The recipe of the pricing function, sent to the executors (it captures nothing). */
    static FunctionRecipe<Float, Tuple2<Float, Float>> prices() {
        return () -> AF.map((Float x) -> {
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
        });
    }

    /** Cumulative normal distribution, Abramowitz and Stegun 26.2.17. */
    static float cnd(float d) {
        float k = 1.0f / (1.0f + 0.2316419f * Math.abs(d));
        float poly = k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
        float value = 0.39894228f * (float) Math.exp(-0.5f * d * d) * poly;
        return d > 0 ? 1.0f - value : value;
    }

    /** Option {@code i}'s parameter in [0, 1): a hash of its index, so that any executor makes the same input. */
    static float parameter(long i) {
        long h = i * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        return (h >>> 40) / (float) (1L << 24);
    }

    public static void main(String[] args) {
        int options = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 21;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        SparkSession session = SparkSession.builder().appName("JPAI Black-Scholes").getOrCreate();
        try (JavaSparkContext spark = new JavaSparkContext(session.sparkContext())) {
            List<Long> indices = new ArrayList<>();
            for (long i = 0; i < partitions; i++) {
                indices.add(i);
            }
            long perPartition = (options + partitions - 1) / partitions;
            // the input made and cached on the executors, as a job reads its data there
            JavaRDD<Float> input = spark.parallelize(indices, partitions).flatMap(p -> {
                List<Float> part = new ArrayList<>();
                for (long i = p * perPartition; i < Math.min(options, (p + 1) * perPartition); i++) {
                    part.add(parameter(i));
                }
                return part.iterator();
            }).cache();
            long count = input.count();
            JavaRDD<Tuple2<Float, Float>> priced = JpaiSpark.mapPartitions(input, ElementLayout.of(Float.class), prices());
            check(priced, options);
            long[] nanos = new long[jobs];
            long[] baseline = new long[jobs];
            double sum = 0;
            List<String> times = List.of();
            for (int j = 0; j < jobs; j++) {
                long start = System.nanoTime();
                input.map(x -> (double) x).reduce(Double::sum); // Spark alone: the same cached elements read and summed
                baseline[j] = System.nanoTime() - start;
                start = System.nanoTime();
                sum = priced.map(t -> (double) t._1() + t._2()).reduce(Double::sum);
                nanos[j] = System.nanoTime() - start;
                if (j == jobs - 1) { // where the tasks spent their time, from a job of their own
                    times = priced.mapPartitions(results -> {
                        while (results.hasNext()) {
                            results.next();
                        }
                        PartitionTimes t = JpaiSpark.lastPartitionTimes();
                        return List.of(String.format("%s: %d elements, layout %.1f ms, apply %.1f ms, results %.1f ms", t.device(), t.elements(), t.layoutNanos() / 1e6,
                                        t.applyNanos() / 1e6, t.resultNanos() / 1e6)).iterator();
                    }).collect();
                }
            }
            Arrays.sort(nanos);
            Arrays.sort(baseline);
            System.out.printf("SparkBlackScholes: %d options in %d partitions, %d executor(s) (%s): median job %.1f ms over %d jobs (sum of prices %.6e); Spark alone summing the input %.1f ms%n",
                            count, partitions, spark.sc().getExecutorMemoryStatus().size() - 1, spark.master(), nanos[jobs / 2] / 1e6, jobs, sum, baseline[jobs / 2] / 1e6);
            times.forEach(t -> System.out.println("  partition on " + t));
        } finally {
            session.stop();
        }
    }

    /** Every price against the same function applied by JPAI on the driver, without Spark, bit for bit. */
    private static void check(JavaRDD<Tuple2<Float, Float>> priced, int options) {
        List<Tuple2<Float, Float>> got = priced.collect();
        float[] r = new float[options];
        for (int i = 0; i < options; i++) {
            r[i] = parameter(i);
        }
        ArrayFunction<Float, Tuple2<Float, Float>> f = prices().build();
        try (PArray<Float> in = PArray.of(r); PArray<Tuple2<Float, Float>> out = f.apply(in)) {
            if (got.size() != options) {
                throw new AssertionError("Spark gave " + got.size() + " prices for " + options + " options");
            }
            float[] call = out.component(0).toFloatArray();
            float[] put = out.component(1).toFloatArray();
            for (int i = 0; i < options; i++) {
                if (Float.floatToRawIntBits(call[i]) != Float.floatToRawIntBits(got.get(i)._1()) || Float.floatToRawIntBits(put[i]) != Float.floatToRawIntBits(got.get(i)._2())) {
                    throw new AssertionError("option " + i + ": Spark gave " + got.get(i) + ", JPAI without Spark (" + call[i] + ", " + put[i] + ")");
                }
            }
        }
        System.out.println("SparkBlackScholes: all " + options + " prices equal to JPAI's without Spark, bit for bit");
    }
}
