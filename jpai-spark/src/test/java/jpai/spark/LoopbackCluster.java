package jpai.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A standalone cluster on this machine for tests: Spark's {@code local-cluster[N,1,1024]} master
 * starts a Master and N Workers in this JVM, each Worker an executor JVM of one core. With
 * {@code spark.testing} the executors get this JVM's class path; {@code spark.test.home} stands for
 * SPARK_HOME (empty {@code jars} and {@code launcher/target/scala-2.13} folders: the class path
 * already holds Spark, and the launcher reads its Scala version from the folder's name). The executors get
 * JPAI's JVM flags (the build's argfile) through {@code spark.executor.extraJavaOptions}, as the
 * README tells users to do.
 */
final class LoopbackCluster {

    private LoopbackCluster() {
    }

    static JavaSparkContext start(String name, int executors) throws IOException {
        Path home = Files.createTempDirectory("jpai-spark-home");
        Files.createDirectories(home.resolve("jars"));
        Files.createDirectories(home.resolve("launcher/target/scala-2.13")); // how Spark's launcher tells its Scala version in a build tree
        System.setProperty("spark.testing", "true");
        System.setProperty("spark.test.home", home.toString());
        String argfile = System.getProperty("jpai.argfile");
        SparkConf conf = new SparkConf()
                        .setMaster("local-cluster[" + executors + ",1,1024]")
                        .setAppName(name)
                        .set("spark.executor.extraJavaOptions", "@" + argfile + " -XX:-OmitStackTraceInFastThrow")
                        .set("spark.ui.enabled", "false")
                        .set("spark.driver.host", "127.0.0.1")
                        .set("spark.driver.bindAddress", "127.0.0.1");
        return new JavaSparkContext(conf);
    }
}
