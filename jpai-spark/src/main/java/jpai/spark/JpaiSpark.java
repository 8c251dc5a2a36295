package jpai.spark;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Row;

import jpai.ArrayFunction;
import jpai.PArray;

/**
 * JPAI inside Spark's executors: an {@link ArrayFunction} applied to each partition of an RDD or a
 * Dataset (or one column of a DataFrame), one device per executor, Spark doing the distribution, the
 * scheduling and the retries.
 *
 * <pre>{@code
 * float scale = 2f;
 * JavaRDD<Float> doubled = JpaiSpark.mapPartitions(values, ElementLayout.of(Float.class), () -> AF.map((Float x) -> x * scale));
 * }</pre>
 *
 * <p>Each task lays its partition out as a {@link PArray} ({@link ElementLayout}), applies the
 * function this executor JVM built from the recipe ({@link ExecutorFunctions}), and returns the
 * result's elements; both arrays are closed before the task returns, so a task that fails and is
 * retried leaves nothing behind (no device buffer holds a half-written partition for a later task).
 * The results are the ones the function gives without Spark, partition by partition (a map's
 * element {@code i} depends on input element {@code i} only, so on any cut into partitions).
 */
public final class JpaiSpark {

    private static final ThreadLocal<PartitionTimes> LAST_TIMES = new ThreadLocal<>();

    private JpaiSpark() {
    }

    /**
     * Where the last partition this thread mapped spent its time, or null: read it in a later
     * transformation of the same stage (Spark runs them in the task's thread, after the results'
     * iterator is drained), as {@code AF.lastProfile()} is read after an apply.
     */
    public static PartitionTimes lastPartitionTimes() {
        return LAST_TIMES.get();
    }

    /**
     * Applies the function {@code recipe} builds to each partition of {@code rdd}: a new RDD of its
     * results, partition for partition (for a map, element for element).
     *
     * @throws IllegalArgumentException on the driver, if the recipe cannot be serialised (naming what it captures) or its function cannot be built
     */
    public static <T, R> JavaRDD<R> mapPartitions(JavaRDD<T> rdd, ElementLayout<T> layout, FunctionRecipe<T, R> recipe) {
        Objects.requireNonNull(rdd, "mapPartitions: the RDD is null");
        checked(layout, recipe);
        checkConfiguration(rdd.context().getConf());
        return rdd.mapPartitions(new PartitionApply<>(layout, recipe), false); // new values: a partitioner of the input says nothing of them
    }

    /**
     * Applies the function {@code recipe} builds to each partition of {@code dataset}: a new Dataset
     * of its results, encoded by {@code resultEncoder} ({@code Encoders.FLOAT()}, ...).
     *
     * @throws IllegalArgumentException on the driver, if the recipe cannot be serialised or its function cannot be built
     */
    public static <T, R> Dataset<R> mapPartitions(Dataset<T> dataset, ElementLayout<T> layout, Encoder<R> resultEncoder, FunctionRecipe<T, R> recipe) {
        Objects.requireNonNull(dataset, "mapPartitions: the Dataset is null");
        Objects.requireNonNull(resultEncoder, "mapPartitions: the result encoder is null");
        checked(layout, recipe);
        checkConfiguration(dataset.sparkSession().sparkContext().getConf());
        return dataset.mapPartitions(new PartitionApply<>(layout, recipe), resultEncoder);
    }

    /**
     * Applies the function {@code recipe} builds to one column of {@code rows}, partition by
     * partition: {@code JpaiSpark.mapColumn(prices, "spot", ElementLayout.of(Float.class),
     * Encoders.FLOAT(), Encoders.FLOAT(), () -> AF.map(...))}. The column is read as
     * {@code columnEncoder} gives it (a column of floats with {@code Encoders.FLOAT()}).
     */
    public static <T, R> Dataset<R> mapColumn(Dataset<Row> rows, String column, ElementLayout<T> layout, Encoder<T> columnEncoder, Encoder<R> resultEncoder, FunctionRecipe<T, R> recipe) {
        Objects.requireNonNull(rows, "mapColumn: the Dataset is null");
        Objects.requireNonNull(column, "mapColumn: the column is null");
        Objects.requireNonNull(columnEncoder, "mapColumn: the column encoder is null");
        return mapPartitions(rows.select(column).as(columnEncoder), layout, resultEncoder, recipe);
    }

    /**
     * Says once, on the driver's standard error, what the application's configuration lacks for JPAI
     * in the executors: JPAI's JVM flags there (without them every partition runs on Java threads,
     * as each executor would also say), and the plugin that prepares each executor when it starts
     * (README, "JPAI in Spark").
     */
    static void checkConfiguration(org.apache.spark.SparkConf conf) {
        String options = conf.get("spark.executor.extraJavaOptions", "") + " " + conf.get("spark.executor.defaultJavaOptions", "");
        if (!options.contains("EnableJVMCI") && !options.contains("@")) {
            jpai.runtime.Explain.notice("spark.executor.extraJavaOptions names neither JPAI's argfile (@.../jpai.argfile) nor its JVMCI and Graal flags: the executors "
                            + "cannot compile kernels and every partition will run on Java threads (README, \"JPAI in Spark\")");
        }
        if (!conf.get("spark.plugins", "").contains(JpaiSparkPlugin.class.getName())) {
            jpai.runtime.Explain.notice("spark.plugins does not name " + JpaiSparkPlugin.class.getName() + ": each executor starts JVMCI and Graal (about half a second) "
                            + "and picks its GPU in its first JPAI task instead of when it starts (README, \"JPAI in Spark\")");
        }
    }

    /** Checks what a driver can check before any task runs: the recipe serialises and builds a function. */
    private static void checked(ElementLayout<?> layout, FunctionRecipe<?, ?> recipe) {
        Objects.requireNonNull(layout, "mapPartitions: the layout is null");
        Objects.requireNonNull(recipe, "mapPartitions: the recipe is null");
        ExecutorFunctions.serialized(recipe); // a clear error here, rather than Spark's "Task not serializable"
        Objects.requireNonNull(recipe.build(), "mapPartitions: the recipe built no function (null)");
    }

    /** One task's work: the partition in, the function applied, the results out (for RDDs and Datasets alike). */
    private record PartitionApply<T, R>(ElementLayout<T> layout, FunctionRecipe<T, R> recipe) implements FlatMapFunction<Iterator<T>, R>, MapPartitionsFunction<T, R> {

        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<R> call(Iterator<T> elements) {
            ExecutorDevice.chooseOnce();
            ArrayFunction<T, R> function = ExecutorFunctions.of(recipe);
            long start = System.nanoTime();
            try (PArray<T> input = layout.toPArray(elements)) {
                long laidOut = System.nanoTime();
                try (PArray<R> output = function.apply(input)) {
                    long applied = System.nanoTime();
                    List<R> results = ResultElements.of(output);
                    jpai.ApplyProfile profile = jpai.AF.lastProfile();
                    LAST_TIMES.set(new PartitionTimes(input.length(), laidOut - start, applied - laidOut, System.nanoTime() - applied, profile == null ? "?" : profile.device()));
                    return results.iterator();
                }
            }
        }
    }
}
