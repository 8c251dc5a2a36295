package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.memory.PArrayStorage;

/**
 * The disk cache of program binaries: a second context (as a second JVM would) loads what the first
 * built, and damaged entries are rebuilt and overwritten.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ProgramCacheTest {

    /** A kernel no other test builds, so the counts below are this test's alone. */
    private static KernelSource kernel(String name) {
        return new KernelSource(name, "__kernel void " + name + "(__global const float *in, __global float *out, const long n, const float factor) {\n"
                + "    long i = get_global_id(0);\n"
                + "    if (i < n) { out[i] = in[i] * factor + 1.0f; }\n"
                + "}\n", "", List.of());
    }

    private static void runAndCheck(DeviceContext context, KernelSource source) {
        try (PArray<Float> in = PArray.of(1f, 2f, 3f); PArray<Float> out = PArray.allocate(Float.class, 3)) {
            context.launch(source, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), 3, 2f));
            assertArrayEquals(new float[] {3f, 5f, 7f}, out.toFloatArray());
        }
    }

    @Test
    void aSecondContextLoadsWhatTheFirstBuilt(@TempDir Path cache) throws IOException {
        OpenCLDeviceInfo device = OpenCLTestSupport.context().device();
        KernelSource source = kernel("cached_once");
        DeviceContext first = new DeviceContext(device, cache, Transfers.DEFAULT_SLICE_BYTES);
        try {
            runAndCheck(first, source);
            runAndCheck(first, source);
            assertEquals(1, first.programsBuiltFromSource());
            assertEquals(0, first.programsLoadedFromDisk());
        } finally {
            first.close();
        }
        assertEquals(1, files(cache).size(), "one entry written: " + files(cache));
        DeviceContext second = new DeviceContext(device, cache, Transfers.DEFAULT_SLICE_BYTES);
        try {
            runAndCheck(second, source);
            assertEquals(0, second.programsBuiltFromSource(), "a cold start builds no kernel twice");
            assertEquals(1, second.programsLoadedFromDisk());
        } finally {
            second.close();
        }
    }

    @Test
    void rebuildsAndOverwritesCorruptOrUnloadableEntries(@TempDir Path cache) throws IOException {
        OpenCLDeviceInfo device = OpenCLTestSupport.context().device();
        KernelSource source = kernel("cached_corrupt");
        ProgramBinaryCache disk = new ProgramBinaryCache(cache);
        String key = ProgramBinaryCache.key(source, device);

        Files.createDirectories(cache);
        Files.write(disk.file(key), new byte[] {1, 2, 3, 4, 5}); // truncated: fails the integrity check
        assertRebuiltOnce(device, cache, source);
        assertNotNull(disk.load(source, device), "the damaged entry was overwritten by a good one");

        disk.store(source, device, "not a program binary at all".getBytes()); // intact file, but the driver refuses it
        assertRebuiltOnce(device, cache, source);
        byte[] stored = disk.load(source, device);
        assertTrue(stored != null && !new String(stored).equals("not a program binary at all"), "the refused entry was replaced");
        assertEquals(1, files(cache).size(), "no temporary files left behind: " + files(cache));
    }

    @Test
    void keysDependOnSourceOptionsAndDevice() {
        OpenCLDeviceInfo device = OpenCLTestSupport.context().device();
        KernelSource source = kernel("keyed");
        KernelSource otherOptions = new KernelSource(source.kernelName(), source.text(), "-cl-fast-relaxed-math", List.of());
        assertEquals(64, ProgramBinaryCache.key(source, device).length());
        assertEquals(ProgramBinaryCache.key(source, device), ProgramBinaryCache.key(kernel("keyed"), device));
        assertTrue(!ProgramBinaryCache.key(source, device).equals(ProgramBinaryCache.key(otherOptions, device)));
        assertTrue(!ProgramBinaryCache.key(source, device).equals(ProgramBinaryCache.key(kernel("keyed2"), device)));
    }

    /** Issue 19: the entry of one kernel copied over another's made the next JVM compute the first for the second. */
    @Test
    void anEntryCopiedOverAnotherIsRebuiltNotRun(@TempDir Path cache) throws IOException {
        OpenCLDeviceInfo device = OpenCLTestSupport.context().device();
        KernelSource doubling = kernel("cached_swapped");
        KernelSource tripling = new KernelSource(doubling.kernelName(), doubling.text().replace("in[i] * factor + 1.0f", "in[i] * factor * 3.0f - 7.0f"),
                "", List.of());
        DeviceContext first = new DeviceContext(device, cache, Transfers.DEFAULT_SLICE_BYTES);
        try {
            runAndCheck(first, doubling);
            try (PArray<Float> in = PArray.of(1f, 2f, 3f); PArray<Float> out = PArray.allocate(Float.class, 3)) {
                first.launch(tripling, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), 3, 2f));
            }
        } finally {
            first.close();
        }
        Files.copy(cache.resolve(ProgramBinaryCache.key(tripling, device) + ".bin"), cache.resolve(ProgramBinaryCache.key(doubling, device) + ".bin"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        DeviceContext second = new DeviceContext(device, cache, Transfers.DEFAULT_SLICE_BYTES);
        try {
            runAndCheck(second, doubling); // computes in * 2 + 1, not the planted in * 2 * 3 - 7
            assertEquals(1, second.programsBuiltFromSource(), "the planted entry was refused and the kernel rebuilt");
            assertEquals(0, second.programsLoadedFromDisk());
        } finally {
            second.close();
        }
    }

    /** Issue 19: with PoCL's cache disk full, the first apply ended the JVM (LLVM ERROR, exit status 1). */
    @Test
    void aBuildWithNoRoomForPoclsCacheIsRefusedNotAttempted(@TempDir Path cache) {
        // A context of its own on an empty disk cache: the kernel must be built, not loaded from an earlier run's entry.
        DeviceContext context = new DeviceContext(OpenCLTestSupport.context().device(), cache, Transfers.DEFAULT_SLICE_BYTES);
        org.junit.jupiter.api.Assumptions.assumeTrue(context.device().platformName().contains("Portable Computing Language"), "PoCL only");
        // a name no earlier run has built: an entry in the disk cache would be loaded without a build
        KernelSource source = kernel("cached_no_room_" + Long.toHexString(System.nanoTime()));
        System.setProperty(jpai.runtime.JpaiOptions.CACHE_MIN_FREE_BYTES, Long.toString(Long.MAX_VALUE)); // no disk has that much free
        try (PArray<Float> in = PArray.of(1f, 2f, 3f); PArray<Float> out = PArray.allocate(Float.class, 3)) {
            OpenCLRuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(OpenCLRuntimeException.class,
                    () -> context.launch(source, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), 3, 2f)));
            assertTrue(refused.getMessage().contains("bytes are free for PoCL's kernel cache"), refused.getMessage());
        } finally {
            System.clearProperty(jpai.runtime.JpaiOptions.CACHE_MIN_FREE_BYTES);
        }
        try {
            runAndCheck(context, source); // with room again, the same kernel builds and runs
        } finally {
            context.close();
        }
    }

    private static void assertRebuiltOnce(OpenCLDeviceInfo device, Path cache, KernelSource source) {
        DeviceContext context = new DeviceContext(device, cache, Transfers.DEFAULT_SLICE_BYTES);
        try {
            runAndCheck(context, source);
            assertEquals(1, context.programsBuiltFromSource());
            assertEquals(0, context.programsLoadedFromDisk());
        } finally {
            context.close();
        }
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        }
    }
}
