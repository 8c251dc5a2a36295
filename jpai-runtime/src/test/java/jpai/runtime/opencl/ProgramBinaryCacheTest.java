package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jpai.ocl.KernelSource;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.TestDevices;

/**
 * The disk cache's files and directory, without a driver: entries are checked against their whole
 * key, untrusted directories are refused, temporaries of killed writers are removed.
 */
class ProgramBinaryCacheTest {

    private static final OpenCLDeviceInfo DEVICE = TestDevices.poclCpu(0, 0, 0);

    private static KernelSource map(String body) {
        return new KernelSource("jpai_map", "__kernel void jpai_map(__global float *x) { x[0] = " + body + "; }", "", List.of());
    }

    @Test
    void anEntryCopiedOverAnothersNameIsNotLoaded(@TempDir Path directory) throws IOException {
        ProgramBinaryCache cache = ProgramBinaryCache.open(directory);
        KernelSource twice = map("x[0] * 2.0f + 1.0f");
        KernelSource thrice = map("x[0] * 3.0f - 7.0f");
        cache.store(twice, DEVICE, new byte[] {1, 2, 3});
        cache.store(thrice, DEVICE, new byte[] {4, 5, 6});
        assertArrayEquals(new byte[] {1, 2, 3}, cache.load(twice, DEVICE));
        Files.copy(cache.file(ProgramBinaryCache.key(thrice, DEVICE)), cache.file(ProgramBinaryCache.key(twice, DEVICE)),
                StandardCopyOption.REPLACE_EXISTING);
        assertNull(cache.load(twice, DEVICE), "a valid entry of another kernel, under this kernel's name, is refused");
        assertArrayEquals(new byte[] {4, 5, 6}, cache.load(thrice, DEVICE));
    }

    @Test
    void anEntryForAnotherDeviceOrOptionsIsNotLoaded(@TempDir Path directory) throws IOException {
        ProgramBinaryCache cache = ProgramBinaryCache.open(directory);
        KernelSource plain = map("x[0] + 1.0f");
        KernelSource fast = new KernelSource(plain.kernelName(), plain.text(), "-cl-fast-relaxed-math", List.of());
        OpenCLDeviceInfo gpu = TestDevices.h100(0, 0, 0);
        cache.store(fast, gpu, new byte[] {9});
        Files.copy(cache.file(ProgramBinaryCache.key(fast, gpu)), cache.file(ProgramBinaryCache.key(plain, DEVICE)));
        assertNull(cache.load(plain, DEVICE));
        assertNotNull(cache.load(fast, gpu));
    }

