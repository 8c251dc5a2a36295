package jpai.runtime.opencl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.HexFormat;
import java.util.Set;

import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * Built program binaries on disk, so that a new JVM loads a kernel instead of building it again
 * (a driver build takes from tens of milliseconds to seconds). One file per program, named by the
 * SHA-256 of its whole key: the source, the build options, the kernel name, the device, its
 * platform, the driver version and the cache format.
 *
 * <p>The file name alone proves nothing (every map kernel has the same name, and a file can be
 * copied over another), so each file carries its whole key in clear and the SHA-256 of key and
 * payload; {@link #load} returns a binary only if the stored key is exactly the one asked for.
 * A truncated, corrupt or foreign file is therefore never given to the driver; the caller rebuilds
 * such an entry and overwrites it.
 *
 * <p>On a CPU device a binary is native code that runs inside the JVM, so the directory must be
 * writable by this user alone: {@link #open} refuses a directory owned by another user or writable
 * by group or others (as {@code ssh} treats its keys), says so once, and kernels are then built in
 * memory only.
 *
 * <p>Files are written to a temporary name and renamed, so a reader never sees half a file, and two
 * JVMs writing the same entry leave one whole copy. Temporaries left by a JVM killed while writing
 * are removed when the cache is opened (those older than {@link #STALE_TEMPORARY}, so as not to take
 * one another JVM is writing now). I/O failures only cost the cache: they are said once and ignored.
 *
 * <p>Thread-safe: no mutable state; concurrent writers are made safe by the atomic rename.
 */
final class ProgramBinaryCache {

    private static final byte[] MAGIC = "JPAIBIN2".getBytes(StandardCharsets.US_ASCII);
    /** The cache format, part of every key: a format change misses old entries instead of misreading them. */
    private static final String FORMAT = "jpai-program-2";
    private static final int DIGEST_BYTES = 32;
    private static final String TEMPORARY_SUFFIX = ".tmp";
    /** A temporary this old is not being written by anyone: writes take milliseconds. */
    static final Duration STALE_TEMPORARY = Duration.ofMinutes(10);

    private final Path directory;
    private final long maxBytes;

    /** @param maxBytes the most bytes of entries kept; past it the least recently used are removed */
    ProgramBinaryCache(Path directory, long maxBytes) {
        this.directory = directory;
        this.maxBytes = maxBytes;
    }

    ProgramBinaryCache(Path directory) {
        this(directory, JpaiOptions.programCacheMaxBytes());
    }

    /**
     * The cache in {@code directory}, created (owner-only) if missing, or null if the directory may
     * not be trusted or made: then a notice says why, once, and kernels are built in memory.
     */
    static ProgramBinaryCache open(Path directory) {
        return open(directory, JpaiOptions.programCacheMaxBytes());
    }

    static ProgramBinaryCache open(Path directory, long maxBytes) {
        try {
            if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
                createPrivateDirectories(directory);
            }
        } catch (IOException | UnsupportedOperationException e) {
            Explain.notice("cannot create the kernel cache " + directory + " (" + e.getMessage() + "); kernels are built in memory only");
            return null;
        }
        String distrust = distrust(directory);
        if (distrust != null) {
            Explain.notice("the kernel cache " + directory + " is not used: " + distrust
                    + "; kernels are built in memory only (make it yours with mode 700, or set -Djpai.cache.dir)");
            return null;
        }
        ProgramBinaryCache cache = new ProgramBinaryCache(directory, maxBytes);
        cache.removeStaleTemporaries();
        return cache;
    }

    /**
     * Why {@code directory} must not be trusted with native code, or null if it may: it must be a
     * real directory (not a link), owned by the user running this JVM, not writable by group or
     * others. On a file system without POSIX attributes only the first condition is checked.
     */
    static String distrust(Path directory) {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            return "it is not a directory (or is a symbolic link)";
        }
        PosixFileAttributeView view = Files.getFileAttributeView(directory, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null) {
            return null;
        }
        try {
            PosixFileAttributes attributes = view.readAttributes();
            UserPrincipal me = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
            if (!attributes.owner().equals(me)) {
                return "it is owned by " + attributes.owner().getName() + ", not by " + me.getName();
            }
            Set<PosixFilePermission> permissions = attributes.permissions();
            if (permissions.contains(PosixFilePermission.GROUP_WRITE) || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
                return "other users may write to it (mode " + PosixFilePermissions.toString(permissions) + ")";
            }
            return null;
        } catch (IOException e) {
            return "its owner and permissions cannot be read (" + e.getMessage() + ")";
        }
    }

    private static void createPrivateDirectories(Path directory) throws IOException {
        Path parent = directory.toAbsolutePath().getParent();
        if (parent != null && !Files.exists(parent)) {
            Files.createDirectories(parent);
        }
        if (Files.getFileStore(parent).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectory(directory);
        }
    }

    Path directory() {
        return directory;
    }

    /**
     * The whole key of {@code source} built for {@code device}: every part the binary depends on,
     * separated by NUL characters (none of the parts contains one).
     */
    static String keyText(KernelSource source, OpenCLDeviceInfo device) {
        return String.join("\0", FORMAT, source.text(), source.buildOptions(), source.kernelName(), device.name(), device.vendor(),
                device.platformName(), device.platformVersion(), device.deviceVersion(), device.driverVersion());
    }

    /** The file name of the key of {@code source} built for {@code device}: 64 hex digits. */
    static String key(KernelSource source, OpenCLDeviceInfo device) {
        return HexFormat.of().formatHex(sha256().digest(keyText(source, device).getBytes(StandardCharsets.UTF_8)));
    }

    Path file(String key) {
        return directory.resolve(key + ".bin");
    }

    /**
     * The binary stored for {@code source} on {@code device}, or null if there is none, it is
     * damaged, or it was stored for another key.
     */
    byte[] load(KernelSource source, OpenCLDeviceInfo device) {
        byte[] file;
        try {
            file = Files.readAllBytes(file(key(source, device)));
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            Explain.notice("cannot read the kernel cache " + directory + " (" + e.getMessage() + "); kernels are built from source");
            return null;
        }
        byte[] expectedKey = keyText(source, device).getBytes(StandardCharsets.UTF_8);
        int keyStart = MAGIC.length + Integer.BYTES;
        int digestStart = keyStart + expectedKey.length;
        int payloadStart = digestStart + DIGEST_BYTES;
        if (file.length <= payloadStart || !Arrays.equals(file, 0, MAGIC.length, MAGIC, 0, MAGIC.length)
                || ByteBuffer.wrap(file, MAGIC.length, Integer.BYTES).getInt() != expectedKey.length
                || !Arrays.equals(file, keyStart, digestStart, expectedKey, 0, expectedKey.length)) {
            return null;
        }
        MessageDigest digest = sha256();
        digest.update(file, keyStart, expectedKey.length);
        digest.update(file, payloadStart, file.length - payloadStart);
        byte[] stored = Arrays.copyOfRange(file, digestStart, payloadStart);
        if (!MessageDigest.isEqual(stored, digest.digest())) {
            return null;
        }
        markUsed(file(key(source, device)));
        return Arrays.copyOfRange(file, payloadStart, file.length);
    }

    /** Stores {@code binary} for {@code source} on {@code device}, replacing what was there, atomically. */
    void store(KernelSource source, OpenCLDeviceInfo device, byte[] binary) {
        String key = key(source, device);
        byte[] keyBytes = keyText(source, device).getBytes(StandardCharsets.UTF_8);
        MessageDigest digest = sha256();
        digest.update(keyBytes);
        digest.update(binary);
        ByteBuffer file = ByteBuffer.allocate(MAGIC.length + Integer.BYTES + keyBytes.length + DIGEST_BYTES + binary.length);
        file.put(MAGIC).putInt(keyBytes.length).put(keyBytes).put(digest.digest()).put(binary);
        Path temporary = null;
        try {
            temporary = Files.createTempFile(directory, key, TEMPORARY_SUFFIX);
            Files.write(temporary, file.array());
            try {
                Files.move(temporary, file(key), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file(key), StandardCopyOption.REPLACE_EXISTING);
            }
            temporary = null;
            evictBeyondBound(file(key));
        } catch (IOException e) {
            Explain.notice("cannot write the kernel cache " + directory + " (" + e.getMessage() + "); kernels will be built again next run");
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException e) {
                    // Left for removeStaleTemporaries of a later JVM.
                }
            }
        }
    }

    /** An entry's modification time is its last use: eviction removes the oldest first. */
    private static void markUsed(Path entry) {
        try {
            Files.setLastModifiedTime(entry, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // Only the eviction order suffers.
        }
    }

    /**
     * Removes the least recently used entries until the entries together take at most
     * {@code maxBytes}, never {@code kept} (just written). Runs after each store: stores follow a
     * driver build, which takes far longer than listing the directory.
     */
    private void evictBeyondBound(Path kept) throws IOException {
        record Entry(Path path, long bytes, FileTime used) {
        }
        List<Entry> entries = new ArrayList<>();
        long total = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.bin")) {
            for (Path file : files) {
                try {
                    long bytes = Files.size(file);
                    entries.add(new Entry(file, bytes, Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS)));
                    total += bytes;
                } catch (NoSuchFileException e) {
                    // Removed by another JVM meanwhile.
                }
            }
        }
        if (total <= maxBytes) {
            return;
        }
        entries.sort(Comparator.comparing(Entry::used));
        for (Entry entry : entries) {
            if (total <= maxBytes) {
                break;
            }
            if (!entry.path().equals(kept)) {
                Files.deleteIfExists(entry.path());
                total -= entry.bytes();
            }
        }
    }

    /** Removes temporaries left by JVMs killed while writing an entry. */
    void removeStaleTemporaries() {
        FileTime before = FileTime.fromMillis(System.currentTimeMillis() - STALE_TEMPORARY.toMillis());
        try (DirectoryStream<Path> temporaries = Files.newDirectoryStream(directory, "*" + TEMPORARY_SUFFIX)) {
            for (Path temporary : temporaries) {
                try {
                    if (Files.getLastModifiedTime(temporary, LinkOption.NOFOLLOW_LINKS).compareTo(before) < 0) {
                        Files.deleteIfExists(temporary);
                    }
                } catch (IOException e) {
                    // Another JVM removed or renamed it first.
                }
            }
        } catch (IOException e) {
            Explain.notice("cannot list the kernel cache " + directory + " (" + e.getMessage() + ")");
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
