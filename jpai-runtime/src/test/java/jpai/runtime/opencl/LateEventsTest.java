package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * Events that report their commands late, as NVIDIA's driver does while other queues' kernels run
 * ({@link QueueFinish}), simulated on any device ({@link FaultInjection#reportEventsLate}): every
 * wait still ends, because the launch's queue is finished on another thread; the results are
 * Java's; the profile says the apply has no device times instead of failing to read them; and the
 * next apply with punctual events has its times again. Before the queue finish, a wait polled such
 * an event until it completed, forever under this simulation.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class LateEventsTest {

    private static final Duration NEVER_HANGS = Duration.ofSeconds(60);

    private DeviceContext context;
    private long buffersBefore;

    @BeforeEach
    void start() {
        FaultInjection.clear();
        System.setProperty("jpai.fallback", "error"); // a wait that failed must not hide behind a Java run
        context = OpenCLTestSupport.context();
        buffersBefore = OpenCLTestSupport.deviceBuffersInUse(context);
    }

    @AfterEach
    void finish() {
        FaultInjection.clear();
        System.clearProperty("jpai.fallback");
    }

    private static float[] values(int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i % 1013) * 0.375f - 170f;
        }
        return values;
    }

    private static void assertOnDeviceWithoutTimes(ApplyProfile profile) {
        assertFalse(profile.fellBack(), "ran on the device: " + profile);
        assertTrue(profile.kernelCount() >= 1, "launched a kernel: " + profile);
        assertFalse(profile.deviceTimed(), "no device times from late events: " + profile);
        assertEquals(0, profile.kernelNanos(), "no kernel time from late events: " + profile);
    }

    @Test
    void aMapEndsWhenItsQueueIsFinished() {
        Function<Float, Float> f = x -> x * 1.5f - 0.25f;
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = values(100_000);
        try (PArray<Float> in = PArray.of(values)) {
            map.apply(in).close(); // built before the events turn late
            FaultInjection.reportEventsLate(true);
            PrintStream err = System.err;
            ByteArrayOutputStream said = new ByteArrayOutputStream();
            System.setProperty("jpai.explain", "true");
            System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
            try {
                assertTimeoutPreemptively(NEVER_HANGS, () -> {
                    for (int round = 0; round < 3; round++) {
                        try (PArray<Float> out = map.apply(in)) {
                            assertOnDeviceWithoutTimes(Profiler.last());
                            float[] result = out.toFloatArray();
                            for (int i = 0; i < values.length; i++) {
                                assertEquals(f.apply(values[i]), result[i], "element " + i);
                            }
                        }
                    }
                });
            } finally {
                System.setErr(err);
                System.clearProperty("jpai.explain");
            }
            String explained = said.toString(StandardCharsets.UTF_8);
            assertTrue(explained.contains(context.device().name() + " a launch's events had not said its commands were done") && explained.contains("deviceTimed() is false"),
                    "explain says why the applies have no device times: " + explained);
            FaultInjection.reportEventsLate(false);
            try (PArray<Float> out = map.apply(in)) {
                ApplyProfile profile = Profiler.last();
                assertTrue(profile.deviceTimed() && profile.kernelNanos() > 0, "punctual events time the kernel again: " + profile);
            }
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context), "no device buffer leaked");
    }

    /** A reduction of 2^23 elements: a sequence of passes on one queue, waited for once each, and a host combination. */
    @Test
    void aReductionsSequenceEndsWhenItsQueueIsFinished() {
        BinaryOperator<Float> plus = (a, b) -> a + b * 1.0f;
        ArrayFunction<Float, Float> sum = AF.reduce(plus, 0f);
        float[] values = values(1 << 23);
        try (PArray<Float> in = PArray.of(values)) {
            float punctual;
            try (PArray<Float> out = sum.apply(in)) {
                assertTrue(Profiler.last().kernelCount() >= 2, "more than one pass: " + Profiler.last());
                punctual = out.get(0);
            }
            FaultInjection.reportEventsLate(true);
            assertTimeoutPreemptively(NEVER_HANGS, () -> {
                try (PArray<Float> out = sum.apply(in)) {
                    assertOnDeviceWithoutTimes(Profiler.last());
                    assertEquals(Float.floatToRawIntBits(punctual), Float.floatToRawIntBits(out.get(0)), "the same bits as with punctual events");
                }
            });
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context), "no device buffer leaked");
    }

    /** A result kept on the device, then read (a blocking copy whose event is late), and an input sent by {@code AF.copyToDevice()} (a finished queue). */
    @Test
    void copiesToAndFromTheDeviceEndWithLateEvents() {
        Function<Float, Float> f = x -> x * x + 2.0f;
        ArrayFunction<Float, Float> twice = AF.<Float>copyToDevice().andThen(AF.map(f)).andThen(AF.map(f));
        float[] values = values(50_000);
        try (PArray<Float> in = PArray.of(values)) {
            twice.apply(in).close();
            FaultInjection.reportEventsLate(true);
            assertTimeoutPreemptively(NEVER_HANGS, () -> {
                try (PArray<Float> fresh = PArray.of(values); PArray<Float> out = twice.apply(fresh)) {
                    assertFalse(Profiler.last().fellBack(), "ran on the device: " + Profiler.last());
                    float[] result = out.toFloatArray();
                    for (int i = 0; i < values.length; i++) {
                        assertEquals(f.apply(f.apply(values[i])), result[i], "element " + i);
                    }
                }
            });
        }
        assertEquals(buffersBefore, OpenCLTestSupport.deviceBuffersInUse(context), "no device buffer leaked");
    }
}
