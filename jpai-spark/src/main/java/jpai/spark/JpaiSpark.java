package jpai.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;

import jpai.ArrayFunction;
import jpai.PArray;

/**
 * JPAI inside Spark's executors: an {@link ArrayFunction} applied to each partition of an RDD, one
 * device per executor, Spark doing the distribution, the scheduling and the retries.
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

    private JpaiSpark() {
    }

    /**
     * Applies the function {@code recipe} builds to each partition of {@code rdd}: a new RDD of its
     * results, partition for partition (for a map, element for element).
     *
     * @throws IllegalArgumentException on the driver, if the recipe cannot be serialised (naming what it captures) or its function cannot be built
     */
    public static <T, R> JavaRDD<R> mapPartitions(JavaRDD<T> rdd, ElementLayout<T> layout, FunctionRecipe<T, R> recipe) {
        Objects.requireNonNull(rdd, "mapPartitions: the RDD is null");
        Objects.requireNonNull(layout, "mapPartitions: the layout is null");
        Objects.requireNonNull(recipe, "mapPartitions: the recipe is null");
        ExecutorFunctions.serialized(recipe); // a clear error here, rather than Spark's "Task not serializable"
        Objects.requireNonNull(recipe.build(), "mapPartitions: the recipe built no function (null)");
        return rdd.mapPartitions(new PartitionApply<>(layout, recipe), true);
    }

    /** One task's work: the partition in, the function applied, the results out. */
    private record PartitionApply<T, R>(ElementLayout<T> layout, FunctionRecipe<T, R> recipe) implements FlatMapFunction<Iterator<T>, R> {

        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<R> call(Iterator<T> elements) {
            ExecutorDevice.chooseOnce();
            ArrayFunction<T, R> function = ExecutorFunctions.of(recipe);
            try (PArray<T> input = layout.toPArray(elements); PArray<R> output = function.apply(input)) {
                List<R> results = new ArrayList<>((int) Math.min(Integer.MAX_VALUE - 8, output.length()));
                for (long i = 0; i < output.length(); i++) {
                    results.add(output.get(i));
                }
                return results.iterator();
            }
        }
    }
}
