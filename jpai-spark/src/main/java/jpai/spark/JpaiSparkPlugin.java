package jpai.spark;

import java.util.Map;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Prepares each executor JVM for JPAI when it starts ({@code --conf spark.plugins=jpai.spark.JpaiSparkPlugin}):
 * starts JVMCI and Graal (half a second that the first task would otherwise wait for) and sets the
 * executor's device from the GPU Spark gave it ({@link ExecutorDevice}). Without the plugin the
 * first JPAI task of each executor does the same, and waits for it.
 */
public final class JpaiSparkPlugin implements SparkPlugin {

    @Override
    public DriverPlugin driverPlugin() {
        return null; // nothing to prepare on the driver
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new ExecutorPlugin() {
            @Override
            public void init(PluginContext context, Map<String, String> extraConf) {
                ExecutorDevice.prepareOnce(context.resources());
            }
        };
    }
}
