package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.JpaiOptions;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code -Djpai.deviceTimes}: by default every launch measures its device times; {@code sampled}
 * measures a kernel's first launches and one in sixteen after them, and runs the others on queues
 * without profiling (cheaper on NVIDIA's driver). Every apply still runs on the device with Java's
 * results; only the profile's device times are left out, and the profile says so.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class DeviceTimesTest {

    @AfterEach
    void everyLaunchTimedAgain() {
        System.clearProperty(JpaiOptions.DEVICE_TIMES);
    }

    @Test
    void byDefaultEveryApplyMeasuresItsDeviceTimes() {
        System.clearProperty(JpaiOptions.DEVICE_TIMES); // as a JVM started without it
        ApplyProfile[] profiles = applyRepeatedly(AF.map((Float x) -> x * 2f + 1f), 40);
        for (int i = 0; i < profiles.length; i++) {
            assertTrue(profiles[i].deviceTimed() && profiles[i].kernelNanos() > 0, "apply " + i + ": " + profiles[i]);
        }
    }

    @Test
    void sampledDeviceTimesLeaveMostAppliesUnmeasuredAndSaySo() {
        System.setProperty(JpaiOptions.DEVICE_TIMES, "sampled");
        ApplyProfile[] profiles = applyRepeatedly(AF.map((Float x) -> x * 3f - 1f), 40);
        int timed = 0;
        for (int i = 0; i < profiles.length; i++) {
            ApplyProfile profile = profiles[i];
            if (profile.deviceTimed()) {
                timed++;
                assertTrue(profile.kernelNanos() > 0, "a measured apply has its kernel's time: " + profile);
            } else {
                assertEquals(0, profile.kernelNanos(), "an unmeasured apply reports no kernel time: " + profile);
            }
        }
        for (int i = 0; i < 8; i++) {
            assertTrue(profiles[i].deviceTimed(), "the kernel's first launches are measured: apply " + i + ": " + profiles[i]);
        }
        assertTrue(timed < profiles.length - 20, "most later applies unmeasured: " + timed + " of " + profiles.length + " measured");
        assertTrue(timed > 8, "one later launch in sixteen measured: " + timed + " of " + profiles.length);
    }

    /** A reduction's passes share one queue, chosen by its first pass: sampled too, and every result is the one combining tree's. */
    @Test
    void sampledDeviceTimesLeaveReductionsUnmeasuredToo() {
        System.setProperty(JpaiOptions.DEVICE_TIMES, "sampled");
        ArrayFunction<Float, Float> sum = AF.reduce((Float a, Float b) -> a + b, 0f);
        float[] values = new float[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i % 977) * 0.37f - 50f;
        }
        try (PArray<Float> input = PArray.of(values); PArray<Float> sequential = sum.on(jpai.Executor.SEQUENTIAL).apply(input)) {
            int expected = Float.floatToRawIntBits(sequential.get(0));
            int unmeasured = 0;
            for (int i = 0; i < 40; i++) {
                long launches = KernelLaunches.count();
                try (PArray<Float> out = sum.apply(input)) {
                    ApplyProfile profile = AF.lastProfile();
                    assertTrue(KernelLaunches.count() > launches, "apply " + i + " ran on the device: " + profile);
                    assertEquals(expected, Float.floatToRawIntBits(out.get(0)), "apply " + i);
                    unmeasured += profile.deviceTimed() ? 0 : 1;
                }
            }
            assertTrue(unmeasured > 20, "most later reductions unmeasured: " + unmeasured + " of 40");
        }
    }

    /** Applies {@code f} {@code times} times to the same input; each apply launches a kernel and gives Java's results. */
    private static ApplyProfile[] applyRepeatedly(ArrayFunction<Float, Float> f, int times) {
        float[] values = new float[4096];
        float[] expected;
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f - 100f;
        }
        try (PArray<Float> input = PArray.of(values); PArray<Float> sequential = f.on(jpai.Executor.SEQUENTIAL).apply(input)) {
            expected = sequential.toFloatArray();
            ApplyProfile[] profiles = new ApplyProfile[times];
            for (int i = 0; i < times; i++) {
                long launches = KernelLaunches.count();
                try (PArray<Float> out = f.apply(input)) {
                    profiles[i] = AF.lastProfile();
                    assertTrue(KernelLaunches.count() > launches, "apply " + i + " ran on the device: " + profiles[i]);
                    assertArrayEquals(expected, out.toFloatArray(), "apply " + i);
                }
            }
            return profiles;
        }
    }
}
