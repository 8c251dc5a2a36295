package jpai.runtime.device;

import java.util.List;

/**
 * Synthetic devices and discoveries for tests: no driver, no JOCL handles, just the data that
 * selection and messages look at.
 */
public final class TestDevices {

    public static final String NVIDIA = "NVIDIA CUDA";
    public static final String POCL = "Portable Computing Language";
    public static final long H100_MEMORY = 84_942_979_072L;

    private TestDevices() {
    }

    public static OpenCLDeviceInfo device(int globalIndex, int platformIndex, int deviceIndex, String platformName, String name,
            DeviceKind kind) {
        boolean pocl = platformName.equals(POCL);
        return new OpenCLDeviceInfo(platformIndex, deviceIndex, globalIndex, platformName,
                pocl ? "The pocl project" : "NVIDIA Corporation", "OpenCL 3.0", name, pocl ? "AuthenticAMD" : "NVIDIA Corporation",
                kind, pocl ? 16 : 132, pocl ? 64L << 30 : H100_MEMORY, pocl ? 512L << 10 : 48L << 10, pocl ? 4096 : 1024,
                pocl ? 16L << 30 : H100_MEMORY / 4, "OpenCL 3.0", pocl ? "OpenCL C 1.2 PoCL" : "OpenCL C 1.2 ", "580.0",
                FloatingPointSupport.JAVA_FLOAT, FloatingPointSupport.JAVA_DOUBLE, null, null);
    }

    public static OpenCLDeviceInfo h100(int globalIndex, int platformIndex, int deviceIndex) {
        return device(globalIndex, platformIndex, deviceIndex, NVIDIA, "NVIDIA H100 80GB HBM3", DeviceKind.GPU);
    }

    public static OpenCLDeviceInfo poclCpu(int globalIndex, int platformIndex, int deviceIndex) {
        return device(globalIndex, platformIndex, deviceIndex, POCL, "pthread-haswell-AMD EPYC", DeviceKind.CPU);
    }

    /** The GPU machine: NVIDIA's platform first, PoCL second. */
    public static Discovery gpuAndCpu() {
        return Discovery.found(List.of(h100(0, 0, 0), poclCpu(1, 1, 0)), List.of());
    }

    public static Discovery cpuOnly() {
        return Discovery.found(List.of(poclCpu(0, 0, 0)), List.of());
    }

    public static Discovery acceleratorOnly() {
        return Discovery.found(List.of(device(0, 0, 0, "Xilinx", "xilinx_u250", DeviceKind.ACCELERATOR)), List.of());
    }

    public static Discovery empty() {
        return Discovery.none("no OpenCL platform: the ICD loader found no driver");
    }

    /** {@code device} with other floating-point capabilities ({@code CL_DEVICE_SINGLE/DOUBLE_FP_CONFIG}). */
    public static OpenCLDeviceInfo withFpConfig(OpenCLDeviceInfo d, long singleFpConfig, long doubleFpConfig) {
        return new OpenCLDeviceInfo(d.platformIndex(), d.deviceIndex(), d.globalIndex(), d.platformName(), d.platformVendor(), d.platformVersion(), d.name(), d.vendor(),
                        d.kind(), d.maxComputeUnits(), d.globalMemoryBytes(), d.localMemoryBytes(), d.maxWorkGroupSize(), d.maxAllocationBytes(), d.deviceVersion(),
                        d.openclCVersion(), d.driverVersion(), singleFpConfig, doubleFpConfig, d.platformId(), d.deviceId());
    }
}
