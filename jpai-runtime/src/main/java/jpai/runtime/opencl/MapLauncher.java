package jpai.runtime.opencl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.PArray;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;

/**
 * Launches a generated map kernel: binds each parameter by its role (input components are read,
 * the output component is written, the length is a {@code long}) and runs one work-item per element,
 * rounded up to whole work-groups. Inputs already on the device are not sent again; the output stays
 * on the device until the host reads it.
 *
 * <p>Stateless and thread-safe (the context it launches on is).
 */
public final class MapLauncher {

    /** Work-group size; the kernel's own bounds check covers the rounding up. */
    private static final long WORK_GROUP = 256;
    /** One launch covers at most this many work-items; the kernel's grid-stride loop does the rest. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    private MapLauncher() {
    }

    public static LaunchResult run(DeviceContext device, KernelSource source, List<PArray<?>> inputs, PArray<?> output) {
        long length = output.length();
        KernelLaunch launch = new KernelLaunch();
        int input = 0;
        for (KernelParameter parameter : source.parameters()) {
            switch (parameter.role()) {
                case INPUT_BUFFER -> launch.readBuffer(parameter.index(), inputs.get(input++).buffer(0));
                case OUTPUT_BUFFER -> launch.writeBuffer(parameter.index(), output.buffer(0));
                case LENGTH -> launch.scalar(parameter.index(), JavaKind.Long, length);
                default -> throw new IllegalStateException("a map kernel has no parameter of role " + parameter.role());
            }
        }
        long localSize = Math.min(WORK_GROUP, device.device().maxWorkGroupSize());
        long workItems = length == 0 ? 0 : roundUp(Math.min(length, MAX_WORK_ITEMS), localSize);
        launch.globalSize(workItems).localSize(localSize);
        return device.launch(source, launch);
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }
}
