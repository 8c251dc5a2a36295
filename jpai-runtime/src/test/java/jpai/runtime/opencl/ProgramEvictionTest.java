package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.JpaiOptions;
import jpai.runtime.memory.PArrayStorage;

/**
 * The in-memory program cache is bounded ({@code -Djpai.cache.programs}): the least recently used
 * program is evicted, a program evicted while a launch holds it is released by the driver only
 * after that launch, and an evicted program launched again is loaded from the disk cache (or built)
 * again and computes the same.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ProgramEvictionTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty(JpaiOptions.CACHE_PROGRAMS);
    }

    private static KernelSource kernel(String name, float plus) {
        return new KernelSource(name, "__kernel void " + name + "(__global const float *in, __global float *out, const long n, const float factor) {\n"
                + "    long i = get_global_id(0);\n"
                + "    if (i < n) { out[i] = in[i] * factor + " + plus + "f; }\n"
                + "}\n", "", List.of());
    }

    private static void runAndCheck(DeviceContext context, KernelSource source, float plus) {
        try (PArray<Float> in = PArray.of(1f, 2f, 3f); PArray<Float> out = PArray.allocate(Float.class, 3)) {
            context.launch(source, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), 3, 2f));
            assertArrayEquals(new float[] {2f + plus, 4f + plus, 6f + plus}, out.toFloatArray());
        }
    }

    @Test
    void aProgramEvictedWhileLeasedIsReleasedAfterItsLastLease() {
        DeviceContext context = OpenCLTestSupport.context();
        ProgramCache cache = new ProgramCache(context, null, () -> 1);
        try {
            long live = LiveResources.programs();
            BuiltProgram first = cache.program(kernel("evicted_in_use", 1f)); // leased, as by a running launch
            BuiltProgram second = cache.program(kernel("evicting_other", 2f));
            assertEquals(1, cache.size());
            assertEquals(1, cache.evictions(), "the first program was evicted by the second");
            assertFalse(first.isReleased(), "an evicted program still leased is not released");
            assertEquals(live + 2, LiveResources.programs());
            KernelObject kernel = first.take(); // the leased program still makes kernels
            first.giveBack(kernel);
            first.release();
            assertTrue(first.isReleased(), "released with its last lease");
            assertEquals(live + 1, LiveResources.programs());
            second.release();
            assertFalse(second.isReleased(), "a program in the cache stays built with no lease");
        } finally {
            cache.close();
        }
    }

    @Test
    void anEvictedProgramIsLoadedAgainWhenLaunchedAgain(@TempDir Path disk) {
        System.setProperty(JpaiOptions.CACHE_PROGRAMS, "2");
        DeviceContext context = new DeviceContext(OpenCLTestSupport.context().device(), disk, Transfers.DEFAULT_SLICE_BYTES);
        try {
            KernelSource a = kernel("evict_a", 1f);
            KernelSource b = kernel("evict_b", 2f);
            KernelSource c = kernel("evict_c", 3f);
            runAndCheck(context, a, 1f);
            runAndCheck(context, b, 2f);
            runAndCheck(context, a, 1f); // a is now the most recently used
            runAndCheck(context, c, 3f); // evicts b, not a
            assertEquals(2, context.programsInMemory());
            assertEquals(1, context.programsEvicted());
            assertEquals(3, context.programsBuiltFromSource());
            runAndCheck(context, a, 1f);
            assertEquals(3, context.programsBuiltFromSource() + context.programsLoadedFromDisk(), "a stayed in memory");
            runAndCheck(context, b, 2f);
            assertEquals(1, context.programsLoadedFromDisk(), "the evicted b came back from the disk cache");
            assertEquals(2, context.programsInMemory());
        } finally {
            context.close();
        }
    }

    @Test
    void theSameSourceBuiltByManyThreadsAtOnceIsBuiltOnce() throws Exception {
        DeviceContext context = OpenCLTestSupport.context();
        ProgramCache cache = new ProgramCache(context, null, () -> 8);
        try {
            KernelSource source = kernel("built_once_for_all", 5f);
            Thread[] threads = new Thread[6];
            BuiltProgram[] got = new BuiltProgram[threads.length];
            for (int t = 0; t < threads.length; t++) {
                int index = t;
                threads[t] = new Thread(() -> got[index] = cache.program(source));
                threads[t].start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(1, cache.sourceBuilds());
            for (BuiltProgram program : got) {
                assertEquals(got[0], program);
                program.release();
            }
            assertNotSame(null, got[0]);
        } finally {
            cache.close();
        }
    }
}
