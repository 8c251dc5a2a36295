package jpai.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A standalone cluster on this machine for tests: Spark's {@code local-cluster[1,N,...]} master
 * starts a Master and a Worker of N cores in this JVM, and the Worker N executor JVMs of one core. With
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
        return start(name, executors, "");
    }

    /** {@link #start(String, int)} with {@code executorOptions} added to the executors' JVM options. */
    static JavaSparkContext start(String name, int executors, String executorOptions) throws IOException {
        return start(name, executors, executorOptions, conf -> conf);
    }

    /** {@link #start(String, int, String)} with more configuration by {@code configure}. */
    static JavaSparkContext start(String name, int executors, String executorOptions, java.util.function.UnaryOperator<SparkConf> configure) throws IOException {
        Path home = Files.createTempDirectory("jpai-spark-home");
        Files.createDirectories(home.resolve("jars"));
        Files.createDirectories(home.resolve("launcher/target/scala-2.13")); // how Spark's launcher tells its Scala version in a build tree
        System.setProperty("spark.testing", "true");
        System.setProperty("spark.test.home", home.toString());
        String argfile = System.getProperty("jpai.argfile");
        SparkConf conf = new SparkConf()
                        .setMaster("local-cluster[1," + executors + "," + 1024 * executors + "]") // one Worker with a core per executor
                        .set("spark.executor.cores", "1")
                        .set("spark.executor.memory", "1g")
                        .setAppName(name)
                        .set("spark.executor.extraJavaOptions", "@" + argfile + " -XX:-OmitStackTraceInFastThrow " + executorOptions)
                        .set("spark.plugins", JpaiSparkPlugin.class.getName())
                        // HotSpot's signal chaining, or an OpenCL driver's SIGFPE handler makes integer division by zero give a wrong value
                        .set("spark.executorEnv.LD_PRELOAD", System.getProperty("java.home") + "/lib/libjsig.so")
                        .set("spark.ui.enabled", "false")
                        .set("spark.driver.host", "127.0.0.1")
                        .set("spark.driver.bindAddress", "127.0.0.1");
        JavaSparkContext spark = new JavaSparkContext(configure.apply(conf));
        awaitExecutors(spark, executors);
        return spark;
    }

    /** Waits (at most a minute) until {@code executors} executor JVMs have registered with the driver. */
    static void awaitExecutors(JavaSparkContext spark, int executors) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        // the driver is listed too
        while (spark.statusTracker().getExecutorInfos().length < executors + 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + (spark.statusTracker().getExecutorInfos().length - 1) + " of " + executors + " executors registered within a minute");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
