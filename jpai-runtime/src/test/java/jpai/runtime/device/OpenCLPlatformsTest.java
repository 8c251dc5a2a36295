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

    /**
     * Discovery runs once per JVM, and its two outcomes are exclusive: devices and no reason, or no
     * device and a reason that says what is missing (the OpenCL library or its platforms). (Not
     * "devices or a reason", which any discovery satisfies.)
     */
    @Test
    void discoveryIsCachedAndItsOutcomeIsConsistent() {
        Discovery discovery = OpenCLPlatforms.discover();
        assertSame(discovery, OpenCLPlatforms.discover(), "discovery is cached");
        if (discovery.devices().isEmpty()) {
            assertTrue(discovery.reason().contains("OpenCL"), () -> "the reason names what is missing: " + discovery.reason());
        } else {
            assertEquals("", discovery.reason(), "a discovery that found devices gives no reason");
        }
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
