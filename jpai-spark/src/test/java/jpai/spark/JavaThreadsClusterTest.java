package jpai.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jpai.AF;

/** Executors without a device (here told so, -Djpai.device=java): the partitions run on Java threads, with the same results, and say where they ran. */
@Timeout(300)
class JavaThreadsClusterTest {

    @Test
    void executorsWithoutADeviceMapOnJavaThreadsWithTheSameResults() throws Exception {
        JavaSparkContext spark = LoopbackCluster.start("JavaThreadsClusterTest", 1, "-Djpai.device=java");
        try {
            List<Integer> values = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                values.add(i * 7 - 3_000);
            }
            List<String> where = JpaiSpark.mapPartitions(spark.parallelize(values, 3), ElementLayout.of(Integer.class), () -> AF.map((Integer x) -> x * x - 1))
                            .mapPartitions(results -> {
                                List<Integer> out = new ArrayList<>();
                                results.forEachRemaining(out::add);
                                PartitionTimes times = JpaiSpark.lastPartitionTimes();
                                return List.of(times.device() + "|" + out).iterator();
                            }).collect();
            List<Integer> got = new ArrayList<>();
            for (String partition : where) {
                assertEquals("Java threads", partition.substring(0, partition.indexOf('|')), partition.substring(0, 60));
                String list = partition.substring(partition.indexOf('|') + 2, partition.length() - 1);
                for (String v : list.split(", ")) {
                    got.add(Integer.parseInt(v));
                }
            }
            assertEquals(values.size(), got.size());
            for (int i = 0; i < values.size(); i++) {
                assertEquals(values.get(i) * values.get(i) - 1, got.get(i), "element " + i);
            }
        } finally {
            spark.stop();
        }
    }
}
