package jpai.runtime.device;

import static jpai.runtime.device.TestDevices.acceleratorOnly;
import static jpai.runtime.device.TestDevices.cpuOnly;
import static jpai.runtime.device.TestDevices.device;
import static jpai.runtime.device.TestDevices.empty;
import static jpai.runtime.device.TestDevices.gpuAndCpu;
import static jpai.runtime.device.TestDevices.h100;
import static jpai.runtime.device.TestDevices.poclCpu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceSelectorTest {

    private static OpenCLDeviceInfo selectedDevice(String spec, Discovery discovery) {
        return assertInstanceOf(DeviceChoice.OpenCL.class, DeviceSelector.select(spec, discovery)).device();
    }

    private static String noMatchMessage(String spec, Discovery discovery) {
        return assertThrows(DeviceSelectionException.class, () -> DeviceSelector.select(spec, discovery)).getMessage();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "  ", "default", "DEFAULT", " Default "})
    void noSpecMeansTheDefaultRule(String spec) {
        DeviceChoice choice = DeviceSelector.select(spec, gpuAndCpu());
        assertEquals(new DeviceChoice.OpenCL(gpuAndCpu().devices().get(0), "default: first GPU"), choice);
    }

    @Test
    void defaultPrefersGpuEvenWhenItIsNotFirst() {
        Discovery cpuThenGpu = Discovery.found(List.of(poclCpu(0, 0, 0), h100(1, 1, 0)), List.of());
        assertEquals(1, selectedDevice(null, cpuThenGpu).globalIndex());
    }

    @Test
    void defaultTakesTheCpuWhenThereIsNoGpuOrAccelerator() {
        DeviceChoice choice = DeviceSelector.defaultChoice(cpuOnly());
        assertEquals(new DeviceChoice.OpenCL(cpuOnly().devices().get(0), "default: no GPU or accelerator, first CPU"), choice);
    }

    @Test
    void defaultTakesTheAcceleratorWhenThereIsNoGpu() {
        Discovery acceleratorAndCpu = Discovery.found(
                List.of(poclCpu(0, 0, 0), device(1, 1, 0, "Xilinx", "xilinx_u250", DeviceKind.ACCELERATOR)), List.of());
        DeviceChoice choice = DeviceSelector.defaultChoice(acceleratorAndCpu);
        assertEquals("default: no GPU, first accelerator", choice.why());
        assertEquals(DeviceKind.ACCELERATOR, selectedDevice("", acceleratorAndCpu).kind());
        assertEquals(DeviceKind.ACCELERATOR, selectedDevice("", acceleratorOnly()).kind());
    }

    @Test
    void defaultFallsBackToJavaThreadsWithTheDiscoveryReason() {
        DeviceChoice choice = DeviceSelector.select(null, empty());
        assertEquals(new DeviceChoice.JavaThreads("default: Java threads (no OpenCL platform: the ICD loader found no driver)"), choice);
    }

    @Test
    void defaultFallsBackToJavaThreadsWhenNoDeviceHasAPreferredKind() {
        Discovery custom = Discovery.found(List.of(device(0, 0, 0, "Custom", "dsp", DeviceKind.OTHER)), List.of());
        assertInstanceOf(DeviceChoice.JavaThreads.class, DeviceSelector.select("default", custom));
    }

    @Test
    void kindKeywordsPickTheFirstDeviceOfThatKind() {
        assertEquals(0, selectedDevice("gpu", gpuAndCpu()).globalIndex());
        assertEquals(1, selectedDevice("cpu", gpuAndCpu()).globalIndex());
        assertEquals(0, selectedDevice("accelerator", acceleratorOnly()).globalIndex());
        assertEquals("jpai.device=cpu: first CPU", DeviceSelector.select("cpu", gpuAndCpu()).why());
    }

    @ParameterizedTest
    @ValueSource(strings = {"GPU", "Gpu", " gpu "})
    void keywordsIgnoreCaseAndSpaces(String spec) {
        assertEquals(DeviceKind.GPU, selectedDevice(spec, gpuAndCpu()).kind());
    }

    @Test
    void aMissingKindIsAnErrorNotAFallback() {
        assertEquals("jpai.device=gpu matches no device; available: [0] pthread-haswell-AMD EPYC (CPU, Portable Computing Language), java",
                noMatchMessage("gpu", cpuOnly()));
        noMatchMessage("accelerator", gpuAndCpu());
        noMatchMessage("cpu", acceleratorOnly());
    }

    @Test
    void javaMeansJavaThreadsWhateverIsInstalled() {
        assertEquals(new DeviceChoice.JavaThreads("jpai.device=java: Java threads requested"), DeviceSelector.select("java", gpuAndCpu()));
        assertInstanceOf(DeviceChoice.JavaThreads.class, DeviceSelector.select("JAVA", empty()));
    }

    @Test
    void anIntegerIsAFlatIndex() {
        assertEquals(1, selectedDevice("1", gpuAndCpu()).globalIndex());
        assertEquals("jpai.device=1: device index 1", DeviceSelector.select("1", gpuAndCpu()).why());
        assertEquals(0, selectedDevice("0", gpuAndCpu()).globalIndex());
        noMatchMessage("2", gpuAndCpu());
        noMatchMessage("99999999999", gpuAndCpu());
    }

    @Test
    void platformColonDeviceNamesOneDeviceOfOnePlatform() {
        Discovery twoOnSecondPlatform = Discovery.found(List.of(h100(0, 0, 0), poclCpu(1, 1, 0), poclCpu(2, 1, 1)), List.of());
        OpenCLDeviceInfo chosen = selectedDevice("1:1", twoOnSecondPlatform);
        assertEquals(2, chosen.globalIndex());
        assertEquals("jpai.device=1:1: platform 1 device 1", DeviceSelector.select("1:1", twoOnSecondPlatform).why());
        assertEquals(0, selectedDevice("0:0", twoOnSecondPlatform).globalIndex());
        noMatchMessage("0:1", twoOnSecondPlatform);
        noMatchMessage("2:0", twoOnSecondPlatform);
    }

    @Test
    void otherTextMatchesDeviceNamesIgnoringCase() {
        assertEquals(0, selectedDevice("h100", gpuAndCpu()).globalIndex());
        assertEquals(1, selectedDevice("PTHREAD", gpuAndCpu()).globalIndex());
        assertEquals("jpai.device=H100: first device whose name contains \"H100\"", DeviceSelector.select("H100", gpuAndCpu()).why());
    }

    @Test
    void otherTextFallsBackToPlatformNameThenVendor() {
        assertEquals(0, selectedDevice("cuda", gpuAndCpu()).globalIndex());
        assertEquals(1, selectedDevice("portable computing", gpuAndCpu()).globalIndex());
        assertEquals(1, selectedDevice("pocl", gpuAndCpu()).globalIndex());
        assertEquals("jpai.device=cuda: first device whose platform name contains \"cuda\"", DeviceSelector.select("cuda", gpuAndCpu()).why());
    }

    @Test
    void aDeviceNameMatchWinsOverAnEarlierPlatformNameMatch() {
        // "nvidia" is in the first device's platform name and in the second device's name.
        Discovery discovery = Discovery.found(List.of(device(0, 0, 0, "NVIDIA CUDA", "Tesla", DeviceKind.GPU),
                device(1, 1, 0, TestDevices.POCL, "nvidia-emulator", DeviceKind.CPU)), List.of());
        assertEquals(1, selectedDevice("nvidia", discovery).globalIndex());
    }

    @Test
    void noMatchListsEveryDeviceAndJavaOnOneLine() {
        String message = noMatchMessage("foo", gpuAndCpu());
        assertEquals("jpai.device=foo matches no device; available: [0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA), "
                + "[1] pthread-haswell-AMD EPYC (CPU, Portable Computing Language), java", message);
        assertFalse(message.contains("\n"));
    }

    @Test
    void noMatchWithoutDevicesSaysWhyOnlyJavaIsAvailable() {
        assertEquals("jpai.device=gpu matches no device; available: java (no OpenCL platform: the ICD loader found no driver)",
                noMatchMessage("gpu", empty()));
    }

    @Test
    void theExceptionIsAnIllegalArgumentAndKeepsTheSpec() {
        DeviceSelectionException e = assertThrows(DeviceSelectionException.class, () -> DeviceSelector.select(" foo ", cpuOnly()));
        assertInstanceOf(IllegalArgumentException.class, e);
        assertEquals("foo", e.spec());
        assertEquals("jpai.device=foo matches no device; available: [0] pthread-haswell-AMD EPYC (CPU, Portable Computing Language), java",
                e.getMessage());
    }

    @Test
    void fromSystemPropertyReadsJpaiDevice() {
        String saved = System.getProperty(DeviceSelector.PROPERTY);
        try {
            System.setProperty(DeviceSelector.PROPERTY, "cpu");
            assertEquals(1, assertInstanceOf(DeviceChoice.OpenCL.class, DeviceSelector.fromSystemProperty(gpuAndCpu())).device().globalIndex());
            System.clearProperty(DeviceSelector.PROPERTY);
            assertEquals("default: first GPU", DeviceSelector.fromSystemProperty(gpuAndCpu()).why());
        } finally {
            if (saved == null) {
                System.clearProperty(DeviceSelector.PROPERTY);
            } else {
                System.setProperty(DeviceSelector.PROPERTY, saved);
            }
        }
    }
}
