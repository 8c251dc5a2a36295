package jpai;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * A portable array: elements stored by value, off the Java heap, in the layout a device reads
 * directly (so sending it to OpenCL needs no marshalling). Lengths are {@code long}.
 *
 * <p>Memory is released by {@link #close()} (use try-with-resources); a {@link Cleaner} releases it
 * if the array becomes unreachable unclosed. Using a closed array throws
 * {@link IllegalStateException}. Not synchronised: share an array between threads for reading, or
 * hand it over.
 *
 * @param <T> the element's wrapper type ({@code Float}, {@code Integer}, ...)
 */
public final class PArray<T> implements AutoCloseable {

    private static final Cleaner CLEANER = Cleaner.create();

    private final ElementType type;
    private final long length;
    private final Storage storage;
    private final Cleaner.Cleanable cleanable;

    /** Owns the native memory; separate from the array so the cleaner does not keep it reachable. */
    private static final class Storage implements Runnable {
        final Arena arena = Arena.ofShared();
        volatile boolean closed;

        @Override
        public void run() {
            if (!closed) {
                closed = true;
                arena.close();
            }
        }
    }

    private final MemorySegment segment;

    private PArray(ElementType type, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative PArray length: " + length);
        }
        this.type = type;
        this.length = length;
        this.storage = new Storage();
        this.segment = storage.arena.allocate(Math.max(1, length * type.byteSize()), Math.max(8, type.byteSize()));
        this.cleanable = CLEANER.register(this, storage);
    }

    /** A zero-filled array of {@code length} elements of {@code elementType} ({@code Float.class}, ...). */
    public static <T> PArray<T> allocate(Class<T> elementType, long length) {
        return new PArray<>(ElementType.of(elementType), length);
    }

    /** A zero-filled array of {@code length} elements of {@code type}. */
    public static PArray<?> allocate(ElementType type, long length) {
        return new PArray<>(type, length);
    }

    public static PArray<Float> of(float... values) {
        return copyOf(Float.class, MemorySegment.ofArray(values));
    }

    public static PArray<Double> of(double... values) {
        return copyOf(Double.class, MemorySegment.ofArray(values));
    }

    public static PArray<Integer> of(int... values) {
        return copyOf(Integer.class, MemorySegment.ofArray(values));
    }

    public static PArray<Long> of(long... values) {
        return copyOf(Long.class, MemorySegment.ofArray(values));
    }

    /** A new array holding a copy of {@code values}, a heap segment over a primitive array of {@code type}. */
    private static <T> PArray<T> copyOf(Class<T> type, MemorySegment values) {
        PArray<T> array = allocate(type, values.byteSize() / ElementType.of(type).byteSize());
        MemorySegment.copy(values, 0, array.segment, 0, values.byteSize());
        return array;
    }

    public ElementType elementType() {
        return type;
    }

    public long length() {
        return length;
    }

    /** Element {@code index}, boxed. */
    @SuppressWarnings("unchecked")
    public T get(long index) {
        checkIndex(index);
        return (T) type.get(segment, index);
    }

    /** Sets element {@code index}. */
    public void put(long index, T value) {
        checkIndex(index);
        Objects.requireNonNull(value, "PArray elements are values and cannot be null");
        if (!type.boxClass().isInstance(value)) {
            throw new ClassCastException("a PArray<" + type.boxClass().getSimpleName() + "> cannot hold a " + value.getClass().getSimpleName());
        }
        type.put(segment, index, value);
    }

    /** The elements as a new {@code float[]}; this must be a {@code PArray<Float>} of at most 2^31-1 elements. */
    public float[] toFloatArray() {
        return segmentForRead(ElementType.FLOAT).toArray(ValueLayout.JAVA_FLOAT);
    }

    public double[] toDoubleArray() {
        return segmentForRead(ElementType.DOUBLE).toArray(ValueLayout.JAVA_DOUBLE);
    }

    public int[] toIntArray() {
        return segmentForRead(ElementType.INT).toArray(ValueLayout.JAVA_INT);
    }

    public long[] toLongArray() {
        return segmentForRead(ElementType.LONG).toArray(ValueLayout.JAVA_LONG);
    }

    private MemorySegment segmentForRead(ElementType expected) {
        if (type != expected) {
            throw new ClassCastException("this PArray holds " + type.boxClass().getSimpleName() + ", not " + expected.boxClass().getSimpleName());
        }
        return segment().asSlice(0, length * type.byteSize());
    }

    /**
     * The storage, exactly {@code length * elementType().byteSize()} bytes, little-endian as the host.
     * For the runtime and for interoperation; valid until {@link #close()}.
     */
    public MemorySegment segment() {
        checkOpen();
        return segment.asSlice(0, length * type.byteSize());
    }

    public boolean isClosed() {
        return storage.closed;
    }

    /** Releases the memory now. Idempotent. */
    @Override
    public void close() {
        cleanable.clean();
    }

    private void checkOpen() {
        if (storage.closed) {
            throw new IllegalStateException("this PArray<" + type.boxClass().getSimpleName() + "> of " + length + " elements is closed");
        }
    }

    private void checkIndex(long index) {
        checkOpen();
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " out of bounds for a PArray of length " + length);
        }
    }

    /** Shows the type, the length and the first elements: {@code PArray<Float>[1000000] {0.5, 1.25, ...}}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("PArray<").append(type.boxClass().getSimpleName()).append(">[").append(length).append("]");
        if (storage.closed) {
            return text.append(" (closed)").toString();
        }
        text.append(" {");
        long shown = Math.min(length, 8);
        for (long i = 0; i < shown; i++) {
            text.append(i == 0 ? "" : ", ").append(type.get(segment, i));
        }
        return text.append(length > shown ? ", ...}" : "}").toString();
    }
}
