package jpai.runtime.opencl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jocl.CL;
import org.jocl.CLException;

import jpai.runtime.JpaiOptions;
import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * Refuses a driver build that would end the JVM: PoCL writes every program it builds to its own
 * cache directory, and when that file system is full LLVM prints "No space left on device" and calls
 * {@code exit(1)}, with no error for the caller to catch. Below {@link JpaiOptions#CACHE_MIN_FREE_BYTES}
 * free bytes there, the build is refused with an OpenCL build failure instead, which the runtime turns
 * into a fallback to Java threads with that reason. Other drivers report such failures as errors.
 */
final class DriverCacheSpace {

    private static final String POCL_PLATFORM = "Portable Computing Language";

    private DriverCacheSpace() {
    }

    /** @throws CLException (a build failure) if building for {@code device} now may end the JVM */
    static void checkBeforeBuild(OpenCLDeviceInfo device) {
        if (!device.platformName().contains(POCL_PLATFORM) || "0".equals(System.getenv("POCL_KERNEL_CACHE"))) {
            return;
        }
        Path directory = poclCacheDirectory();
        long free = usableBytes(directory);
        long needed = JpaiOptions.programCacheMinFreeBytes();
        if (free >= 0 && free < needed) {
            throw new CLException("only " + free + " bytes are free for PoCL's kernel cache " + directory + " (at least " + needed
                    + " needed, -D" + JpaiOptions.CACHE_MIN_FREE_BYTES + "); PoCL ends the JVM when that disk fills, so the kernel is not built"
                    + " (free space there, set POCL_CACHE_DIR elsewhere, or POCL_KERNEL_CACHE=0)", CL.CL_BUILD_PROGRAM_FAILURE);
        }
    }

    /** Where PoCL keeps its cache: {@code $POCL_CACHE_DIR}, else {@code $XDG_CACHE_HOME/pocl}, else {@code ~/.cache/pocl}. */
    static Path poclCacheDirectory() {
        String explicit = System.getenv("POCL_CACHE_DIR");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "pocl") : Path.of(System.getProperty("user.home"), ".cache", "pocl");
    }

    /** Free bytes on the file system that holds {@code directory} (or its nearest existing ancestor); -1 if unknown. */
    private static long usableBytes(Path directory) {
        for (Path existing = directory.toAbsolutePath(); existing != null; existing = existing.getParent()) {
            if (Files.exists(existing)) {
                try {
                    return Files.getFileStore(existing).getUsableSpace();
                } catch (IOException e) {
                    return -1;
                }
            }
        }
        return -1;
    }
}
