package jpai.runtime.opencl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.jocl.Pointer;

import jdk.vm.ci.meta.JavaKind;
import jpai.runtime.memory.ComponentBuffer;

/**
 * What one kernel launch binds, by argument index, and how large it is: the runtime core fills one
 * per apply and hands it to {@link DeviceContext#launch}. It knows buffers and values, not what
 * they mean to the operation (input, output, partial results...): that is the caller's business.
 *
 * <ul>
 * <li>{@link #readBuffer}: the kernel reads the buffer; its data is sent only if the device copy is
 * missing or stale.</li>
 * <li>{@link #writeBuffer}: the kernel writes the buffer, every element of it; nothing is sent, and
 * afterwards the device copy is the newest (the host copy comes back on first host access, or at
 * the end of the launch with {@code keepResultOnDevice(false)}).</li>
 * <li>{@link #readArray}: a captured Java array, sent with every launch (keep it small).</li>
 * <li>{@link #writtenValues}: a few values the kernel writes, read back after it, never sent.</li>
 * <li>{@link #readWriteArray}: a Java array the kernel may write, sent with the launch and read
 * back after it into a direct buffer of the caller's (the caller decides whether the array gets
 * it).</li>
 * <li>{@link #scalar}: a value of a primitive kind.</li>
 * <li>{@link #local}: a {@code __local} buffer of the given size.</li>
 * <li>{@link #status}: two ints, zeroed before the launch and read back after
 * ({@link LaunchResult#status(int)}).</li>
 * </ul>
 *
 * <p>Not thread-safe: build and launch it on one thread. The buffers it names must stay open until
 * the launch returns.
 */
public final class KernelLaunch {

    /** One argument binding. */
    sealed interface Binding permits ReadBuffer, WriteBuffer, UpdateBuffer, ReadArray, ReadWriteArray, WrittenValues, Scalar, Local, Status, UnwrittenStatus {
        int index();
    }

    record ReadBuffer(int index, ComponentBuffer buffer) implements Binding {
    }

    record WriteBuffer(int index, ComponentBuffer buffer) implements Binding {
    }

    record UpdateBuffer(int index, ComponentBuffer buffer) implements Binding {
    }

    record ReadArray(int index, Object array) implements Binding {
    }

    record ReadWriteArray(int index, Object array, java.nio.ByteBuffer readBack) implements Binding {
    }

    record WrittenValues(int index, java.nio.ByteBuffer readBack) implements Binding {
    }

    record Scalar(int index, JavaKind kind, Object value) implements Binding {
        /** The argument's size in bytes ({@code boolean} is one byte). */
        long byteSize() {
            return switch (kind) {
                case Boolean, Byte -> 1;
                case Short, Char -> 2;
                case Int, Float -> 4;
                case Long, Double -> 8;
                default -> throw new IllegalArgumentException("no scalar argument of kind " + kind);
            };
        }

        /** A JOCL pointer to the value as the kernel takes it (made only when the argument changed). */
        Pointer pointer() {
            return switch (kind) {
                case Boolean -> Pointer.to(new byte[] {(byte) (((Boolean) value) ? 1 : 0)});
                case Byte -> Pointer.to(new byte[] {(Byte) value});
                case Short -> Pointer.to(new short[] {(Short) value});
                case Char -> Pointer.to(new char[] {(Character) value});
                case Int -> Pointer.to(new int[] {(Integer) value});
                case Float -> Pointer.to(new float[] {(Float) value});
                case Long -> Pointer.to(new long[] {(Long) value});
                case Double -> Pointer.to(new double[] {(Double) value});
                default -> throw new IllegalArgumentException("no scalar argument of kind " + kind);
            };
        }
    }

    record Local(int index, long bytes) implements Binding {
    }

    record Status(int index) implements Binding {
    }

    record UnwrittenStatus(int index) implements Binding {
    }

    /** The most dimensions an OpenCL NDRange has. */
    public static final int MAX_DIMENSIONS = 3;

