package jpai.runtime.memory;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

import jpai.ElementType;

/**
 * The storage of one component of a {@code PArray}: a scalar array has one, an array of
 * {@code TupleN} has N (struct of arrays). Holds the host memory, a version that every host write
 * advances (the runtime's dirty tracking), and the device copy, if any.
 *
 * <p><b>Memory safety.</b> No access may reach the memory once it is freed or given to another
 * array. Two mechanisms guarantee it, one per kind of access:
 * <ul>
 * <li>Java code reads and writes through segments bound to arenas that {@link #close()} closes
 * ({@link AccessScopes}): after the close such a segment throws {@link IllegalStateException}.
 * {@link #forHostRead()}, {@link #forHostWrite()}, {@link #openWrite()} and the element accesses
 * give out only those.</li>
 * <li>Native code (driver transfers) and the runtime's bulk copies use the unscoped
 * {@link #leasedMemory()} under a lease ({@link #acquireLease()}): the memory is freed only when the
 * buffer is closed <em>and</em> the last lease is released, on whichever thread that happens.</li>
 * </ul>
 *
 * <p><b>Coherence.</b> Every host access goes through this class, so a device copy that is newer is
 * brought back first (lazy copy-back), and every host write advances the version after the data is
 * written ({@link #hostWritten()}), so the next kernel sends it.
 */
public final class ComponentBuffer {

    /**
     * Element accesses ({@link #get}, {@link #put}) made under a lease each before the buffer makes
     * its shared access segment. A lease costs about 10 ns more per access than the segment (two
     * atomic operations); the segment costs nothing per access but a thread handshake when the array
     * is closed (about 40-60 us on a busy 2-core machine; see {@link AccessScopes}). An array whose
     * elements are read a few at a time (a reduction's result, a sample) thus never pays a
     * handshake; a loop over many elements switches early, while the JIT is still profiling it
     * (measured: switching after 4096 accesses left some loops compiled around the leased path, at
     * 60 ns a put instead of 10).
     */
    private static final int LEASED_ELEMENT_ACCESSES = 256;

    private final ElementType type;
    private final long length;
    private final HostAllocation host;
    /** The memory with no scope: for native code and bulk copies, under a lease only. */
    private final MemorySegment memory;
    private final Leases leases;
    private final AccessScopes scopes;
    private final AtomicLong hostVersion = new AtomicLong();
    /** Kernel writes through the mirror: with {@link #hostVersion} they make {@link #contentVersion()}. */
    private final AtomicLong deviceWrites = new AtomicLong();
    private volatile DeviceMirror mirror;
    /** Copies on several devices at once, for functions split over devices; null until one is made. */
    private volatile Replicas replicas;
    /** The function that computed this buffer, told once whether the host read it ({@link #reportReadTo}); null after, or for other buffers. */
    private volatile HostReadHint readHint;
    /**
     * The shared segment, while the host copy is known current and the buffer open: {@link #get}'s
     * fast path. Plain, not volatile, so that loops of reads compile to plain loads; cleared before
     * anything that could make it wrong (see {@link #get}).
     */
    private MemorySegment readable;
    /**
     * {@link #deviceWrites} as the last {@link #deviceWritten} left it, in a plain field, and its
     * value when {@link #readable} was set: the fast path runs only while the two are equal. The
     * thread that had a kernel write the buffer sees its own store (program order), so it never reads
     * the host copy that kernel made stale, even if another thread's read, racing with the write,
     * set {@link #readable} again; that other thread's reads race with the write anyway.
     */
    private long writesSeen;
    private long readableWrites;
    /** A plain counter: a lost increment only delays the switch to the shared segment. */
    private int leasedElementAccesses;

    public ComponentBuffer(ElementType type, long length, HostMemory memory) {
        this(type, length, memory, true);
    }

