package jpai.runtime.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jpai.ElementType;

/**
 * The byte size of an array's storage, checked before anything is allocated: a length whose byte
 * size overflows a {@code long} would otherwise wrap to a small block that kernels then write far
 * past, and a size beyond the host's memory can never be allocated (or only lazily, to be killed by
 * the operating system when it is zeroed).
 */
public final class ArraySize {

    /** The host's RAM and swap, or {@code Long.MAX_VALUE} where it cannot be read. */
    private static final long HOST_MEMORY_BYTES = hostMemoryBytes();

    private ArraySize() {
    }

    /**
     * The bytes of {@code length} elements of {@code type}.
     *
     * @throws IllegalArgumentException if {@code length} is negative, the size does not fit in a
     *         {@code long}, or it is more than the host's memory
     */
    public static long byteSize(ElementType type, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative PArray length: " + length);
        }
        long bytes;
        try {
            bytes = Math.multiplyExact(length, (long) type.byteSize());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("a PArray of " + length + " " + type.javaName() + " elements would take "
                    + java.math.BigInteger.valueOf(length).multiply(java.math.BigInteger.valueOf(type.byteSize()))
                    + " bytes, more than Long.MAX_VALUE bytes (the most a memory segment can address)");
        }
        if (bytes > HOST_MEMORY_BYTES) {
            throw new IllegalArgumentException("a PArray of " + length + " " + type.javaName() + " elements would take " + bytes
                    + " bytes, more than this host's memory (" + HOST_MEMORY_BYTES + " bytes of RAM and swap)");
        }
        return bytes;
    }

    /** MemTotal + SwapTotal from /proc/meminfo (Linux); {@code Long.MAX_VALUE} when unknown. */
    private static long hostMemoryBytes() {
        try {
            long total = 0;
            boolean found = false;
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:") || line.startsWith("SwapTotal:")) {
                    total += Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    found = true;
                }
            }
            return found ? total : Long.MAX_VALUE;
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE; // not Linux: only allocation itself can refuse
        }
    }
}