    private final List<Binding> bindings = new ArrayList<>();
    /** The argument indices below 64 that {@link #bindings} bind, as bits. */
    private long boundBelow64;
    /** Those from 64 on (kernels rarely have so many arguments). */
    private final List<Integer> boundFrom64 = new ArrayList<>(0);
    private int highestIndex = -1;
    /** Work-items per dimension, dimension 0 first (the one along which consecutive work-items lie); null until given. */
    private long[] globalSizes;
    /** Work-group size per dimension, or null: the driver chooses. */
    private long[] localSizes;
    private boolean localSizesMayShrink;
    private boolean localSizesTuned;
    private long perEnqueue;
    private long firstItem;
    private int baseIndexArgument = -1;
    private boolean keepResultOnDevice = true;
    /** Buffers whose device memory the caller placed on the launch's device ({@link #place}); empty for most launches. */
    private java.util.Map<ComponentBuffer, org.jocl.cl_mem> placed = java.util.Map.of();

    /**
     * Binds {@code memory}, on the launch's device, wherever {@code buffer} is bound: the caller has
     * put there what the kernel reads of it (a split function's replica) or collects from there what
     * the kernel writes; the buffer's own device copy ({@code DeviceResidency}) is neither used nor
     * changed, and nothing is copied back for it.
     */
    public KernelLaunch place(ComponentBuffer buffer, org.jocl.cl_mem memory) {
        if (placed.isEmpty()) {
            placed = new java.util.IdentityHashMap<>();
        }
        placed.put(Objects.requireNonNull(buffer, "place: the buffer is null"), Objects.requireNonNull(memory, "place: the memory is null"));
        return this;
    }

    /** Bytes {@code [from, to)} of a placed buffer's memory that the launch copies into the buffer's host memory ({@link #copyPlacedBack}). */
    record PlacedCopyBack(ComponentBuffer buffer, long from, long to) {
    }

    /** What the launch copies back of placed buffers; empty for most launches. */
    private List<PlacedCopyBack> placedCopyBacks = List.of();

    /**
     * After the kernel, copies bytes {@code [from, to)} of the memory placed for {@code buffer}
     * ({@link #place}) into the same bytes of the buffer's host memory, before the launch returns:
     * enqueued behind the kernel, covered by the launch's one wait (no second round trip to the
     * device), timed with its transfers to the host. The caller holds a lease of the buffer and
     * records the host write itself. Copied whatever the kernel's status: after an exit the caller
     * has Java write the elements from the exit on again.
     */
    public KernelLaunch copyPlacedBack(ComponentBuffer buffer, long from, long to) {
        if (!isPlaced(buffer)) {
            throw new IllegalArgumentException("copyPlacedBack: the buffer has no placed memory on this launch");
        }
        if (from < 0 || to > buffer.byteSize() || from > to) {
            throw new IllegalArgumentException("copyPlacedBack: bytes [" + from + ", " + to + ") are not within the buffer's " + buffer.byteSize());
        }
        if (placedCopyBacks.isEmpty()) {
            placedCopyBacks = new ArrayList<>();
        }
        placedCopyBacks.add(new PlacedCopyBack(buffer, from, to));
        return this;
    }

    List<PlacedCopyBack> placedCopyBacks() {
        return placedCopyBacks;
    }

    /** The array buffers bound so far (read, written or updated), in binding order, each once. */
    public List<ComponentBuffer> boundBuffers() {
        List<ComponentBuffer> buffers = new ArrayList<>();
        for (Binding binding : bindings) {
            ComponentBuffer buffer = switch (binding) {
                case ReadBuffer read -> read.buffer();
                case WriteBuffer write -> write.buffer();
                case UpdateBuffer update -> update.buffer();
                default -> null;
            };
            if (buffer != null && buffers.stream().noneMatch(b -> b == buffer)) {
                buffers.add(buffer);
            }
        }
        return buffers;
    }

    /** Whether {@code buffer} is bound for the kernel to write (written or updated). */
    public boolean writes(ComponentBuffer buffer) {
        for (Binding binding : bindings) {
            if ((binding instanceof WriteBuffer write && write.buffer() == buffer) || (binding instanceof UpdateBuffer update && update.buffer() == buffer)) {
                return true;
            }
        }
        return false;
    }

    boolean isPlaced(ComponentBuffer buffer) {
        return !placed.isEmpty() && placed.containsKey(buffer);
    }

    org.jocl.cl_mem placed(ComponentBuffer buffer) {
        return placed.get(buffer);
    }

    public KernelLaunch readBuffer(int index, ComponentBuffer buffer) {
        return bind(index, new ReadBuffer(index, Objects.requireNonNull(buffer, "readBuffer: the buffer is null")));
    }

