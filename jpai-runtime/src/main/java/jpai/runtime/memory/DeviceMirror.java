package jpai.runtime.memory;

import java.lang.foreign.MemorySegment;

/**
 * The device side of one {@link ComponentBuffer}: a copy of it in a device's memory. The runtime
 * attaches one when a kernel reads or writes the buffer and keeps it while it is useful, so that
 * composed operations keep their data on the device and results come back only when the host
 * looks at them.
 *
 * <p>Implementations are thread-safe; the buffer calls them under no lock of its own. Whatever
 * copies into the host memory holds a lease of the buffer ({@link ComponentBuffer#acquireLease()})
 * while it does, and releases it under no lock of its own (the last release frees the buffer).
 */
public interface DeviceMirror {

    /**
     * Called before the host reads the buffer: if the device holds newer data (a kernel wrote it),
     * copy it back now.
     */
    void beforeHostRead(ComponentBuffer buffer);

    /**
     * Called before the host writes the buffer (after {@link #beforeHostRead}): the device copy is
     * stale from now on.
     */
    void hostWritten(ComponentBuffer buffer);

    /**
     * If the device holds newer data, copies just {@code target.byteSize()} bytes from
     * {@code offset} into {@code target} and returns true, leaving the rest on the device; returns
     * false when the host copy is current (the caller reads it).
     */
    boolean readIfDeviceNewer(ComponentBuffer buffer, long offset, MemorySegment target);

    /**
     * The host copy holds the current data before byte {@code offset} (Java threads wrote it while a
     * kernel wrote the rest on the device): if the device copy is the newer one, copies its bytes
     * from {@code offset} on back, and from then on the host copy is the only current one.
     */
    void takeBackFrom(ComponentBuffer buffer, long offset);

    /** The buffer is closed and no lease is held: release the device memory. */
    void release(ComponentBuffer buffer);
}