    /**
     * @param zeroed false for memory that will be written in full before it is read
     * @throws IllegalArgumentException if {@code length} elements do not fit in memory (see {@link ArraySize})
     */
    public ComponentBuffer(ElementType type, long length, HostMemory memory, boolean zeroed) {
        this.type = type;
        this.length = length;
        long bytes = ArraySize.byteSize(type, length);
        long alignment = Math.max(8, type.byteSize());
        this.host = zeroed ? memory.allocate(bytes, alignment) : memory.allocateUninitialized(bytes, alignment);
        this.memory = host.segment().asSlice(0, bytes);
        this.leases = new Leases(this::free);
        this.scopes = new AccessScopes(this.memory);
    }

    public ElementType type() {
        return type;
    }

    public long length() {
        return length;
    }

    public long byteSize() {
        return memory.byteSize();
    }

    // ---------------------------------------------------------------------------------------------
    // Java access: segments that die with the buffer

    /** The host memory, current (a newer device copy is brought back first); dies at {@link #close()}. */
    public MemorySegment forHostRead() {
        checkOpen();
        noteHostRead();
        bringBack();
        return scopes.shared();
    }

    /**
     * The host memory for a writer that fills the buffer before anyone else sees it (the runtime's
     * Java executors writing an output): brought up to date, the device copy marked stale, the
     * version advanced now. Dies at {@link #close()}. Writes to memory others may already read go
     * through {@link #openWrite()} or {@link #put}, which advance the version after the write.
     */
    public MemorySegment forHostWrite() {
        checkOpen();
        bringBack();
        MemorySegment segment = scopes.shared();
        hostWritten();
        return segment;
    }

    /**
     * Element {@code index} (the caller checked the index), boxed. Once a read on some thread has
     * found the host copy current and read through the shared segment, later reads take that segment
     * from a plain field ({@link #readable}) with no other check: a loop of {@code get}s then compiles
     * to plain loads the JIT can hoist and vectorise, where the checks' volatile reads (open? device
     * copy newer? the segment?) had kept it at about 2.7 ns per element against 0.5 for a
     * {@code float[]} (PoCL's host, {@code probe SegProbe}). Whatever can make the host copy stale or
     * unreadable clears the field first: a kernel that writes the buffer ({@link #deviceWritten}), a
     * new device copy ({@link #setMirror}), a read hint to report ({@link #reportReadTo}), the close.
     * On the thread that did that, the next read takes the checked path; another thread sees it as
     * Java's memory model lets it see a write it has no happens-before edge with (a race the program
     * has already), and memory stays safe either way: the segment dies with the buffer.
     */
    public Object get(long index) {
        MemorySegment scoped = readable;
        if (scoped == null || readableWrites != writesSeen) {
            scoped = checkedForRead();
            if (scoped == null) {
                return getLeased(index);
            }
        }
        // one read for both paths: its box is the only object the caller's loop sees, which escape analysis removes
        try {
            return type.get(scoped, index);
        } catch (IllegalStateException e) {
            throw closedDuringAccess(e);
        }
    }

    /**
     * The checks of a read (open, the read hint told, a newer device copy brought back): the shared
     * segment, kept as {@link #readable} for the reads after this one, or null while reads still go
     * through leases (the first few).
     */
    private MemorySegment checkedForRead() {
        noteHostRead();
        long writes = writesSeen; // before the checks: a kernel write after them makes the pair stale
        MemorySegment scoped = forElementAccess();
        if (scoped != null) {
            readableWrites = writes;
            readable = scoped;
        }
        return scoped;
    }

    /** Sets element {@code index} (the caller checked the index and the value's type). */
    public void put(long index, Object value) {
        MemorySegment scoped = forElementAccess();
        if (scoped == null) {
            putLeased(index, value);
        } else {
            try {
                type.put(scoped, index, value);
            } catch (IllegalStateException e) {
                throw closedDuringAccess(e);
            }
        }
        hostWritten();
    }

    /*
     * The leased element accesses are methods of their own: the common path (the shared segment) then
     * stays small enough for the JIT to inline whole into the caller's loop, where the box of the
     * element disappears.
     */

