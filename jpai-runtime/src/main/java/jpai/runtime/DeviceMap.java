package jpai.runtime;

import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Runs a compiled map kernel on a device. The output stays on the device until the host reads it;
 * an input already there and unchanged is not sent again.
 */
final class DeviceMap {

    /** Work-group size; work-items past the last element do nothing. */
    private static final long WORK_GROUP = 256;
    /** One enqueue covers at most this many work-items (rounded down to whole work-groups); more elements take several, with global offsets. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    /** At most 2^30 work-items per enqueue; {@code jpai.map.maxWorkItemsPerEnqueue} lowers it (tests split small maps so). */
    private static long maxWorkItemsPerEnqueue() {
        return Math.max(1, Math.min(MAX_WORK_ITEMS, Long.getLong("jpai.map.maxWorkItemsPerEnqueue", MAX_WORK_ITEMS)));
    }

    private DeviceMap() {
    }

    static void run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output) {
        long length = input.length();
        if (length == 0) {
            return;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = Math.min(WORK_GROUP, context.device().maxWorkGroupSize());
        KernelBinding binding = new KernelBinding(compiled).common(input).outputs(output);
        // One work-item per element (the map kernel has no loop).
        binding.launch().localSize(localSize).globalSize(roundUp(length, localSize)).perEnqueue(maxWorkItemsPerEnqueue() / localSize * localSize);
        LaunchResult result = context.launch(compiled.kernel(), binding.launch());
        KernelBinding.checkStatus(result);
    }

    static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }
}
