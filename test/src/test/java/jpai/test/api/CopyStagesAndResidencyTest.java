package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * The explicit data stages and the residency they rely on, counted through the profiler: a
 * 3-stage pipeline sends its input once and keeps its intermediates on the device; copyToDevice
 * moves data ahead of time; copyToHost brings results back at once.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class CopyStagesAndResidencyTest {

    /**
     * The status ints a kernel's launch zeroes and reads back: none here, as x + 1f, x * 2f and x - 3f
     * cannot throw, so their kernels never write any (a lambda with an exception path has two, 8 bytes).
     */
    private static final long STATUS_BYTES = 0;
    private static final int SIZE = 200_000;

    @Test
    void aThreeStagePipelineSendsItsInputOnceAndKeepsIntermediatesOnTheDevice() {
        float[] values = new float[SIZE];
        for (int i = 0; i < SIZE; i++) {
            values[i] = i * 0.5f;
        }
        ArrayFunction<Float, Float> pipeline = AF.map((Float x) -> x + 1f).andThen(AF.map((Float x) -> x * 2f)).andThen(AF.map((Float x) -> x - 3f));
        // unfused, as -Djpai.fusion=false runs it: three kernels and two intermediates, which stay on the device
        System.setProperty("jpai.fusion", "false");
        try (PArray<Float> input = PArray.of(values)) {
            PArray<Float> result = ExecutorCase.apply(pipeline, Executor.ACCELERATOR, input);
            ApplyProfile profile = AF.lastProfile();
            assertEquals(3, profile.kernelCount(), profile.toString());
            // Only a launch that needs a new (zeroed) status buffer sends its 8 bytes; zeroed ones are reused.
            assertTrue(profile.hostToDeviceBytes() >= SIZE * 4L && profile.hostToDeviceBytes() <= SIZE * 4L + 3 * STATUS_BYTES, "the input went to the device once: " + profile);
            // The first apply reads element 0 of each intermediate (runtime type analysis, once per function), nothing more.
            assertEquals(3 * STATUS_BYTES + 2 * 4, profile.deviceToHostBytes(), "no intermediate and not yet the result came back: " + profile);
            result.close();
            result = ExecutorCase.apply(pipeline, Executor.ACCELERATOR, input);
            profile = AF.lastProfile();
            assertEquals(0, profile.hostToDeviceBytes(), "the unchanged input is not sent again: " + profile);
            assertEquals(3 * STATUS_BYTES, profile.deviceToHostBytes(), "nothing comes back before the host reads: " + profile);
            float[] expected = new float[SIZE];
            for (int i = 0; i < SIZE; i++) {
                expected[i] = (values[i] + 1f) * 2f - 3f;
            }
            assertArrayEquals(expected, result.toFloatArray(), "the result comes back on the first host read");
            result.close();
        } finally {
            System.clearProperty("jpai.fusion");
        }
    }

    @Test
    void aFusedThreeStagePipelineSendsItsInputOnceAndRunsOneKernel() {
        float[] values = new float[SIZE];
        for (int i = 0; i < SIZE; i++) {
            values[i] = i * 0.25f;
        }
        ArrayFunction<Float, Float> pipeline = AF.map((Float x) -> x + 1f).andThen(AF.map((Float x) -> x * 2f)).andThen(AF.map((Float x) -> x - 3f));
        try (PArray<Float> input = PArray.of(values)) {
            PArray<Float> result = ExecutorCase.apply(pipeline, Executor.ACCELERATOR, input);
            ApplyProfile profile = AF.lastProfile();
            assertEquals(1, profile.kernelCount(), profile.toString());
            assertTrue(profile.hostToDeviceBytes() >= SIZE * 4L && profile.hostToDeviceBytes() <= SIZE * 4L + STATUS_BYTES, "the input went to the device once: " + profile);
            // the stages' types come from element 0 run through them in Java on the host: only the status comes back
            assertEquals(STATUS_BYTES, profile.deviceToHostBytes(), "no intermediate and not yet the result came back: " + profile);
            result.close();
            result = ExecutorCase.apply(pipeline, Executor.ACCELERATOR, input);
            profile = AF.lastProfile();
            assertEquals(0, profile.hostToDeviceBytes(), "the unchanged input is not sent again: " + profile);
            assertEquals(STATUS_BYTES, profile.deviceToHostBytes(), "nothing comes back before the host reads: " + profile);
            float[] expected = new float[SIZE];
            for (int i = 0; i < SIZE; i++) {
                expected[i] = (values[i] + 1f) * 2f - 3f;
            }
            assertArrayEquals(expected, result.toFloatArray(), "the result comes back on the first host read");
            result.close();
        }
    }

    @Test
    void copyToDeviceMovesTheDataAheadAndLaterMapsFindItThere() {
        try (PArray<Integer> input = PArray.of(new int[SIZE])) {
            for (int i = 0; i < SIZE; i++) {
                input.put(i, i);
            }
            try (PArray<Integer> onDevice = AF.<Integer>copyToDevice().apply(input)) {
                assertTrue(AF.lastProfile().hostToDeviceBytes() >= SIZE * 4L && AF.lastProfile().hostToDeviceBytes() <= SIZE * 4L + STATUS_BYTES, AF.lastProfile().toString());
                try (PArray<Integer> squares = ExecutorCase.apply(AF.map((Integer x) -> x * x), Executor.ACCELERATOR, onDevice)) {
                    assertTrue(AF.lastProfile().hostToDeviceBytes() <= STATUS_BYTES, "the input was on the device already: " + AF.lastProfile());
                    try (PArray<Integer> onHost = AF.<Integer>copyToHost().apply(squares)) {
                        assertTrue(AF.lastProfile().deviceToHostBytes() >= SIZE * 4L, AF.lastProfile().toString());
                        assertEquals(99 * 99, onHost.get(99));
                    }
                }
            }
            input.put(5, -1); // a host write: the next kernel sends the array again
            try (PArray<Integer> again = ExecutorCase.apply(AF.map((Integer x) -> x + 1), Executor.ACCELERATOR, input)) {
                assertTrue(AF.lastProfile().hostToDeviceBytes() >= SIZE * 4L && AF.lastProfile().hostToDeviceBytes() <= SIZE * 4L + STATUS_BYTES, AF.lastProfile().toString());
                assertEquals(0, again.get(5));
            }
        }
    }
}