    public KernelLaunch writeBuffer(int index, ComponentBuffer buffer) {
        return bind(index, new WriteBuffer(index, Objects.requireNonNull(buffer, "writeBuffer: the buffer is null")));
    }

    /**
     * A buffer the kernel reads and writes in place: its device copy is sent only if stale (as
     * {@link #readBuffer}) and becomes the newer copy after the launch; the host sees the data when
     * it next reads the buffer. A caller whose kernel may exit with the buffer half written keeps an
     * {@link InPlaceUpdate} to undo it.
     */
    public KernelLaunch updateBuffer(int index, ComponentBuffer buffer) {
        return bind(index, new UpdateBuffer(index, Objects.requireNonNull(buffer, "updateBuffer: the buffer is null")));
    }

    /** A primitive Java array ({@code float[]}, {@code int[]}, ..., {@code boolean[]} as bytes 0/1), copied in with each launch. */
    public KernelLaunch readArray(int index, Object primitiveJavaArray) {
        checkPrimitiveArray(index, primitiveJavaArray, "readArray");
        return bind(index, new ReadArray(index, primitiveJavaArray));
    }

    private static void checkPrimitiveArray(int index, Object primitiveJavaArray, String method) {
        Objects.requireNonNull(primitiveJavaArray, method + ": the array is null");
        if (!primitiveJavaArray.getClass().isArray() || !primitiveJavaArray.getClass().componentType().isPrimitive()) {
            throw new IllegalArgumentException(method + ": argument " + index + " must be a primitive array, not a " + primitiveJavaArray.getClass().getSimpleName());
        }
    }

    /**
     * A primitive Java array the kernel reads and may write: sent with the launch like
     * {@link #readArray}, and after the kernel its device copy is read into {@code readBack} (a
     * direct buffer in native byte order of the array's size in bytes; a {@code boolean[]} as bytes
     * 0/1), before the launch returns. The array itself is not changed: the caller copies
     * {@code readBack} into it when the kernel's status says its results are Java's.
     */
    /**
     * A few values the kernel writes and the caller wants back (a count known only at the end): a
     * temporary device buffer of {@code readBack}'s capacity, not sent (the kernel must write what
     * the caller reads), read into {@code readBack} (direct) before the launch returns. Unlike
     * {@link #readWriteArray} nothing is copied before the kernel, which spares a blocking send.
     */
    public KernelLaunch writtenValues(int index, java.nio.ByteBuffer readBack) {
        Objects.requireNonNull(readBack, "writtenValues: the read-back buffer is null");
        if (!readBack.isDirect() || readBack.capacity() == 0) {
            throw new IllegalArgumentException("writtenValues: argument " + index + " needs a direct, non-empty read-back buffer");
        }
        return bind(index, new WrittenValues(index, readBack));
    }

    public KernelLaunch readWriteArray(int index, Object primitiveJavaArray, java.nio.ByteBuffer readBack) {
        Objects.requireNonNull(readBack, "readWriteArray: the read-back buffer is null");
        checkPrimitiveArray(index, primitiveJavaArray, "readWriteArray");
        if (!readBack.isDirect()) {
            throw new IllegalArgumentException("readWriteArray: argument " + index + " needs a direct read-back buffer");
        }
        return bind(index, new ReadWriteArray(index, primitiveJavaArray, readBack));
    }

    /**
     * A scalar of {@code kind}, given as its wrapper ({@code Integer} for {@code JavaKind.Int}, ...).
     * {@code boolean} is passed as one byte (0 or 1), {@code char} as an unsigned 16-bit value.
     */
    public KernelLaunch scalar(int index, JavaKind kind, Object boxedValue) {
        Objects.requireNonNull(kind, "scalar: the kind is null");
        Objects.requireNonNull(boxedValue, "scalar: the value is null");
        if (!kind.isPrimitive() || kind == JavaKind.Void) {
            throw new IllegalArgumentException("scalar: argument " + index + " must have a primitive kind, not " + kind);
        }
        if (kind.toBoxedJavaClass() != boxedValue.getClass()) {
            throw new IllegalArgumentException("scalar: argument " + index + " is declared " + kind.getJavaName() + " but the value is a "
                    + boxedValue.getClass().getSimpleName());
        }
        return bind(index, new Scalar(index, kind, boxedValue));
    }

