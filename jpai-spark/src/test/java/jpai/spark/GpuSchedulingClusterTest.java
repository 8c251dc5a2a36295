package jpai.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import jpai.AF;

/**
 * Spark's GPU scheduling reaches each executor's JPAI: a Worker offering two "GPUs" (a discovery
 * script naming addresses 0 and 1), two executors of one GPU each. This host's OpenCL lists no GPU
 * (PoCL), so each executor says it cannot map its address and lets JPAI choose (its tasks then run
 * on PoCL, with Java's results); on a GPU host the same addresses pick the GPUs in OpenCL's order.
 */
@Timeout(300)
class GpuSchedulingClusterTest {

    @Test
    void eachExecutorGetsItsOwnGpuAddressFromSpark() throws Exception {
        Path script = Files.createTempFile("jpai-gpus", ".sh", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.writeString(script, "#!/bin/sh\necho '{\"name\": \"gpu\", \"addresses\": [\"0\", \"1\"]}'\n");
        JavaSparkContext spark = LoopbackCluster.start("GpuSchedulingClusterTest", 2, "", conf -> conf
                        .set("spark.worker.resource.gpu.amount", "2")
                        .set("spark.worker.resource.gpu.discoveryScript", script.toString())
                        .set("spark.executor.resource.gpu.amount", "1")
                        .set("spark.task.resource.gpu.amount", "1"));
        try {
            List<Float> values = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                values.add(i * 0.125f);
            }
            List<String> reports = JpaiSpark.mapPartitions(spark.parallelize(values, 6), ElementLayout.of(Float.class), () -> AF.map((Float x) -> x * 3f)).mapPartitions(results -> {
                float first = results.next();
                while (results.hasNext()) {
                    results.next();
                }
                return List.of(ProcessHandle.current().pid() + "|" + ExecutorDevice.decision() + "|" + first).iterator();
            }).collect();
            Set<String> decisions = new TreeSet<>();
            for (String report : reports) {
                decisions.add(report.substring(0, report.lastIndexOf('|')));
            }
            assertEquals(2, decisions.size(), "two executors, one decision each: " + reports);
            Set<String> addresses = new TreeSet<>();
            for (String decision : decisions) {
                assertTrue(decision.contains(" from Spark"), decision);
                addresses.add(decision.replaceAll(".*\\|GPU (\\d+) from Spark.*", "$1"));
            }
            assertEquals(Set.of("0", "1"), addresses, "each executor its own GPU: " + decisions);
        } finally {
            spark.stop();
        }
    }
}
