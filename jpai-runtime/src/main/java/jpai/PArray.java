package jpai;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * A portable array: elements stored by value, off the Java heap, in the layout a device reads
 * directly, so sending it to OpenCL needs no marshalling. An array of {@code TupleN} is stored as N
 * flat arrays, one per component (struct of arrays). Lengths are {@code long}: an array may have
 * more than 2^31 elements.
 *
 * <p>Element types: {@code Byte, Short, Character, Integer, Long, Float, Double, Boolean} and
 * {@link Tuple2}…{@link Tuple8} of them ({@link DataType}).
 *
 * <p>Memory is released by {@link #close()} (use try-with-resources); a {@link Cleaner} releases it
 * if the array becomes unreachable unclosed. Using a closed array throws
 * {@link IllegalStateException}. A <em>view</em> ({@link #zip}, {@link #component}) shares the
 * storage of the arrays it was made from: closing a view releases nothing, closing the original
 * closes the view too. Not synchronised: share an array between threads for reading, or hand it
 * over.
 *
 * @param <T> the element type as lambdas see it ({@code Float}, {@code Tuple2<Float, Integer>}, ...)
 */
public final class PArray<T> implements AutoCloseable {

    private static final Cleaner CLEANER = Cleaner.create();

    private final DataType type;
    private final long length;
    private final ComponentBuffer[] buffers;
    /** For an owner: releases the buffers. Null for a view. */
    private final Cleaner.Cleanable cleanable;
    /** For a view: the arrays it reads, kept reachable so their cleaners cannot free its storage. */
    private final List<PArray<?>> sources;
    private volatile boolean viewClosed;
    /**
     * For an array made by {@link #range}: the host version of its buffer when it was filled, so that
     * any later write ends its being a range; {@link #NOT_A_RANGE} for every other array.
     */
    private volatile long rangeVersion = NOT_A_RANGE;
    private static final long NOT_A_RANGE = Long.MIN_VALUE;

    /** Owns the buffers; separate from the array so the cleaner does not keep the array reachable. */
    private record Release(ComponentBuffer[] buffers) implements Runnable {
        @Override
        public void run() {
            for (ComponentBuffer buffer : buffers) {
                buffer.release();
            }
        }
    }

    private PArray(DataType type, long length) {
        this(type, length, true);
    }

    private PArray(DataType type, long length, boolean zeroed) {
        if (length < 0) {
            throw new IllegalArgumentException("negative PArray length: " + length);
        }
        this.type = Objects.requireNonNull(type, "element type");
        for (ElementType component : type.components()) {
            // The byte size must be a long: a length whose byte size overflows would reserve a few
            // bytes and hand out indices far past them (issue 19: a crash of the JVM on the first apply).
            if (length > Long.MAX_VALUE / Math.max(1, component.byteSize())) {
                throw new IllegalArgumentException("a PArray<" + type.javaName() + "> of " + length + " elements would need more than Long.MAX_VALUE bytes for its "
                                + component.javaName() + " component");
            }
        }
        this.length = length;
        List<ElementType> components = type.components();
        this.buffers = new ComponentBuffer[components.size()];
        // The first allocation makes the device choice, which installs the chosen device's pinned memory.
        HostMemory memory = OpenCLRuntime.hostMemory();
        try {
            for (int i = 0; i < buffers.length; i++) {
                buffers[i] = new ComponentBuffer(components.get(i), length, memory, zeroed);
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            new Release(java.util.Arrays.stream(buffers).filter(Objects::nonNull).toArray(ComponentBuffer[]::new)).run();
            throw e;
        }
        this.cleanable = CLEANER.register(this, new Release(buffers.clone()));
        this.sources = List.of();
    }

    /** A view over {@code buffers} of {@code sources}. */
    private PArray(DataType type, long length, ComponentBuffer[] buffers, List<PArray<?>> sources) {
        this.type = type;
        this.length = length;
        this.buffers = buffers;
        this.cleanable = null;
        this.sources = List.copyOf(sources);
    }

    // ---------------------------------------------------------------------------------------------
    // Making arrays

    /** A zero-filled array of {@code length} elements of the scalar type {@code elementType} ({@code Float.class}, ...). */
    public static <T> PArray<T> allocate(Class<T> elementType, long length) {
        return new PArray<>(ElementType.of(elementType), length);
    }

    /** A zero-filled array of {@code length} elements of {@code type} (scalar or tuple). */
    public static PArray<?> allocate(DataType type, long length) {
        return new PArray<>(type, length);
    }

    /**
     * An array of {@code length} elements of {@code type} whose contents are undefined until written:
     * for code that writes every element before reading any (the runtime's kernel outputs), which
     * saves zeroing memory about to be overwritten. Reading an element not yet written gives an
     * arbitrary value of the type, never anything outside Java's safety.
     */
    public static PArray<?> allocateUninitialized(DataType type, long length) {
        return new PArray<>(type, length, false);
    }

    /** A zero-filled array of tuples with these component types: {@code allocateTuples(n, Float.class, Integer.class)}. */
    @SuppressWarnings("unchecked")
    public static <T extends Tuple> PArray<T> allocateTuples(long length, Class<?>... componentTypes) {
        return (PArray<T>) allocate(TupleType.of(componentTypes), length);
    }

    public static PArray<Byte> of(byte... values) {
        Objects.requireNonNull(values, "PArray.of: the byte[] is null");
        return copyOf(Byte.class, MemorySegment.ofArray(values));
    }

    public static PArray<Short> of(short... values) {
        Objects.requireNonNull(values, "PArray.of: the short[] is null");
        return copyOf(Short.class, MemorySegment.ofArray(values));
    }

    public static PArray<Character> of(char... values) {
        Objects.requireNonNull(values, "PArray.of: the char[] is null");
        return copyOf(Character.class, MemorySegment.ofArray(values));
    }

    public static PArray<Integer> of(int... values) {
        Objects.requireNonNull(values, "PArray.of: the int[] is null");
        return copyOf(Integer.class, MemorySegment.ofArray(values));
    }

    public static PArray<Long> of(long... values) {
        Objects.requireNonNull(values, "PArray.of: the long[] is null");
        return copyOf(Long.class, MemorySegment.ofArray(values));
    }

    public static PArray<Float> of(float... values) {
        Objects.requireNonNull(values, "PArray.of: the float[] is null");
        return copyOf(Float.class, MemorySegment.ofArray(values));
    }

    public static PArray<Double> of(double... values) {
        Objects.requireNonNull(values, "PArray.of: the double[] is null");
        return copyOf(Double.class, MemorySegment.ofArray(values));
    }

    public static PArray<Boolean> of(boolean... values) {
        Objects.requireNonNull(values, "PArray.of: the boolean[] is null");
        PArray<Boolean> array = allocate(Boolean.class, values.length);
        MemorySegment memory = array.buffers[0].forHostWrite();
        for (int i = 0; i < values.length; i++) {
            memory.set(ValueLayout.JAVA_BYTE, i, (byte) (values[i] ? 1 : 0));
        }
        return array;
    }

    /**
     * The indices {@code 0, 1, ..., n - 1}: the usual input of a map over positions ({@code
     * AF.map((Integer i) -> ...)}). On the device a map over a range reads no input buffer, since
     * the element of work-item {@code i} is {@code i} itself: nothing is sent, nothing is read from
     * memory. The host memory holds the values too (Java executors and the host read them); writing
     * to the array makes it an ordinary array of ints from then on.
     *
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public static PArray<Integer> range(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("a range cannot have a negative length: " + n);
        }
        PArray<Integer> array = allocate(Integer.class, n);
        MemorySegment memory = array.buffers[0].forHostWrite();
        for (int i = 0; i < n; i++) {
            memory.setAtIndex(ValueLayout.JAVA_INT, i, i);
        }
        array.rangeVersion = array.buffers[0].hostVersion();
        return array;
    }

    /**
     * Whether this array still holds exactly {@code 0, 1, ..., length - 1} as {@link #range} made it
     * (no element written since). For the runtime.
     */
    public boolean isRange() {
        long version = rangeVersion;
        return version != NOT_A_RANGE && !isClosed() && buffers[0].hostVersion() == version;
    }

    /**
     * A new array of {@code elementType} holding a copy of {@code source}, whose size must be a
     * multiple of the element size (host byte order, as Java arrays and {@code MemorySegment}s have it).
     */
    public static <T> PArray<T> copyOf(Class<T> elementType, MemorySegment source) {
        ElementType type = ElementType.of(elementType);
        if (source.byteSize() % type.byteSize() != 0) {
            throw new IllegalArgumentException("a segment of " + source.byteSize() + " bytes is not a whole number of " + type.javaName() + " elements");
        }
        PArray<T> array = allocate(elementType, source.byteSize() / type.byteSize());
        MemorySegment.copy(source, 0, array.buffers[0].forHostWrite(), 0, source.byteSize());
        return array;
    }

    /** The 2 arrays as one array of {@code Tuple2}, sharing their storage (no copy). */
    public static <A, B> PArray<Tuple2<A, B>> zip(PArray<A> a, PArray<B> b) {
        return zipAll(a, b);
    }

    /** The 3 arrays as one array of {@code Tuple3}, sharing their storage (no copy). */
    public static <A, B, C> PArray<Tuple3<A, B, C>> zip(PArray<A> a, PArray<B> b, PArray<C> c) {
        return zipAll(a, b, c);
    }

    /** The 4 arrays as one array of {@code Tuple4}, sharing their storage (no copy). */
    public static <A, B, C, D> PArray<Tuple4<A, B, C, D>> zip(PArray<A> a, PArray<B> b, PArray<C> c, PArray<D> d) {
        return zipAll(a, b, c, d);
    }

    /** The 5 arrays as one array of {@code Tuple5}, sharing their storage (no copy). */
    public static <A, B, C, D, E> PArray<Tuple5<A, B, C, D, E>> zip(PArray<A> a, PArray<B> b, PArray<C> c, PArray<D> d, PArray<E> e) {
        return zipAll(a, b, c, d, e);
    }

    /** The 6 arrays as one array of {@code Tuple6}, sharing their storage (no copy). */
    public static <A, B, C, D, E, F> PArray<Tuple6<A, B, C, D, E, F>> zip(PArray<A> a, PArray<B> b, PArray<C> c, PArray<D> d, PArray<E> e, PArray<F> f) {
        return zipAll(a, b, c, d, e, f);
    }

    /** The 7 arrays as one array of {@code Tuple7}, sharing their storage (no copy). */
    public static <A, B, C, D, E, F, G> PArray<Tuple7<A, B, C, D, E, F, G>> zip(PArray<A> a, PArray<B> b, PArray<C> c, PArray<D> d, PArray<E> e, PArray<F> f, PArray<G> g) {
        return zipAll(a, b, c, d, e, f, g);
    }

    /** The 8 arrays as one array of {@code Tuple8}, sharing their storage (no copy). */
    public static <A, B, C, D, E, F, G, H> PArray<Tuple8<A, B, C, D, E, F, G, H>> zip(PArray<A> a, PArray<B> b, PArray<C> c, PArray<D> d, PArray<E> e, PArray<F> f, PArray<G> g, PArray<H> h) {
        return zipAll(a, b, c, d, e, f, g, h);
    }

    /** Zips 2 to 8 arrays of equal length into a view of tuples; checks everything first. */
    @SuppressWarnings("unchecked")
    private static <T> PArray<T> zipAll(PArray<?>... arrays) {
        List<ElementType> components = new ArrayList<>();
        List<ComponentBuffer> buffers = new ArrayList<>();
        for (int i = 0; i < arrays.length; i++) {
            PArray<?> array = Objects.requireNonNull(arrays[i], "zip: array " + (i + 1) + " is null");
            array.checkOpen();
            if (array.length != arrays[0].length) {
                throw new IllegalArgumentException("zip: array " + (i + 1) + " has " + array.length + " elements, array 1 has " + arrays[0].length + "; zipped arrays must have the same length");
            }
            if (!(array.type instanceof ElementType scalar)) {
                throw new IllegalArgumentException("zip: array " + (i + 1) + " holds " + array.type.javaName() + "; zip arrays of scalars (tuples do not nest)");
            }
            components.add(scalar);
            buffers.add(array.buffers[0]);
        }
        return (PArray<T>) new PArray<>(new TupleType(components), arrays[0].length, buffers.toArray(ComponentBuffer[]::new), List.of(arrays));
    }

    /**
     * Component {@code index} (from 0) of an array of tuples, as a view of its scalar array (no copy);
     * for a scalar array, index 0 is the array itself, as a view.
     */
    public PArray<?> component(int index) {
        checkOpen();
        if (index < 0 || index >= buffers.length) {
            throw new IndexOutOfBoundsException("component " + index + " of a PArray<" + type.javaName() + ">");
        }
        return new PArray<>(buffers[index].type(), length, new ComponentBuffer[] {buffers[index]}, List.of(this));
    }

    /** A view of this whole array: it shares the storage, and closing it releases nothing. */
    public PArray<T> view() {
        checkOpen();
        return new PArray<>(type, length, buffers.clone(), List.of(this));
    }

    // ---------------------------------------------------------------------------------------------
    // Reading and writing

    /** The element type: a scalar {@link ElementType} or a {@link TupleType}. */
    public DataType type() {
        return type;
    }

    /**
     * The scalar element type.
     *
     * @throws IllegalStateException for an array of tuples (see {@link #type()})
     */
    public ElementType elementType() {
        if (type instanceof ElementType scalar) {
            return scalar;
        }
        throw new IllegalStateException("a PArray<" + type.javaName() + "> has no scalar element type; see type()");
    }

    public long length() {
        return length;
    }

    /** True for an array of {@code TupleN}. */
    public boolean isTuples() {
        return type instanceof TupleType;
    }

    /** Element {@code index}: a wrapper object, or a new tuple of them. */
    @SuppressWarnings("unchecked")
    public T get(long index) {
        checkIndex(index);
        if (buffers.length == 1 && type instanceof ElementType scalar) {
            return (T) scalar.get(buffers[0].forHostRead(), index);
        }
        Object[] components = new Object[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            components[i] = buffers[i].type().get(buffers[i].forHostRead(), index);
        }
        return (T) Tuple.of(components);
    }

    /** Sets element {@code index} to {@code value} (a tuple's components go to their arrays). */
    public void put(long index, T value) {
        checkIndex(index);
        Objects.requireNonNull(value, "PArray elements are values and cannot be null");
        if (!type.isInstance(value)) {
            throw new ClassCastException("a PArray<" + type.javaName() + "> cannot hold " + describe(value));
        }
        if (value instanceof Tuple tuple) {
            for (int i = 0; i < buffers.length; i++) {
                buffers[i].type().put(buffers[i].forHostWrite(), index, tuple.get(i));
            }
        } else {
            ((ElementType) type).put(buffers[0].forHostWrite(), index, value);
        }
    }

    private static String describe(Object value) {
        try {
            return "a " + DataType.of(value).javaName();
        } catch (IllegalArgumentException e) {
            return "a " + value.getClass().getSimpleName();
        }
    }

    public byte[] toByteArray() {
        return hostSegment(ElementType.BYTE).toArray(ValueLayout.JAVA_BYTE);
    }

    public short[] toShortArray() {
        return hostSegment(ElementType.SHORT).toArray(ValueLayout.JAVA_SHORT);
    }

    public char[] toCharArray() {
        return hostSegment(ElementType.CHAR).toArray(ValueLayout.JAVA_CHAR);
    }

    public int[] toIntArray() {
        return hostSegment(ElementType.INT).toArray(ValueLayout.JAVA_INT);
    }

    public long[] toLongArray() {
        return hostSegment(ElementType.LONG).toArray(ValueLayout.JAVA_LONG);
    }

    /** The elements as a new {@code float[]}; this must be a {@code PArray<Float>} of at most 2^31-1 elements. */
    public float[] toFloatArray() {
        return hostSegment(ElementType.FLOAT).toArray(ValueLayout.JAVA_FLOAT);
    }

    public double[] toDoubleArray() {
        return hostSegment(ElementType.DOUBLE).toArray(ValueLayout.JAVA_DOUBLE);
    }

    public boolean[] toBooleanArray() {
        MemorySegment memory = hostSegment(ElementType.BOOLEAN);
        boolean[] values = new boolean[(int) length];
        for (int i = 0; i < values.length; i++) {
            values[i] = memory.get(ValueLayout.JAVA_BYTE, i) != 0;
        }
        return values;
    }

    /**
     * Copies {@code source} (its size a whole number of elements) into this scalar array, starting at
     * element {@code index}. Works for every length, also beyond 2^31 elements.
     */
    public void copyFrom(MemorySegment source, long index) {
        ElementType scalar = elementType();
        long count = source.byteSize() / scalar.byteSize();
        if (source.byteSize() % scalar.byteSize() != 0) {
            throw new IllegalArgumentException("a segment of " + source.byteSize() + " bytes is not a whole number of " + scalar.javaName() + " elements");
        }
        checkRange(index, count);
        MemorySegment.copy(source, 0, buffers[0].forHostWrite(), index * scalar.byteSize(), source.byteSize());
    }

    /** Copies {@code count} elements from element {@code index} on into {@code target}, from its start. */
    public void copyTo(long index, long count, MemorySegment target) {
        ElementType scalar = elementType();
        checkRange(index, count);
        MemorySegment.copy(buffers[0].forHostRead(), index * scalar.byteSize(), target, 0, count * scalar.byteSize());
    }

    /** Copies a primitive array ({@code float[]} for a {@code PArray<Float>}, ...) into this array from element {@code index} on. */
    public void copyFrom(Object primitiveArray, long index) {
        Objects.requireNonNull(primitiveArray, "copyFrom: the source array is null");
        ElementType scalar = elementType();
        if (primitiveArray.getClass().componentType() != scalar.primitiveClass()) {
            throw new IllegalArgumentException("copyFrom: a PArray<" + scalar.javaName() + "> copies from a " + scalar.primitiveClass().getName() + "[], not a " + primitiveArray.getClass().getSimpleName());
        }
        if (primitiveArray instanceof boolean[] booleans) {
            checkRange(index, booleans.length);
            MemorySegment memory = buffers[0].forHostWrite();
            for (int i = 0; i < booleans.length; i++) {
                memory.set(ValueLayout.JAVA_BYTE, index + i, (byte) (booleans[i] ? 1 : 0));
            }
            return;
        }
        copyFrom(heapSegment(primitiveArray), index);
    }

    /** Copies elements from {@code index} on into the whole of {@code primitiveArray}. */
    public void copyTo(long index, Object primitiveArray) {
        Objects.requireNonNull(primitiveArray, "copyTo: the target array is null");
        ElementType scalar = elementType();
        if (primitiveArray.getClass().componentType() != scalar.primitiveClass()) {
            throw new IllegalArgumentException("copyTo: a PArray<" + scalar.javaName() + "> copies to a " + scalar.primitiveClass().getName() + "[], not a " + primitiveArray.getClass().getSimpleName());
        }
        if (primitiveArray instanceof boolean[] booleans) {
            checkRange(index, booleans.length);
            MemorySegment memory = buffers[0].forHostRead();
            for (int i = 0; i < booleans.length; i++) {
                booleans[i] = memory.get(ValueLayout.JAVA_BYTE, index + i) != 0;
            }
            return;
        }
        MemorySegment target = heapSegment(primitiveArray);
        copyTo(index, target.byteSize() / scalar.byteSize(), target);
    }

    private static MemorySegment heapSegment(Object primitiveArray) {
        return switch (primitiveArray) {
            case byte[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + primitiveArray.getClass().getSimpleName());
        };
    }

    private MemorySegment hostSegment(ElementType expected) {
        if (type != expected) {
            throw new ClassCastException("this PArray holds " + type.javaName() + ", not " + expected.javaName());
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a PArray of " + length + " elements does not fit in a Java array; use copyTo with a range");
        }
        return buffers[0].forHostRead();
    }

    /**
     * The storage of a scalar array, {@code length * elementType().byteSize()} bytes in host byte
     * order, for reading and writing (any newer device copy is brought back first, and the device
     * copy is treated as stale after). Valid until {@link #close()}.
     */
    public MemorySegment segment() {
        checkOpen();
        elementType();
        return buffers[0].forHostWrite();
    }

    /**
     * The storage of component {@code index}: for the runtime, which moves data itself. Not part of
     * the user API.
     */
    public ComponentBuffer buffer(int index) {
        checkOpen();
        return buffers[index];
    }

    /** The number of components (1 for a scalar array). */
    public int componentCount() {
        return buffers.length;
    }

    // ---------------------------------------------------------------------------------------------
    // Life cycle

    public boolean isClosed() {
        if (viewClosed) {
            return true;
        }
        for (ComponentBuffer buffer : buffers) {
            if (buffer.isReleased()) {
                return true;
            }
        }
        return false;
    }

    /** True if this array shares the storage of others (made by {@link #zip} or {@link #component}). */
    public boolean isView() {
        return cleanable == null;
    }

    /** Releases the memory now (a view only stops being usable). Idempotent. */
    @Override
    public void close() {
        if (cleanable != null) {
            cleanable.clean();
        } else {
            viewClosed = true;
        }
    }

    private void checkOpen() {
        if (isClosed()) {
            throw new IllegalStateException("this PArray<" + type.javaName() + "> of " + length + " elements is closed");
        }
    }

    private void checkIndex(long index) {
        checkOpen();
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " out of bounds for a PArray of length " + length);
        }
    }

    private void checkRange(long index, long count) {
        checkOpen();
        if (index < 0 || count < 0 || index > length - count) {
            throw new IndexOutOfBoundsException("elements " + index + " to " + (index + count) + " are out of bounds for a PArray of length " + length);
        }
    }

    /** Shows the type, the length and the first elements: {@code PArray<Float>[1000000] {0.5, 1.25, ...}}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("PArray<").append(type.javaName()).append(">[").append(length).append("]");
        if (isClosed()) {
            return text.append(" (closed)").toString();
        }
        text.append(" {");
        long shown = Math.min(length, 8);
        for (long i = 0; i < shown; i++) {
            text.append(i == 0 ? "" : ", ").append(get(i));
        }
        return text.append(length > shown ? ", ...}" : "}").toString();
    }
}
