package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.profile.Profiler;

/**
 * Many threads applying functions at once get right answers, and many applies in a row hold no more
 * device buffers, pinned allocations or native memory at the end than after warm-up.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ConcurrencyTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty("jpai.fallback");
    }

    @Test
    void eightThreadsApplyFourFunctionsAtOnce() throws Exception {
        System.setProperty("jpai.fallback", "error"); // a fallback would hide a device-side race
        List<Function<Float, Float>> functions = List.of(x -> x * 2.0f + 1.0f, x -> x - 3.5f, x -> x * x, x -> -x / 4.0f);
        List<ArrayFunction<Float, Float>> maps = functions.stream().map(AF::map).toList();
        int threads = 8;
        int rounds = 25;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int round = 0; round < rounds; round++) {
                        int which = (thread + round) % functions.size();
                        int n = 1000 + 37 * thread + round;
                        float[] values = new float[n];
                        for (int i = 0; i < n; i++) {
                            values[i] = i * 0.5f + thread - round;
                        }
                        try (PArray<Float> in = PArray.of(values); PArray<Float> out = maps.get(which).apply(in)) {
                            assertFalse(Profiler.last().fellBack());
                            float[] result = out.toFloatArray();
                            for (int i = 0; i < n; i++) {
                                float expected = functions.get(which).apply(values[i]);
                                if (Float.floatToIntBits(expected) != Float.floatToIntBits(result[i])) {
                                    throw new AssertionError("thread " + thread + ", round " + round + ", function " + which + ", element " + i
                                            + ": expected " + expected + ", got " + result[i]);
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tenThousandAppliesHoldNoMoreMemoryThanTheFirstHundred() throws IOException {
        System.setProperty("jpai.fallback", "error");
        Function<Float, Float> f = x -> x * 0.5f + 2.0f;
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = new float[1024];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        try (PArray<Float> in = PArray.of(values)) {
            for (int i = 0; i < 100; i++) {
                try (PArray<Float> out = map.apply(in)) {
                    out.get(i);
                }
            }
            long deviceBuffers = LiveResources.deviceBuffers();
            long pinned = LiveResources.pinnedAllocations();
            long rss = residentBytes();
            for (int i = 0; i < 10_000; i++) {
                try (PArray<Float> out = map.apply(in)) {
                    if (i % 1000 == 0) {
                        assertEquals(f.apply(values[i % 1024]), out.get(i % 1024));
                    }
                }
            }
            assertEquals(deviceBuffers, LiveResources.deviceBuffers(), "live device buffers");
            assertEquals(pinned, LiveResources.pinnedAllocations(), "live pinned allocations");
            long growth = residentBytes() - rss;
            assertTrue(growth < 64L << 20, "resident memory grew by " + (growth >> 20) + " MiB over 10,000 applies");
        }
    }

    /** The process's resident set (Linux), or 0 where /proc is missing. */
    private static long residentBytes() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return 0;
    }
}
