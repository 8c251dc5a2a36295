package jpai.runtime;

import java.util.function.BinaryOperator;

import jpai.PArray;
import jpai.runtime.device.DeviceChoice;

/** Runs a compiled reduce kernel on a device and combines the work-groups' partial results on the host. */
final class DeviceReduce {

    private DeviceReduce() {
    }

    static <T> T run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, BinaryOperator<T> operator, T identity, PArray<T> input) {
        throw new IllegalStateException("reduce kernels are launched once the backend generates them");
    }
}
