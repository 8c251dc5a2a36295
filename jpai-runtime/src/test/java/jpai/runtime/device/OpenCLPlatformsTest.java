package jpai.runtime.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Discovery against the real OpenCL installation. Where OpenCL is expected (CI installs PoCL and sets
 * {@code JPAI_EXPECT_OPENCL=1}) it must find a device; elsewhere it must at least explain why not.
 */
class OpenCLPlatformsTest {

    @Test
    void discoveryFindsDevicesOrSaysWhyNot() {
        Discovery discovery = OpenCLPlatforms.discover();
        assertTrue(!discovery.devices().isEmpty() || !discovery.reason().isBlank(), discovery::toString);
        assertSame(discovery, OpenCLPlatforms.discover(), "discovery is cached");
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void discoveryFindsADeviceWhereOpenCLIsExpected() {
        Discovery discovery = OpenCLPlatforms.discover();
        assertFalse(discovery.isEmpty(), () -> "no OpenCL device: " + discovery.reason());
        for (int i = 0; i < discovery.devices().size(); i++) {
            OpenCLDeviceInfo device = discovery.devices().get(i);
            assertEquals(i, device.globalIndex());
            assertTrue(device.hasHandles(), device::describe);
            assertFalse(device.name().isBlank(), device::describe);
            assertFalse(device.platformName().isBlank(), device::describe);
            assertTrue(device.maxComputeUnits() > 0, device::describe);
            assertTrue(device.globalMemoryBytes() > 0, device::describe);
            assertTrue(device.localMemoryBytes() > 0, device::describe);
            assertTrue(device.maxWorkGroupSize() > 0, device::describe);
            assertTrue(device.maxAllocationBytes() > 0 && device.maxAllocationBytes() <= device.globalMemoryBytes(), device::describe);
            assertTrue(device.openclCVersion().startsWith("OpenCL C "), device::describe);
            assertTrue(device.deviceVersion().startsWith("OpenCL "), device::describe);
            System.out.println("found " + device.describe());
        }
        assertTrue(DeviceSelector.defaultChoice(discovery) instanceof DeviceChoice.OpenCL, "the default rule picks a device");
    }
}