    private Object getLeased(long index) {
        acquireLease();
        try {
            return type.get(memory, index);
        } finally {
            releaseLease();
        }
    }

    private void putLeased(long index, Object value) {
        acquireLease();
        try {
            type.put(memory, index, value);
        } finally {
            releaseLease();
        }
    }

    /** The shared segment for an element access, current; or null when the caller should take a lease. */
    private MemorySegment forElementAccess() {
        checkOpen();
        bringBack();
        if (scopes.hasShared() || ++leasedElementAccesses > LEASED_ELEMENT_ACCESSES) {
            return scopes.shared();
        }
        return null;
    }

    /**
     * Opens a write scope: a writable segment over the current host memory that dies when the scope
     * is closed or the buffer closes. Closing the scope advances the version, so the next kernel
     * sends what was written.
     */
    public Write openWrite() {
        checkOpen();
        bringBack();
        return new Write(scopes.openWrite());
    }

    /** A write scope of this buffer ({@link #openWrite()}). */
    public final class Write implements AutoCloseable {
        private final AccessScopes.Write scope;

        private Write(AccessScopes.Write scope) {
            this.scope = scope;
        }

        /** The writable memory; it throws {@link IllegalStateException} once the scope or the buffer is closed. */
        public MemorySegment segment() {
            return scope.segment();
        }

        /** Ends the scope: its segment dies, and the buffer counts as written. Idempotent. */
        @Override
        public void close() {
            scopes.endWrite(scope); // after this no thread is still writing through the segment
            hostWritten();
        }
    }

