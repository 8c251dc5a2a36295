package jpai.runtime.opencl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * Built program binaries on disk, so that a new JVM loads a kernel instead of building it again
 * (a driver build takes from tens of milliseconds to seconds). One file per program, named by the
 * SHA-256 of everything the binary depends on: the source, the build options, the kernel name, the
 * device, its platform and the driver version.
 *
 * <p>Each file carries a magic number and the SHA-256 of its payload, so a truncated or corrupt file
 * is detected before the driver sees it; the caller rebuilds such an entry and overwrites it. Files
 * are written to a temporary name and renamed, so a reader never sees half a file, and two JVMs
 * writing the same entry leave one whole copy. I/O failures only cost the cache: they are said once
 * and ignored.
 *
 * <p>Thread-safe: no mutable state; concurrent writers are made safe by the atomic rename.
 */
final class ProgramBinaryCache {

    private static final byte[] MAGIC = "JPAIBIN1".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST_BYTES = 32;

    private final Path directory;

    ProgramBinaryCache(Path directory) {
        this.directory = directory;
    }

    Path directory() {
        return directory;
    }

    /** The cache key of {@code source} built for {@code device}: 64 hex digits. */
    static String key(KernelSource source, OpenCLDeviceInfo device) {
        MessageDigest digest = sha256();
        for (String part : new String[] {"jpai-program-1", source.text(), source.buildOptions(), source.kernelName(), device.name(),
                device.vendor(), device.platformName(), device.platformVersion(), device.deviceVersion(), device.driverVersion()}) {
            digest.update(part.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    Path file(String key) {
        return directory.resolve(key + ".bin");
    }

    /** The binary stored under {@code key}, or null if there is none or it is damaged. */
    byte[] load(String key) {
        byte[] file;
        try {
            file = Files.readAllBytes(file(key));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            Explain.notice("cannot read the kernel cache " + directory + " (" + e.getMessage() + "); kernels are built from source");
            return null;
        }
        int header = MAGIC.length + DIGEST_BYTES;
        if (file.length <= header || !Arrays.equals(file, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return null;
        }
        byte[] payload = Arrays.copyOfRange(file, header, file.length);
        byte[] expected = Arrays.copyOfRange(file, MAGIC.length, header);
        return MessageDigest.isEqual(expected, sha256().digest(payload)) ? payload : null;
    }

    /** Stores {@code binary} under {@code key}, replacing what was there, atomically. */
    void store(String key, byte[] binary) {
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            temporary = Files.createTempFile(directory, key, ".tmp");
            byte[] file = new byte[MAGIC.length + DIGEST_BYTES + binary.length];
            System.arraycopy(MAGIC, 0, file, 0, MAGIC.length);
            System.arraycopy(sha256().digest(binary), 0, file, MAGIC.length, DIGEST_BYTES);
            System.arraycopy(binary, 0, file, MAGIC.length + DIGEST_BYTES, binary.length);
            Files.write(temporary, file);
            try {
                Files.move(temporary, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file(key), StandardCopyOption.REPLACE_EXISTING);
            }
            temporary = null;
        } catch (IOException e) {
            Explain.notice("cannot write the kernel cache " + directory + " (" + e.getMessage() + "); kernels will be built again next run");
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // The temporary file is all that is left behind; the next write replaces the entry.
                }
            }
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every Java platform has SHA-256", e);
        }
    }
}