    /** A {@code __local} buffer of {@code bytes} bytes (work-group scratch). */
    public KernelLaunch local(int index, long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("local: argument " + index + " needs at least 1 byte, not " + bytes);
        }
        return bind(index, new Local(index, bytes));
    }

    /**
     * The status argument of a kernel whose code never writes it (no function it calls can exit):
     * bound to a buffer of the context that nobody zeroes or reads, so the launch has no status.
     */
    public KernelLaunch unwrittenStatus(int index) {
        return bind(index, new UnwrittenStatus(index));
    }

    /** A buffer of two ints, zeroed before the launch and read back after it. At most one per launch. */
    public KernelLaunch status(int index) {
        for (Binding existing : bindings) {
            if (existing instanceof Status) {
                throw new IllegalArgumentException("status: a launch has one status buffer; argument " + index + " would be a second");
            }
        }
        return bind(index, new Status(index));
    }

    /**
     * The number of work-items in each dimension, dimension 0 first: one number for a 1-D NDRange,
     * two or three for a 2-D or 3-D one ({@code get_global_id(d)} runs over {@code 0 ..
     * workItems[d] - 1}). A zero anywhere launches no kernel (the status, if any, reads zero).
     */
    public KernelLaunch globalSize(long... workItemsPerDimension) {
        Objects.requireNonNull(workItemsPerDimension, "globalSize: the sizes are null");
        if (workItemsPerDimension.length < 1 || workItemsPerDimension.length > MAX_DIMENSIONS) {
            throw new IllegalArgumentException("an NDRange has 1 to " + MAX_DIMENSIONS + " dimensions, not " + workItemsPerDimension.length);
        }
        for (long size : workItemsPerDimension) {
            if (size < 0) {
                throw new IllegalArgumentException("globalSize must not be negative: " + Arrays.toString(workItemsPerDimension));
            }
        }
        this.globalSizes = workItemsPerDimension.clone();
        return this;
    }

    /**
     * The work-group size in each dimension (as many as the global size has); a single 0 (the
     * default) lets the driver choose. With sizes given, each global size must be a multiple of its
     * local size.
     */
    public KernelLaunch localSize(long... workItemsPerDimension) {
        Objects.requireNonNull(workItemsPerDimension, "localSize: the sizes are null");
        if (workItemsPerDimension.length == 1 && workItemsPerDimension[0] == 0) {
            this.localSizes = null;
            return this;
        }
        if (workItemsPerDimension.length < 1 || workItemsPerDimension.length > MAX_DIMENSIONS) {
            throw new IllegalArgumentException("a work-group has 1 to " + MAX_DIMENSIONS + " dimensions, not " + workItemsPerDimension.length);
        }
        for (long size : workItemsPerDimension) {
            if (size < 1) {
                throw new IllegalArgumentException("localSize must be positive in every dimension: " + Arrays.toString(workItemsPerDimension));
            }
        }
        this.localSizes = workItemsPerDimension.clone();
        return this;
    }

    /**
     * Lets the launcher halve the local sizes (each a power of two) until the work-group fits what
     * the built kernel allows ({@code CL_KERNEL_WORK_GROUP_SIZE}, which a kernel using many registers
     * may have below the device's maximum). For kernels whose work-group size is only a speed choice
     * (a map); never for one whose results depend on it (a reduction's tree).
     */
    public KernelLaunch localSizeMayShrink() {
        this.localSizesMayShrink = true;
        return this;
    }

    /**
     * Lets the launcher choose the work-group size, measured per kernel and device
     * ({@link WorkGroupTuning}): the local sizes given (powers of two) are the largest group
     * allowed, and the launcher uses them or a smaller power of two, halving the outermost
     * dimensions first so that dimension 0, along which neighbouring work-items lie, stays the
     * widest. Implies {@link #localSizeMayShrink()}, so only for kernels whose results do not depend
     * on the group size. A kernel compiled with {@code reqd_work_group_size} keeps the sizes given.
     */
    public KernelLaunch localSizeTuned() {
        this.localSizesMayShrink = true;
        this.localSizesTuned = true;
        return this;
    }

    /**
     * At most this many work-items of the last (outermost) dimension per enqueue: a larger NDRange is
     * enqueued in slabs along that dimension (the last one shorter), each with the offset of its
     * first work-item there, so that {@code get_global_id} runs over the whole range. 0 (the default)
     * enqueues the range at once. With a local size given, it must be a multiple of the local size
     * of that dimension.
     */
    public KernelLaunch perEnqueue(long workItems) {
        if (workItems < 0) {
            throw new IllegalArgumentException("perEnqueue must not be negative: " + workItems);
        }
        this.perEnqueue = workItems;
        return this;
    }

    /**
     * The launch's first work-item in the last (outermost) dimension: its global size of work-items
     * there starts at {@code first} instead of 0 (as its base index, or as a global offset for a
     * kernel without one), so that it covers the end of a range whose start was computed elsewhere
     * (tiering: Java threads ran the rows before it).
     */
    public KernelLaunch firstItem(long first) {
        if (first < 0) {
            throw new IllegalArgumentException("firstItem must not be negative: " + first);
        }
        this.firstItem = first;
        return this;
    }

    long firstItem() {
        return firstItem;
    }

    private boolean measuresDeviceTimes;

    /**
     * This launch measures its device times whatever {@code -Djpai.deviceTimes} samples: its caller
     * acts on them (a split's part: the devices' shares and the minimum split work follow them).
     */
    public KernelLaunch measureDeviceTimes() {
        this.measuresDeviceTimes = true;
        return this;
    }

    boolean measuresDeviceTimes() {
        return measuresDeviceTimes;
    }

    /**
     * Whether written buffers stay on the device until the host reads them (true, the default) or
     * come back before the launch returns (false: the launch's profile then includes the copy-back).
     */
    public KernelLaunch keepResultOnDevice(boolean keep) {
        this.keepResultOnDevice = keep;
        return this;
    }

    List<Binding> bindings() {
        return bindings;
    }

    /**
     * The number of work-items of all dimensions together (the product of the global sizes), or -1
     * before a global size is given.
     */
    long globalSize() {
        if (globalSizes == null) {
            return -1;
        }
        long product = 1;
        for (long size : globalSizes) { // a loop, not a stream: this runs on every apply
            product = Math.multiplyExact(product, size);
        }
        return product;
    }

    /** The global sizes per dimension, or null if none were given. */
    long[] globalSizes() {
        return globalSizes;
    }

    /** The local sizes per dimension, or null when the driver chooses. */
    long[] localSizes() {
        return localSizes;
    }

    boolean localSizesMayShrink() {
        return localSizesMayShrink;
    }

    boolean localSizesTuned() {
        return localSizesTuned;
    }

    /** The number of dimensions of the NDRange (1 before a global size is given). */
    int dimensions() {
        return globalSizes == null ? 1 : globalSizes.length;
    }

    /**
     * Marks argument {@code index} as the kernel's first-element index ({@code BASE_INDEX}, a
     * {@code long}): bound to 0 like any scalar, and set to each enqueue's first work-item in the
     * last dimension when the launch is split, which then enqueues with no global work offset.
     */
    public KernelLaunch baseIndexArgument(int index) {
        this.baseIndexArgument = index;
        return this;
    }

    int baseIndexArgument() {
        return baseIndexArgument;
    }

    long perEnqueue() {
        return perEnqueue;
    }

    boolean keepsResultOnDevice() {
        return keepResultOnDevice;
    }

    /**
     * Adds {@code binding}, of argument {@code index}. The indices bound are kept apart from the
     * records (a mask below 64, a list above): this runs on every apply, and asking each record for its
     * index through the interface would enter every record type's accessor as a compiled method of its
     * own (an entry barrier each after a full collection: docs/runtime.md).
     */
    private KernelLaunch bind(int index, Binding binding) {
        if (index < 0) {
            throw new IllegalArgumentException("kernel argument indices start at 0, not " + index);
        }
        if (isBound(index)) {
            throw new IllegalArgumentException("kernel argument " + index + " is bound twice");
        }
        if (index < Long.SIZE) {
            boundBelow64 |= 1L << index;
        } else {
            boundFrom64.add(index);
        }
        highestIndex = Math.max(highestIndex, index);
        bindings.add(binding);
        return this;
    }

    /** Whether argument {@code index} is bound. */
    boolean isBound(int index) {
        return index < Long.SIZE ? (boundBelow64 & (1L << index)) != 0 : boundFrom64.contains(index);
    }

    /** The highest argument index bound, or -1 when none is. */
    int highestIndex() {
        return highestIndex;
    }
}
