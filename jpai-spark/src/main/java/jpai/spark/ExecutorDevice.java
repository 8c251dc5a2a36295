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
 * The device of this executor JVM: the GPU Spark gave its tasks ({@code
 * spark.executor.resource.gpu.amount}, the addresses of the discovery script: 0, 1, ... in the
 * order the GPUs' OpenCL platform lists them), set as {@code -Djpai.device} before JPAI chooses a
 * device, on the first task. Left alone when the executor's options name a device already, and when
 * Spark gave no GPU: JPAI then chooses as anywhere else (a GPU if there is one, else an OpenCL CPU
 * device such as PoCL, else Java threads, which {@code -Djpai.explain=true} says).
 *
 * <p>Thread-safe: the first task of the JVM decides, under this class's lock.
 */
final class ExecutorDevice {

    private static boolean decided;

    private ExecutorDevice() {
    }

    /** Sets the executor's device from the running task's resources, once per JVM. */
    static synchronized void chooseOnce() {
        if (decided) {
            return;
        }
        decided = true;
        if (System.getProperty(DeviceSelector.PROPERTY) != null) {
            return;
        }
        TaskContext task = TaskContext.get();
        if (task == null) {
            return;
        }
        Map<String, ResourceInformation> resources = task.resourcesJMap();
        ResourceInformation gpus = resources == null ? null : resources.get("gpu");
        if (gpus == null || gpus.addresses().length == 0) {
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
            throw new IllegalStateException("Spark gave this executor the GPU \"" + address + "\": JPAI expects the discovery script to name GPUs 0, 1, ... (see the README, \"JPAI in Spark\")", e);
        }
        if (index < 0 || index >= listed.size()) {
            throw new IllegalStateException("Spark gave this executor GPU " + index + ", but OpenCL lists " + listed.size() + " GPU(s) here");
        }
        System.setProperty(DeviceSelector.PROPERTY, Integer.toString(listed.get(index).globalIndex()));
    }
}
