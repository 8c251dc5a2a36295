package jpai.runtime.memory;

import java.lang.foreign.MemorySegment;

import jpai.ElementType;

/**
 * The storage of one component of a {@code PArray}: a scalar array has one, an array of
 * {@code TupleN} has N (struct of arrays). Holds the host memory, a version that every host write
 * advances (the runtime's dirty tracking), and the device copy, if any.
 *
 * <p>Every host access goes through {@link #forHostRead()} or {@link #forHostWrite()}, so a device
 * copy that is newer is brought back first (lazy copy-back) and a host write invalidates it.
 */
public final class ComponentBuffer {

    private final ElementType type;
    private final long length;
    private final HostAllocation host;
    private final MemorySegment segment;
    private volatile long hostVersion;
    private volatile DeviceMirror mirror;
    private volatile boolean released;

    public ComponentBuffer(ElementType type, long length, HostMemory memory) {
        this(type, length, memory, true);
    }

    /** @param zeroed false for memory that will be written in full before it is read */
    public ComponentBuffer(ElementType type, long length, HostMemory memory, boolean zeroed) {
        this.type = type;
        this.length = length;
        long bytes = length * type.byteSize();
        long alignment = Math.max(8, type.byteSize());
        this.host = zeroed ? memory.allocate(bytes, alignment) : memory.allocateUninitialized(bytes, alignment);
        this.segment = host.segment().asSlice(0, length * type.byteSize());
    }

    public ElementType type() {
        return type;
    }

    public long length() {
        return length;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** The host memory, current: a newer device copy is brought back first. */
    public MemorySegment forHostRead() {
        checkOpen();
        DeviceMirror current = mirror;
        if (current != null) {
            current.beforeHostRead(this);
        }
        return segment;
    }

    /** The host memory, for writing: brought up to date, then the device copy marked stale. */
    public MemorySegment forHostWrite() {
        checkOpen();
        DeviceMirror current = mirror;
        if (current != null) {
            current.beforeHostRead(this);
            current.hostWritten(this);
        }
        hostVersion++;
        return segment;
    }

    /**
     * Element {@code index}, boxed, without bringing a newer device copy back in full: only that
     * element moves. For runtime type analysis, which runs the function on element 0 of an input
     * that may be an intermediate still on the device.
     */
    public Object element(long index) {
        checkOpen();
        DeviceMirror current = mirror;
        if (current != null) {
            MemorySegment one = java.lang.foreign.Arena.ofAuto().allocate(type.byteSize(), Math.max(8, type.byteSize()));
            if (current.readIfDeviceNewer(this, index * type.byteSize(), one)) {
                return type.get(one, 0);
            }
        }
        return type.get(segment, index);
    }

    /**
     * The host memory as it is, with no copy-back and no version change: for the runtime's own
     * transfers, which know the state of the device copy.
     */
    public MemorySegment rawSegment() {
        checkOpen();
        return segment;
    }

    /** The allocation behind the memory (pinned memory names its driver object). */
    public HostAllocation allocation() {
        return host;
    }

    /** Advances with every host write; the runtime compares it with the version it sent. */
    public long hostVersion() {
        return hostVersion;
    }

    public DeviceMirror mirror() {
        return mirror;
    }

    /** Attaches (or, with null, detaches) the device copy. */
    public void setMirror(DeviceMirror mirror) {
        this.mirror = mirror;
    }

    public boolean isReleased() {
        return released;
    }

    /** Releases the device copy and the host memory. Idempotent. */
    public synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        DeviceMirror current = mirror;
        mirror = null;
        if (current != null) {
            current.release(this);
        }
        host.release();
    }

    private void checkOpen() {
        if (released) {
            throw new IllegalStateException("this array's memory was released (the PArray is closed)");
        }
    }
}