    @Test
    void aTamperedPayloadIsNotLoaded(@TempDir Path directory) throws IOException {
        ProgramBinaryCache cache = ProgramBinaryCache.open(directory);
        KernelSource source = map("x[0]");
        cache.store(source, DEVICE, new byte[] {1, 2, 3, 4});
        Path file = cache.file(ProgramBinaryCache.key(source, DEVICE));
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 1] ^= 1;
        Files.write(file, bytes);
        assertNull(cache.load(source, DEVICE));
    }

    @Test
    void aDirectoryOthersMayWriteIsRefused(@TempDir Path parent) throws IOException {
        Path shared = Files.createDirectory(parent.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertNull(ProgramBinaryCache.open(shared), "world-writable");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertNull(ProgramBinaryCache.open(shared), "group-writable");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertNotNull(ProgramBinaryCache.open(shared), "writable by its owner alone");
    }

    @Test
    void aSymbolicLinkIsRefused(@TempDir Path parent) throws IOException {
        Path real = Files.createDirectory(parent.resolve("real"));
        Path link = Files.createSymbolicLink(parent.resolve("link"), real);
        assertNull(ProgramBinaryCache.open(link));
    }

    @Test
    void aMissingDirectoryIsCreatedForItsOwnerAlone(@TempDir Path parent) throws IOException {
        Path fresh = parent.resolve("a").resolve("cache");
        assertNotNull(ProgramBinaryCache.open(fresh));
        assertTrue(Files.isDirectory(fresh));
        assertFalse(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)).matches(".{4}w.*|.{7}w.*"), "mode of " + fresh);
    }

    @Test
    void temporariesOfKilledWritersAreRemovedOnOpen(@TempDir Path directory) throws IOException {
        Path stale = Files.createFile(directory.resolve("0123abcd99.tmp"));
        Files.setLastModifiedTime(stale, FileTime.fromMillis(System.currentTimeMillis() - ProgramBinaryCache.STALE_TEMPORARY.toMillis() - 60_000));
        Path beingWritten = Files.createFile(directory.resolve("4567abcd11.tmp"));
        assertNotNull(ProgramBinaryCache.open(directory));
        assertFalse(Files.exists(stale), "a temporary older than any write is removed");
        assertTrue(Files.exists(beingWritten), "a fresh temporary may be another JVM's write in progress");
    }

    @Test
    void theLeastRecentlyUsedEntriesAreEvictedPastTheBound(@TempDir Path directory) throws IOException {
        KernelSource[] sources = {map("1.0f"), map("2.0f"), map("3.0f"), map("4.0f")};
        ProgramBinaryCache probe = ProgramBinaryCache.open(directory, Long.MAX_VALUE);
        probe.store(sources[0], DEVICE, new byte[1000]);
        long entryBytes = Files.size(probe.file(ProgramBinaryCache.key(sources[0], DEVICE))); // the same for all four
        ProgramBinaryCache cache = ProgramBinaryCache.open(directory, 3 * entryBytes + entryBytes / 2); // room for three
        long now = System.currentTimeMillis();
        for (int i = 0; i < 3; i++) {
            cache.store(sources[i], DEVICE, new byte[1000]);
            Files.setLastModifiedTime(cache.file(ProgramBinaryCache.key(sources[i], DEVICE)), FileTime.fromMillis(now - 60_000 * (10 - i)));
        }
        assertNotNull(cache.load(sources[0], DEVICE)); // the oldest written, now the most recently used
        cache.store(sources[3], DEVICE, new byte[1000]);
        assertNotNull(cache.load(sources[0], DEVICE), "used last: kept");
        assertNull(cache.load(sources[1], DEVICE), "least recently used: evicted");
        assertNotNull(cache.load(sources[2], DEVICE));
        assertNotNull(cache.load(sources[3], DEVICE), "just written: kept");
    }

    /** A phase plugin that changes nothing: only the plugin's presence differs. */
    public static final class UnchangingPhase extends jdk.graal.compiler.phases.Phase {
        @Override
        public java.util.Optional<NotApplicable> notApplicableTo(jdk.graal.compiler.nodes.GraphState graphState) {
            return ALWAYS_APPLICABLE;
        }

        @Override
        protected void run(jdk.graal.compiler.nodes.StructuredGraph graph) {
        }
    }

    /**
     * The key is built from the whole source text, and a kernel compiled with phase plugins names
     * them in its header: so its binary is never loaded for the kernel compiled without them, even
     * when the plugin changed nothing else.
     */
    @Test
    void aKernelCompiledWithAPhasePluginHasAnEntryOfItsOwn(@TempDir Path directory) throws IOException {
        java.util.function.Function<Integer, Integer> f = x -> x * 5 + 1;
        KernelSource without = jpai.runtime.KernelCompilation.map(f, jpai.ElementType.INT, jpai.ElementType.INT).kernel();
        KernelSource with;
        System.setProperty("jpai.phases", "after-kernel-phases:" + UnchangingPhase.class.getName());
        try {
            with = jpai.runtime.KernelCompilation.map(f, jpai.ElementType.INT, jpai.ElementType.INT).kernel();
        } finally {
            System.clearProperty("jpai.phases");
        }
        String header = "// With the phase plugins " + UnchangingPhase.class.getName() + " (after kernel phases)\n";
        assertTrue(with.text().contains(header), with.text());
        assertEquals(without.text(), with.text().replace(header, ""), "the plugin changed nothing but the header");
        ProgramBinaryCache cache = ProgramBinaryCache.open(directory);
        cache.store(with, DEVICE, new byte[] {7, 7});
        assertNotEquals(ProgramBinaryCache.key(with, DEVICE), ProgramBinaryCache.key(without, DEVICE));
        assertNull(cache.load(without, DEVICE), "the plugin's binary is not the plain kernel's");
        assertArrayEquals(new byte[] {7, 7}, cache.load(with, DEVICE));
    }
}
