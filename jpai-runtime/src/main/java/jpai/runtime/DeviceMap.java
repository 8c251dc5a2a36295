package jpai.runtime;

import java.util.List;

import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.MapLauncher;
import jpai.runtime.opencl.OpenCLRuntime;

/** Runs a compiled map kernel on a device: binds the arrays to the kernel's parameters and launches it. */
final class DeviceMap {

    private DeviceMap() {
    }

    static void run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output) {
        MapLauncher.run(OpenCLRuntime.context(device), compiled.kernel(), List.of(input), output);
    }
}
