package jpai.runtime.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class DiscoveryTest {

    @Test
    void anEmptyDiscoveryNeedsAReason() {
        assertThrows(IllegalArgumentException.class, () -> Discovery.none(" "));
        assertThrows(IllegalArgumentException.class, () -> new Discovery(List.of(), List.of(), ""));
    }

    @Test
    void aDiscoveryWithDevicesHasNoReason() {
        assertEquals("", TestDevices.cpuOnly().reason());
        assertThrows(IllegalArgumentException.class, () -> new Discovery(List.of(TestDevices.poclCpu(0, 0, 0)), List.of(), "why?"));
    }

    @Test
    void globalIndicesMustCountTheList() {
        assertThrows(IllegalArgumentException.class, () -> Discovery.found(List.of(TestDevices.poclCpu(1, 0, 0)), List.of()));
    }

    @Test
    void reasonsAreOneLine() {
        Discovery discovery = Discovery.none("driver said:\n  out of memory\n");
        assertEquals("driver said: out of memory", discovery.reason());
        assertTrue(discovery.isEmpty());
    }

    @Test
    void skippedEntriesDescribeWhereAndWhy() {
        assertEquals("platform 1 (NVIDIA CUDA): clGetDeviceIDs failed with CL_OUT_OF_RESOURCES",
                Discovery.Skipped.platform(1, "NVIDIA CUDA", "clGetDeviceIDs failed with CL_OUT_OF_RESOURCES").describe());
        assertEquals("platform 0 (PoCL) device 2: clGetDeviceInfo failed with CL_INVALID_DEVICE",
                Discovery.Skipped.device(0, 2, "PoCL", "clGetDeviceInfo failed with CL_INVALID_DEVICE").describe());
    }
}