    /**
     * Element {@code index}, boxed, without bringing a newer device copy back in full: only that
     * element moves. For runtime type analysis, which runs the function on element 0 of an input
     * that may be an intermediate still on the device.
     */
    public Object element(long index) {
        acquireLease();
        try {
            DeviceMirror current = mirror;
            if (current != null) {
                MemorySegment one = java.lang.foreign.Arena.ofAuto().allocate(type.byteSize(), Math.max(8, type.byteSize()));
                if (current.readIfDeviceNewer(this, index * type.byteSize(), one)) {
                    return type.get(one, 0);
                }
            }
            return type.get(memory, index);
        } finally {
            releaseLease();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Leased access: native code and bulk copies

    /**
     * Keeps the memory allocated until {@link #releaseLease()}, even if the buffer is closed
     * meanwhile (the free then waits for the release).
     *
     * @throws IllegalStateException if the buffer is closed
     */
    public void acquireLease() {
        leases.acquire();
    }

    /** Ends a lease taken by {@link #acquireLease()}. */
    public void releaseLease() {
        leases.release();
    }

    /**
     * The host memory as it is, with no copy-back, no version change and no scope: valid only
     * between {@link #acquireLease()} and {@link #releaseLease()} of the calling code. For driver
     * transfers (which know the state of the device copy) and bulk copies.
     */
    public MemorySegment leasedMemory() {
        return memory;
    }

    /** {@link #leasedMemory()} after bringing a newer device copy back: for a bulk read under a lease. */
    public MemorySegment leasedForHostRead() {
        noteHostRead();
        bringBack();
        return memory;
    }

    /**
     * {@link #leasedMemory()} for a writer that fills the buffer before anyone else sees it (as
     * {@link #forHostWrite()}, under a lease instead of an arena).
     */
    public MemorySegment leasedForHostWrite() {
        bringBack();
        hostWritten();
        return memory;
    }

    // ---------------------------------------------------------------------------------------------
    // Versions and the device copy

    /** The allocation behind the memory (pinned memory names its driver object). */
    public HostAllocation allocation() {
        return host;
    }

    /** Advances with every host write; the runtime compares it with the version it sent. */
    public long hostVersion() {
        return hostVersion.get();
    }

    /**
     * Records a host write that has been made: the device copy is stale from now on. Called after
     * the data is in memory, so a kernel that read the version before this call and sent the data
     * sent either the new data or an older version number (then it sends again next time), never the
     * new number with old data.
     */
    public void hostWritten() {
        DeviceMirror current = mirror;
        if (current != null) {
            current.hostWritten(this);
        }
        hostVersion.incrementAndGet();
    }

    public DeviceMirror mirror() {
        return mirror;
    }

    /**
     * Advances with every write to the array's contents wherever it is made: on the host
     * ({@link #hostWritten()}) or by a kernel on the device copy ({@link #deviceWritten()}). Copies
     * that are not the {@linkplain #mirror() mirror} (a split function's {@link Replicas}) are current
     * while their version equals it.
     */
    public long contentVersion() {
        return hostVersion.get() + deviceWrites.get();
    }

    /** Records that a kernel has been enqueued to write the device copy (the mirror): other copies are stale from now on. */
    public void deviceWritten() {
        writesSeen = deviceWrites.incrementAndGet();
        readable = null;
    }

    /**
     * Copies of (parts of) this buffer on several devices, kept apart from the {@linkplain #mirror()
     * mirror}, never newer than the array's contents: released with the buffer.
     */
    public interface Replicas {
        /** The buffer is freed: give the device memory back. */
        void release();
    }

    /** The replicas attached to this buffer, or null. */
    public Replicas replicas() {
        return replicas;
    }

    /**
     * Attaches {@code made.get()} as this buffer's replicas unless some are attached already, and
     * returns the attached ones.
     *
     * @throws IllegalStateException if the buffer is closed
     */
    public synchronized Replicas attachReplicas(java.util.function.Supplier<Replicas> made) {
        checkOpen();
        if (replicas == null) {
            replicas = made.get();
        }
        return replicas;
    }

    /** Attaches (or, with null, detaches) the device copy. */
    public void setMirror(DeviceMirror mirror) {
        readable = null;
        this.mirror = mirror;
    }

    /**
     * Tells {@code hint} (the function that computed this buffer) whether the host reads it: at the
     * first host read, or, if none comes, when the buffer is freed.
     */
    public void reportReadTo(HostReadHint hint) {
        readable = null; // the next read must tell the hint
        readHint = hint;
    }

    private void noteHostRead() {
        HostReadHint hint = readHint;
        if (hint != null) {
            readHint = null;
            hint.read();
        }
    }

    private void bringBack() {
        DeviceMirror current = mirror;
        if (current != null) {
            current.beforeHostRead(this);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Life cycle

    public boolean isClosed() {
        return leases.isClosed();
    }

    /**
     * Closes the buffer: no new access or lease is given from now on, every segment given out dies
     * now, and the memory (device copy and host block) is freed as soon as no lease is held, which
     * is now unless another thread's transfer is in flight. Idempotent, from any thread.
     */
    public void close() {
        readable = null; // this thread's next read says the array is closed, rather than that it closed during the read
        if (!leases.tryAcquire()) {
            return; // closed already
        }
        try {
            if (leases.close()) {
                scopes.close();
            }
        } finally {
            leases.release(); // the free runs here unless a lease is still held elsewhere
        }
    }

    /** Frees the device copy and the host memory: run once, by the last lease after the close. */
    private synchronized void free() {
        HostReadHint hint = readHint;
        if (hint != null) {
            readHint = null;
            hint.releasedUnread();
        }
        DeviceMirror current = mirror;
        mirror = null;
        if (current != null) {
            current.release(this);
        }
        Replicas copies = replicas;
        replicas = null;
        if (copies != null) {
            copies.release();
        }
        host.release();
    }

    private void checkOpen() {
        if (leases.isClosed()) {
            throw new IllegalStateException("this array's memory was released (the PArray is closed)");
        }
    }

    private static IllegalStateException closedDuringAccess(IllegalStateException cause) {
        return new IllegalStateException("the PArray was closed (by another thread) during this access", cause);
    }
}
