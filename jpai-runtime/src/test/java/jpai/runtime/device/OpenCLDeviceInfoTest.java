package jpai.runtime.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jocl.CL;
import org.junit.jupiter.api.Test;

class OpenCLDeviceInfoTest {

    @Test
    void describeIsTheOneLineSummary() {
        assertEquals("[0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA, OpenCL C 1.2, 132 CUs, 79.1 GiB, fp64)",
                TestDevices.h100(0, 0, 0).describe());
    }

    @Test
    void describeDropsTheDriversSuffixFromTheOpenCLCVersion() {
        assertEquals("[3] pthread-haswell-AMD EPYC (CPU, Portable Computing Language, OpenCL C 1.2, 16 CUs, 64.0 GiB, fp64)",
                TestDevices.poclCpu(3, 1, 0).describe());
    }

    @Test
    void labelIsTheShortFormForLists() {
        assertEquals("[0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA)", TestDevices.h100(0, 0, 0).label());
    }

    @Test
    void syntheticDevicesHaveNoHandles() {
        assertFalse(TestDevices.h100(0, 0, 0).hasHandles());
    }

    @Test
    void bytesAreFormattedInBinaryUnits() {
        assertEquals("512.0 MiB", OpenCLDeviceInfo.formatBytes(512L << 20));
        assertEquals("1.5 GiB", OpenCLDeviceInfo.formatBytes(3L << 29));
        assertEquals("1000 bytes", OpenCLDeviceInfo.formatBytes(1000));
    }

    @Test
    void negativeIndicesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TestDevices.h100(-1, 0, 0));
    }

    @Test
    void deviceTypeBitsReduceToTheMostCapableKind() {
        assertEquals(DeviceKind.CPU, DeviceKind.fromDeviceType(CL.CL_DEVICE_TYPE_CPU | CL.CL_DEVICE_TYPE_DEFAULT));
        assertEquals(DeviceKind.GPU, DeviceKind.fromDeviceType(CL.CL_DEVICE_TYPE_GPU | CL.CL_DEVICE_TYPE_DEFAULT));
        assertEquals(DeviceKind.ACCELERATOR, DeviceKind.fromDeviceType(CL.CL_DEVICE_TYPE_ACCELERATOR));
        assertEquals(DeviceKind.OTHER, DeviceKind.fromDeviceType(CL.CL_DEVICE_TYPE_CUSTOM));
    }
}
