package jpai.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

import jpai.runtime.device.DeviceKind;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.OpenCLPlatforms;

/**
 * An executor JVM made ready for JPAI, once: JVMCI and Graal started, and its device chosen: the
 * GPU Spark gave the executor ({@code spark.executor.resource.gpu.amount}; the discovery script's
 * addresses 0, 1, ... in the order the GPUs' OpenCL platform lists them), set as {@code
 * -Djpai.device} before JPAI chooses a device. The device is left alone when the executor's options
 * name one already, and when Spark gave no GPU: JPAI then chooses as anywhere else (a GPU if there is
 * one, else an OpenCL CPU device such as PoCL, else Java threads, which {@code -Djpai.explain=true}
 * says). Done by {@link JpaiSparkPlugin} when the executor starts, else by its first JPAI task.
 *
 * <p>Thread-safe: the first caller decides, under this class's lock.
 */
final class ExecutorDevice {

    private static boolean decided;
    /** What the preparation did with the executor's device, for explain and tests. */
    private static volatile String decision = "not prepared yet";

    private ExecutorDevice() {
    }

    /** What {@link #prepareOnce} did with this executor's device, in words. */
    static String decision() {
        return decision;
    }

    /** Prepares this JVM from the running task's resources, unless {@link JpaiSparkPlugin} did at the executor's start. */
    static void chooseOnce() {
        TaskContext task = TaskContext.get();
        prepareOnce(task == null ? null : task.resourcesJMap());
    }

    /**
     * Once per JVM: starts JVMCI and Graal (half a second the first apply would otherwise spend),
     * then sets the executor's device from Spark's resources for it.
     */
    static synchronized void prepareOnce(Map<String, ResourceInformation> resources) {
        if (decided) {
            return;
        }
        decided = true;
        try {
            jpai.compiler.GraalAccess.get();
        } catch (RuntimeException | LinkageError e) {
            // a JVM without JPAI's flags: the first apply runs on Java threads and says why (-Djpai.explain=true)
        }
        if (System.getProperty(DeviceSelector.PROPERTY) != null) {
            decision = "-Djpai.device=" + System.getProperty(DeviceSelector.PROPERTY) + " given: left alone";
            return;
        }
        ResourceInformation gpus = resources == null ? null : resources.get("gpu");
        if (gpus == null || gpus.addresses().length == 0) {
            decision = "no GPU from Spark: JPAI chooses";
            return;
        }
        String address = gpus.addresses()[0];
        List<OpenCLDeviceInfo> listed = new ArrayList<>();
        for (OpenCLDeviceInfo device : OpenCLPlatforms.discover().devices()) {
            if (device.kind() == DeviceKind.GPU) {
                listed.add(device);
            }
        }
        int index;
        try {
            index = Integer.parseInt(address.strip());
        } catch (NumberFormatException e) {
            index = -1;
        }
        if (index < 0 || index >= listed.size()) {
            decision = "GPU " + address + " from Spark, " + listed.size() + " listed by OpenCL: JPAI chooses";
            // not fatal: the executor still runs its tasks, on the device JPAI chooses itself
            jpai.runtime.Explain.notice("Spark gave this executor the GPU \"" + address + "\", but OpenCL lists " + listed.size() + " GPU(s) here, numbered from 0: JPAI chooses "
                            + "this executor's device itself; give Spark bin/jpai-spark-gpus as the discovery script (README, \"JPAI in Spark\")");
            return;
        }
        System.setProperty(DeviceSelector.PROPERTY, Integer.toString(listed.get(index).globalIndex()));
        decision = "GPU " + address + " from Spark: -Djpai.device=" + listed.get(index).globalIndex();
    }
}
