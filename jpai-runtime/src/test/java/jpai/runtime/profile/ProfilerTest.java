package jpai.runtime.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;

/** The per-thread collection of apply profiles, their JSON and table forms, and what AF.map reports. */
class ProfilerTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty("jpai.profile");
        System.clearProperty("jpai.device");
    }

    @Test
    void collectsWhatTheRuntimeReportsAndNestsInnerApplies() {
        Profiler.begin("outer");
        Profiler.graal(1_000);
        Profiler.begin("inner");
        Profiler.device("Some GPU");
        Profiler.hostToDevice(200, 4096, 1);
        Profiler.kernel(300, 1);
        ApplyProfile inner = Profiler.end();
        Profiler.deviceToHost(50, 64, 1);
        ApplyProfile outer = Profiler.end();

        assertEquals("inner", inner.operation());
        assertEquals("Some GPU", inner.device());
        assertEquals(4096, inner.hostToDeviceBytes());
        assertEquals(0, inner.graalNanos());
        assertEquals(1_000, outer.graalNanos());
        assertEquals(200, outer.hostToDeviceNanos(), "the inner apply's transfers count in the outer one");
        assertEquals(300, outer.kernelNanos());
        assertEquals(64, outer.deviceToHostBytes());
        assertEquals("Some GPU", outer.device());
        assertTrue(outer.wallNanos() >= inner.wallNanos());
        assertEquals(Math.max(0, outer.wallNanos() - 1_550), outer.otherNanos());
        assertEquals(outer, Profiler.last());
        assertFalse(Profiler.isCollecting());
    }

    @Test
    void endWithoutBeginIsAnError() {
        assertThrows(IllegalStateException.class, Profiler::end);
    }

    @Test
    void copyBacksOutsideAnApplyCountAsLazy() {
        Profiler.LazyTransfers before = Profiler.lazyDeviceToHost();
        Profiler.deviceToHost(1_000, 4_000, 2);
        Profiler.LazyTransfers after = Profiler.lazyDeviceToHost();
        assertEquals(before.nanos() + 1_000, after.nanos());
        assertEquals(before.bytes() + 4_000, after.bytes());
        assertEquals(before.count() + 2, after.count());
    }

    @Test
    void writesJsonAndATableRow() {
        ApplyProfile profile = new ApplyProfile("map of \"f\"\n", "GPU", 10_000, 1, 2, 3, 1, 0, 4, 100, 1, 5, 1, 6, 200, 2, true, "no \\ reason", 1, 1, 2, 300, false, null, true);
        assertEquals("{\"operation\":\"map of \\\"f\\\"\\n\",\"device\":\"GPU\",\"wallNanos\":10000,\"graalNanos\":1,\"codeGenerationNanos\":2,"
                + "\"driverBuildNanos\":3,\"driverBuilds\":1,\"diskCacheLoads\":0,\"hostToDeviceNanos\":4,\"hostToDeviceBytes\":100,"
                + "\"hostToDeviceCount\":1,\"kernelNanos\":5,\"kernelCount\":1,\"deviceToHostNanos\":6,\"deviceToHostBytes\":200,"
                + "\"deviceToHostCount\":2,\"otherNanos\":9979,\"fellBack\":true,\"fallbackReason\":\"no \\\\ reason\","
                + "\"kernelExits\":1,\"failedSpeculations\":1,\"recompiles\":2,\"reexecutedElements\":300,\"tiered\":false,\"costChoice\":null,\"deviceTimed\":true}", profile.toJson());
        ApplyProfile plain = new ApplyProfile("map", "GPU", 10_000, 0, 0, 0, 0, 0, 1_500, 100, 1, 2_500, 1, 0, 0, 0, false, null, 0, 0, 0, 0, false, null, true);
        String[] header = ApplyProfile.tableHeader().strip().split("\\s+");
        String[] row = plain.toTableRow().strip().split("\\s+");
        assertEquals(header.length, row.length, "one value per column");
        assertEquals("10.0", row[2], "wall in microseconds");
        assertEquals("1.5", row[6], "host to device in microseconds");
        assertEquals("6.0", row[9], "the rest: wall minus the parts");
        assertEquals("0", row[12], "no kernel exit");
        assertEquals("no", row[15]);
    }

    @Test
    void printsOneRowPerApplyWhenAsked() {
        System.setProperty("jpai.profile", "true");
        System.setProperty("jpai.device", "java");
        PrintStream err = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (PArray<Float> in = PArray.of(1f, 2f); PArray<Float> out = AF.map((Float x) -> x + 1f).apply(in)) {
            assertEquals(3f, out.get(1));
        } finally {
            System.setErr(err);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        assertTrue(text.lines().anyMatch(line -> line.startsWith("jpai profile: map of ") && line.contains("Java threads")), text);
    }

    /** The two status ints every generated kernel has. */
    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void aMapReportsCompileBuildTransfersAndKernel() {
        Function<Float, Float> f = x -> x * 4.0f - 8.0f;
        ArrayFunction<Float, Float> map = AF.map(f);
        int n = 100_000;
        try (PArray<Float> in = PArray.of(new float[n])) {
            ApplyProfile first;
            try (PArray<Float> out = map.apply(in)) {
                first = Profiler.last();
            }
            assertFalse(first.fellBack(), first.toString());
            assertNull(first.fallbackReason());
            assertTrue(first.graalNanos() > 0 && first.codeGenerationNanos() > 0, first.toString());
            assertTrue(first.driverBuilds() + first.diskCacheLoads() == 1 && first.driverBuildNanos() > 0, first.toString());
            // The data only: x * 4f - 8f has no exception path, so the kernel has no status words to zero or read back.
            assertEquals(n * 4L, first.hostToDeviceBytes(), first.toString());
            assertTrue(first.kernelNanos() > 0 && first.kernelCount() == 1, first.toString());
            assertEquals(0, first.deviceToHostBytes(), "the result stays on the device until read, and there are no status words: " + first);

            Profiler.LazyTransfers lazy = Profiler.lazyDeviceToHost();
            try (PArray<Float> out = map.apply(in)) {
                ApplyProfile second = Profiler.last();
                assertEquals(0, second.graalNanos());
                assertEquals(0, second.driverBuilds() + second.diskCacheLoads());
                assertEquals(0, second.hostToDeviceBytes(), "the input is on the device already, the status buffer zeroed: " + second);
                assertEquals(-8.0f, out.get(0));
            }
            assertEquals(lazy.bytes() + n * 4L, Profiler.lazyDeviceToHost().bytes());
        }
    }
}
