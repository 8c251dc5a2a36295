package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import jpai.runtime.opencl.KernelLaunches;

class SaxpyThroughTheAgentTest extends WithTheAgent {

    @Test
    void saxpyRunsOnTheDeviceWithJavasResult() {
        int n = 10_000;
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * 0.5f;
            y[i] = 1.0f / (i + 1);
        }
        float[] expected = y.clone();
        for (int i = 0; i < n; i++) {
            expected[i] = 2.5f * x[i] + expected[i];
        }
        long launches = KernelLaunches.count();
        LoopKernels.saxpy(2.5f, x, y);
        assertTrue(KernelLaunches.count() > launches, "the device ran");
        assertArrayEquals(expected, y);
    }
}
