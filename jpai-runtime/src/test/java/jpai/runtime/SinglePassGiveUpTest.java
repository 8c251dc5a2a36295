package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * A single-pass scan or filter whose work-groups give up waiting for earlier ones (a device that
 * does not run started work-groups while later ones wait; forced here with
 * {@code -Djpai.test.spinLimit=-1}, every wait giving up at once) ends instead of hanging, gives
 * Java's result through the several-pass kernels, and leaves that device off the single pass.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class SinglePassGiveUpTest {

    @AfterEach
    void restore() {
        System.clearProperty("jpai.test.spinLimit");
        System.clearProperty("jpai.fallback");
        SinglePass.forgetGiveUps();
    }

    @Test
    void aScanAndAFilterThatGiveUpRunInSeveralPassesWithJavasResults() {
        DeviceChoice.OpenCL device = (DeviceChoice.OpenCL) OpenCLRuntime.choice();
        int n = 100_003; // many work-groups: every group after the first waits for an earlier one
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i % 1000) * 0.001f - 0.25f;
        }
        ArrayFunction<Float, Float> scan = AF.scan((Float a, Float b) -> a + b, 0f).on(Executor.ACCELERATOR);
        ArrayFunction<Float, Float> filter = AF.filter((Float x) -> x > 0.5f).on(Executor.ACCELERATOR);
        try (PArray<Float> input = PArray.of(values); PArray<Float> javaScan = scan.on(Executor.SEQUENTIAL).apply(input);
                        PArray<Float> javaFilter = filter.on(Executor.SEQUENTIAL).apply(input)) {
            System.setProperty("jpai.fallback", "error"); // the several passes are the device's too: no fallback to Java
            System.setProperty("jpai.test.spinLimit", "-1");
            assertTrue(SinglePass.allowed(device, "jpai.scan.singlePass"), "the device runs scans in one pass before");
            long launches = KernelLaunches.count();
            try (PArray<Float> out = scan.apply(input)) {
                assertArrayEquals(javaScan.toFloatArray(), out.toFloatArray(), "the scan's bits");
            }
            // the single pass (clear and scan), then the reduce-then-scan's passes
            assertTrue(KernelLaunches.count() - launches > 2, "the scan ran again in several passes: " + (KernelLaunches.count() - launches) + " launches");
            assertTrue(SinglePass.gaveUpOn(device) && !SinglePass.allowed(device, "jpai.filter.singlePass"), "the device is off the single pass");
            List<Float> kept = new ArrayList<>();
            try (PArray<Float> out = filter.apply(input)) {
                for (float x : out.toFloatArray()) {
                    kept.add(x);
                }
            }
            List<Float> expected = new ArrayList<>();
            for (float x : javaFilter.toFloatArray()) {
                expected.add(x);
            }
            assertEquals(expected, kept, "the filter's elements, through the flags, count and scatter kernels");

            SinglePass.forgetGiveUps(); // the filter's own single pass gives up too
            launches = KernelLaunches.count();
            try (PArray<Float> out = filter.apply(input)) {
                assertEquals(expected.size(), out.length(), "the filter's length after giving up");
                assertArrayEquals(javaFilter.toFloatArray(), out.toFloatArray(), "the filter's elements after giving up");
            }
            assertEquals(2 + 4, KernelLaunches.count() - launches, "the single pass (clear and filter), then the predicate's map, count, offsets and scatter");
            assertFalse(SinglePass.allowed(device, "jpai.scan.singlePass"), "off the single pass after the filter gave up");
        }
    }
}
