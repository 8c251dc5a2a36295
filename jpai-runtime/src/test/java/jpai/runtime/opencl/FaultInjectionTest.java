package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import org.jocl.CL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.FaultInjection.Fault;
import jpai.ApplyProfile;
import jpai.runtime.profile.Profiler;

/**
 * Every class of OpenCL failure, injected into the {@code AF.map} path: the apply falls back to Java
 * with the right result, says why in its profile, and leaves no device buffer behind. Each test maps
 * a lambda of its own, so the kernel is not yet built when a build fault is armed.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class FaultInjectionTest {

    private static final int N = 5000;

    private DeviceContext context;
    private long buffersBefore;

    @BeforeEach
    void start() {
        FaultInjection.clear();
        context = OpenCLTestSupport.context();
        buffersBefore = OpenCLTestSupport.deviceBuffersInUse(context);
    }

    @AfterEach
    void finish() {
        FaultInjection.clear();
        System.clearProperty("jpai.fallback");
    }

    private static float[] values() {
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            values[i] = i * 0.75f - 1000f;
        }
        return values;
    }

    /** Applies {@code f} with {@code fault} armed; checks the result, the fallback and that nothing leaked. */
    private void assertFallsBackCorrectly(Function<Float, Float> f, Fault fault, int status, int times) {
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = values();
        try (PArray<Float> in = PArray.of(values)) {
            context.bufferPool().clear(); // so that the apply must allocate
            FaultInjection.failNext(fault, status, times);
            try (PArray<Float> out = map.apply(in)) {
                ApplyProfile profile = Profiler.last();
                assertFalse(FaultInjection.isArmed(fault), "the fault fired");
                assertTrue(profile.fellBack(), "the apply fell back: " + profile);
                assertTrue(profile.fallbackReason().contains(CL.stringFor_errorCode(status)), profile.fallbackReason());
                assertEquals("Java threads", profile.device());
                float[] result = out.toFloatArray();
                for (int i = 0; i < N; i++) {
                    assertEquals(f.apply(values[i]), result[i], "element " + i);
                }
            }
            try (PArray<Float> again = map.apply(in)) {
                assertFalse(Profiler.last().fellBack(), "the next apply runs on the device again: " + Profiler.last());
                assertEquals(f.apply(values[7]), again.get(7));
            }
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context), "no device buffer leaked");
    }

    @Test
    void aBuildFailureFallsBack() {
        assertFallsBackCorrectly(x -> x * 3.0f + 0.125f, Fault.BUILD, CL.CL_BUILD_PROGRAM_FAILURE, 1);
    }

    @Test
    void anAllocationFailureIsRetriedOnceAfterFreeingThePool() {
        Function<Float, Float> f = x -> x * 5.0f - 0.5f;
        float[] values = values();
        try (PArray<Float> in = PArray.of(values)) {
            context.bufferPool().clear();
            FaultInjection.failNext(Fault.ALLOCATE);
            try (PArray<Float> out = AF.map(f).apply(in)) {
                assertFalse(FaultInjection.isArmed(Fault.ALLOCATE));
                assertFalse(Profiler.last().fellBack(), "the retry succeeded: " + Profiler.last());
                assertEquals(f.apply(values[3]), out.get(3));
            }
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context));
    }

    @Test
    void anAllocationFailureThatPersistsFallsBack() {
        assertFallsBackCorrectly(x -> x * 7.0f - 0.25f, Fault.ALLOCATE, CL.CL_MEM_OBJECT_ALLOCATION_FAILURE, 2);
    }

    @Test
    void outOfResourcesAtLaunchFallsBack() {
        assertFallsBackCorrectly(x -> x * 9.0f + 0.375f, Fault.ENQUEUE_KERNEL, CL.CL_OUT_OF_RESOURCES, 1);
    }

    @Test
    void anInvalidWorkGroupSizeFallsBack() {
        assertFallsBackCorrectly(x -> x * 11.0f + 0.625f, Fault.ENQUEUE_KERNEL, CL.CL_INVALID_WORK_GROUP_SIZE, 1);
    }

    /**
     * A reduction enqueues all its passes before one wait (a launch sequence): a failure at the
     * second pass's enqueue, after the first pass is on the device, cleans up both, falls back with
     * the right result and leaks nothing; the next apply runs on the device.
     */
    @Test
    void aFailureInTheSecondPassOfAReductionFallsBack() {
        ArrayFunction<Float, Float> sum = AF.reduce((Float a, Float b) -> a + b * 1.0f, 0f);
        // 2^23 elements: 2,048 work-groups of 256 (the host combines at most 1,024 groups' values), so two passes
        float[] values = new float[1 << 23];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i % 977) * 0.125f - 30f;
        }
        try (PArray<Float> in = PArray.of(values)) {
            float expected;
            try (PArray<Float> onDevice = sum.apply(in)) {
                assertFalse(Profiler.last().fellBack(), "the reduction runs on the device: " + Profiler.last());
                assertTrue(Profiler.last().kernelCount() >= 2, "more than one pass: " + Profiler.last());
                expected = onDevice.get(0);
            }
            // the first pass's enqueue arms a failure of the next one: the second pass's
            FaultInjection.runBeforeNext(Fault.ENQUEUE_KERNEL, () -> FaultInjection.runBeforeNext(Fault.ENQUEUE_KERNEL,
                            () -> FaultInjection.failNext(Fault.ENQUEUE_KERNEL, CL.CL_OUT_OF_RESOURCES, 1)));
            try (PArray<Float> out = sum.apply(in)) {
                ApplyProfile profile = Profiler.last();
                assertTrue(profile.fellBack(), "the reduction fell back: " + profile);
                assertTrue(profile.fallbackReason().contains("CL_OUT_OF_RESOURCES"), profile.fallbackReason());
                assertEquals(expected, out.get(0), "the same bits on Java threads (one combining order)");
            }
            assertFalse(FaultInjection.isArmed(Fault.ENQUEUE_KERNEL), "the fault fired");
            try (PArray<Float> again = sum.apply(in)) {
                assertFalse(Profiler.last().fellBack(), "the next apply runs on the device again: " + Profiler.last());
                assertEquals(expected, again.get(0));
            }
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context), "no device buffer leaked");
    }

    @Test
    void aFailedTransferFallsBack() {
        assertFallsBackCorrectly(x -> x * 13.0f - 0.875f, Fault.TRANSFER, CL.CL_OUT_OF_RESOURCES, 1);
    }

    @Test
    void aFailedLazyCopyBackIsRetried() {
        Function<Float, Float> f = x -> x * 15.0f + 2.5f;
        float[] values = values();
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = AF.map(f).apply(in)) {
            assertFalse(Profiler.last().fellBack());
            FaultInjection.failNext(Fault.TRANSFER);
            assertEquals(f.apply(values[99]), out.get(99), "the copy-back was retried");
            assertFalse(FaultInjection.isArmed(Fault.TRANSFER));
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context));
    }

    @Test
    void aLostDeviceSendsLaterAppliesToJavaWithANotice() {
        Function<Float, Float> f = x -> x * 17.0f + 1.25f;
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = values();
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        try (PArray<Float> in = PArray.of(values); PArray<Float> onDevice = map.apply(in)) {
            assertFalse(Profiler.last().fellBack());
            FaultInjection.failNext(Fault.DEVICE_LOST);
            System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
            try (PArray<Float> out = map.apply(in)) {
                assertTrue(Profiler.last().fellBack());
                assertEquals(f.apply(values[10]), out.get(10));
            } finally {
                System.setErr(err);
            }
            assertTrue(context.isLost());
            assertTrue(said.toString(StandardCharsets.UTF_8).contains("was lost"), "a notice was printed: " + said);
            assertTrue(OpenCLRuntime.choice() instanceof DeviceChoice.JavaThreads, "later applies go to Java threads");
            try (PArray<Float> later = map.apply(in)) {
                assertEquals("Java threads", Profiler.last().device());
                assertEquals(f.apply(values[20]), later.get(20));
            }
            IllegalStateException lost = assertThrows(IllegalStateException.class, () -> onDevice.get(0));
            assertTrue(lost.getMessage().contains("has been lost"), lost.getMessage());
        } finally {
            OpenCLRuntime.reset();
        }
        DeviceContext fresh = OpenCLTestSupport.context();
        assertNotSame(context, fresh, "after reset the device is opened afresh");
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = map.apply(in)) {
            assertFalse(Profiler.last().fellBack(), "the fresh context runs kernels: " + Profiler.last());
            assertEquals(f.apply(values[30]), out.get(30));
        }
    }
}
