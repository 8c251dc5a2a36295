package jpai.runtime.memory;

/**
 * The device side of one {@link ComponentBuffer}: a copy of it in a device's memory. The runtime
 * attaches one when a kernel reads or writes the buffer and keeps it while it is useful, so that
 * composed operations keep their data on the device and results come back only when the host
 * looks at them.
 *
 * <p>Implementations are thread-safe; the buffer calls them under no lock of its own.
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

    /** The buffer is being closed: release the device memory. */
    void release(ComponentBuffer buffer);
}
