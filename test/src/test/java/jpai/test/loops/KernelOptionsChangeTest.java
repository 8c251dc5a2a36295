package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.Accelerate;
import jpai.ApplyProfile;
import jpai.Parallel;
import jpai.runtime.opencl.KernelLaunches;

/**
 * An accelerated method's kernel follows the options that shape kernels, as an {@code AF} function's
 * does: compiled once while they stay, and again after one changes ({@code -Djpai.fastmath} here),
 * with Java's results each time.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class KernelOptionsChangeTest extends WithTheAgent {

    @Accelerate
    static void scaleAndShift(float[] x, float[] y) {
        for (@Parallel int i = 0; i < y.length; i++) {
            y[i] = x[i] * 4f + 1f; // exact in float whatever the options: the same bits in both modes
        }
    }

    /** One call: its profile, after checking that it ran on the device with Java's results. */
    private static ApplyProfile call(float[] x, float[] expected) {
        float[] y = new float[x.length];
        long launches = KernelLaunches.count();
        scaleAndShift(x, y);
        assertTrue(KernelLaunches.count() > launches, "the device ran: " + AF.lastProfile());
        assertArrayEquals(expected, y);
        return AF.lastProfile();
    }

    @Test
    void aChangedOptionCompilesTheLoopAgain() {
        int n = 4096;
        float[] x = new float[n];
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i - 2048;
            expected[i] = x[i] * 4f + 1f;
        }
        String previous = System.getProperty("jpai.fastmath");
        try {
            System.clearProperty("jpai.fastmath");
            call(x, expected);
            assertEquals(0, call(x, expected).graalNanos(), "the same options: no compilation");
            System.setProperty("jpai.fastmath", "true");
            assertTrue(call(x, expected).graalNanos() > 0, "fast math: compiled again");
            assertEquals(0, call(x, expected).graalNanos(), "then kept");
            System.clearProperty("jpai.fastmath");
            assertTrue(call(x, expected).graalNanos() > 0, "exact again: compiled again");
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.fastmath");
            } else {
                System.setProperty("jpai.fastmath", previous);
            }
        }
    }
}
