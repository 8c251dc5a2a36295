package jpai.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.PArray;
import jpai.Tuple2;

/** JPAI in the executors of a loopback standalone cluster: a Master, a Worker and two executor JVMs, started and stopped here. */
@Timeout(300)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class SparkClusterTest {

    private static JavaSparkContext spark;

    @BeforeAll
    static void startCluster() throws Exception {
        spark = LoopbackCluster.start("SparkClusterTest", 2);
    }

    @AfterAll
    static void stopCluster() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void aMapOverPartitionsGivesTheResultsOfTheSameMapWithoutSpark() {
        int n = 100_003;
        float[] values = new float[n];
        List<Float> boxed = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values[i] = (i % 1000) * 0.37f - 11f;
            boxed.add(values[i]);
        }
        float scale = 2.5f;
        JavaRDD<Float> rdd = spark.parallelize(boxed, 8);
        List<Float> got = JpaiSpark.mapPartitions(rdd, ElementLayout.of(Float.class), () -> AF.map((Float x) -> x * scale + 1f)).collect();
        float[] expected;
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = AF.map((Float x) -> x * scale + 1f).apply(in)) {
            expected = out.toFloatArray();
        }
        assertEquals(n, got.size());
        for (int i = 0; i < n; i++) {
            assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(got.get(i)), "element " + i);
        }
    }

    /**
     * Each task reports, after its partition's apply, what JPAI's profile of that apply says (a
     * later narrow transformation runs in the same task thread, after the apply's iterator is
     * drained): every partition ran a kernel on an OpenCL device, none fell back to Java, and both
     * executor JVMs took part.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE - 1)
    void everyPartitionRunsOnTheExecutorsOpenCLDeviceAndBothExecutorsWork() {
        List<Float> values = new ArrayList<>();
        for (int i = 0; i < 800_000; i++) {
            values.add(i * 0.5f);
        }
        List<String> reports = JpaiSpark.mapPartitions(spark.parallelize(values, 8), ElementLayout.of(Float.class), () -> AF.map((Float x) -> x * x)).mapPartitions(results -> {
            long count = 0;
            while (results.hasNext()) {
                results.next();
                count++;
            }
            ApplyProfile profile = AF.lastProfile();
            return List.of(ProcessHandle.current().pid() + "|" + profile.device() + "|" + profile.kernelCount() + "|" + profile.fellBack() + "|" + count + "|" + profile.fallbackReason() + "|" + ExecutorDevice.decision()).iterator();
        }).collect();
        assertEquals(8, reports.size(), reports.toString());
        Set<String> executors = new TreeSet<>();
        for (String report : reports) {
            String[] parts = report.split("\\|");
            executors.add(parts[0]);
            assertTrue(!parts[1].equals("Java threads") && Long.parseLong(parts[2]) > 0 && parts[3].equals("false"), "a partition not run by a kernel on an OpenCL device: " + report);
            assertEquals("100000", parts[4], report);
        }
        assertEquals(2, executors.size(), "both executors mapped partitions: " + reports);
    }

    /** Partitions of pairs: two columns, zipped, mapped by a function of both; the function built on the executor from a recipe capturing an array. */
    @Test
    void partitionsOfPairsMapToTheSameResultsAsWithoutSpark() {
        float[] weights = {0.5f, 2f};
        List<Tuple2<Float, Integer>> pairs = new ArrayList<>();
        for (int i = 0; i < 10_001; i++) {
            pairs.add(new Tuple2<>(i * 0.25f, i % 17));
        }
        List<Float> got = JpaiSpark.mapPartitions(spark.parallelize(pairs, 5), ElementLayout.tuple(Float.class, Integer.class),
                        () -> AF.map((Tuple2<Float, Integer> t) -> t._1() * weights[0] + t._2() * weights[1])).collect();
        for (int i = 0; i < pairs.size(); i++) {
            float expected = pairs.get(i)._1() * weights[0] + pairs.get(i)._2() * weights[1];
            assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(got.get(i)), "element " + i);
        }
    }

    /**
     * An executor JVM killed in the middle of a task (after its partition's kernel ran, while the
     * task hands its results on): Spark runs the task again on the other executor, and the job's
     * result is the right one. Each task's arrays are its own and closed when it ends, so nothing a
     * dead or finished task left on a device can reach the retry.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE) // last: the cluster then runs on with an executor started anew
    void aTaskKilledMidwayIsRetriedAndTheResultIsRight() {
        List<Float> values = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            values.add((i % 100) * 1.5f);
        }
        List<Float> got = JpaiSpark.mapPartitions(spark.parallelize(values, 6), ElementLayout.of(Float.class), () -> AF.map((Float x) -> x + 1f)).mapPartitions(results -> {
            TaskContext task = TaskContext.get();
            List<Float> out = new ArrayList<>();
            while (results.hasNext()) {
                out.add(results.next());
                if (task.partitionId() == 3 && task.attemptNumber() == 0 && task.stageAttemptNumber() == 0 && out.size() == 2_500) {
                    Runtime.getRuntime().halt(137); // the executor dies mid-task, as a killed process does
                }
            }
            return out.iterator();
        }).collect();
        assertEquals(values.size(), got.size());
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i) + 1f, got.get(i), "element " + i);
        }
    }

    /** A DataFrame's column mapped partition by partition: the Dataset API gives the RDD API's results. */
    @Test
    void aDataFrameColumnMapsToTheSameResultsAsWithoutSpark() {
        org.apache.spark.sql.SparkSession session = org.apache.spark.sql.SparkSession.builder().getOrCreate();
        List<org.apache.spark.sql.Row> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(org.apache.spark.sql.RowFactory.create(i, i * 0.75f - 3f));
        }
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType().add("id", "int").add("spot", "float");
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> frame = session.createDataFrame(rows, schema).repartition(4);
        float rate = 1.25f;
        List<Float> got = JpaiSpark.mapColumn(frame.orderBy("id").coalesce(3), "spot", ElementLayout.of(Float.class), org.apache.spark.sql.Encoders.FLOAT(),
                        org.apache.spark.sql.Encoders.FLOAT(), () -> AF.map((Float s) -> s * rate - 0.5f)).collectAsList();
        assertEquals(rows.size(), got.size());
        for (int i = 0; i < rows.size(); i++) {
            float spot = i * 0.75f - 3f;
            assertEquals(Float.floatToRawIntBits(spot * rate - 0.5f), Float.floatToRawIntBits(got.get(i)), "row " + i);
        }
    }

    /**
     * Java's exception from inside an executor: an integer division by zero in the lambda (the
     * kernel exits, the partition runs again in Java, which throws) fails the task as the same
     * function would fail without Spark, and Spark reports Java's exception after its retries.
     */
    @Test
    void aJavaExceptionInTheLambdaFailsTheJobWithJavasMessage() {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            values.add(i == 3_333 ? 0 : i % 50 + 1);
        }
        org.apache.spark.SparkException e = org.junit.jupiter.api.Assertions.assertThrows(org.apache.spark.SparkException.class,
                        () -> JpaiSpark.mapPartitions(spark.parallelize(values, 4), ElementLayout.of(Integer.class), () -> AF.map((Integer x) -> 1000 / x)).collect());
        assertTrue(e.getMessage().contains("java.lang.ArithmeticException: / by zero"), e.getMessage());
    }

    /** A Dataset of JPAI tuples (Java serialisation as their encoder) maps to the RDD path's results. */
    @Test
    void aDatasetOfTuplesMapsToTheSameResultsAsWithoutSpark() {
        org.apache.spark.sql.SparkSession session = org.apache.spark.sql.SparkSession.builder().getOrCreate();
        List<Tuple2<Double, Long>> pairs = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            pairs.add(new Tuple2<>(i * 0.001 - 2.5, (long) i * 31 % 97));
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        org.apache.spark.sql.Encoder<Tuple2<Double, Long>> encoder = (org.apache.spark.sql.Encoder) org.apache.spark.sql.Encoders.javaSerialization(Tuple2.class);
        org.apache.spark.sql.Dataset<Tuple2<Double, Long>> dataset = session.createDataset(pairs, encoder).coalesce(3);
        List<Double> got = JpaiSpark.mapPartitions(dataset, ElementLayout.tuple(Double.class, Long.class), org.apache.spark.sql.Encoders.DOUBLE(),
                        () -> AF.map((Tuple2<Double, Long> t) -> t._1() * t._2() + 0.5)).collectAsList();
        assertEquals(pairs.size(), got.size());
        for (int i = 0; i < pairs.size(); i++) {
            double expected = pairs.get(i)._1() * pairs.get(i)._2() + 0.5;
            assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(got.get(i)), "element " + i);
        }
    }
}
