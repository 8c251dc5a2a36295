package jpai;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

import jpai.runtime.memory.ArraySize;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.memory.PArrayStorage;
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
 * {@link IllegalStateException}, and so does every segment it gave out ({@link #segment()},
 * {@link #writeScope()}): a segment dies with its array, as an {@code Arena}'s segments do, and the
 * memory is never reused while anything can still reach it. A <em>view</em> ({@link #zip},
 * {@link #component}) shares the storage of the arrays it was made from: closing a view releases
 * nothing, closing the original closes the view too.
 *
 * <p>Memory safety holds for any sequence of calls from any threads: an array closed while another
 * thread reads it, writes it or applies a function to it makes that thread's call throw
 * {@link IllegalStateException} or complete on the data as it was; its memory is freed when the
 * last such use is done. Writes are not synchronised: a thread that reads what another wrote needs
 * a happens-before edge between them, as for Java arrays.
 *
 * <p>Coherence: every way of writing an array ({@link #put}, {@link #copyFrom}, a
 * {@link #writeScope()}, through a {@link #component} or {@link #zip} view) marks it written, so
 * the next function applied to it sends the new data to the device. {@link #segment()} is read-only;
 * writing through a segment needs a {@link #writeScope()}, whose close is what marks the array
 * written.
 *
 * @param <T> the element type as lambdas see it ({@code Float}, {@code Tuple2<Float, Integer>}, ...)
 */
public final class PArray<T> implements AutoCloseable {

    private static final Cleaner CLEANER = Cleaner.create();

    static {
        PArrayStorage.install(new PArrayStorage.Access() {
            @Override
            public ComponentBuffer buffer(PArray<?> array, int component) {
                return array.buffer(component);
            }

            @Override
            public int[] rangeExtents(PArray<?> array) {
                return array.rangeExtents();
            }

            @Override
            public PArray<?> allocateUninitialized(DataType type, long length, HostMemory memory) {
                return new PArray<>(type, length, false, java.util.Objects.requireNonNull(memory, "memory"));
            }
        });
    }

    private final DataType type;
    private final long length;
    private final ComponentBuffer[] buffers;
    /**
     * The one buffer of an array of a scalar type, for {@link #get}'s short path (Java code reading
     * captured arrays element by element); null for tuples.
     */
    private final ComponentBuffer scalarBuffer;
    /** For an owner: releases the buffers. Null for a view. */
    private final Cleaner.Cleanable cleanable;
    /** For a view: the arrays it reads, kept reachable so their cleaners cannot free its storage. */
    private final List<PArray<?>> sources;
    private volatile boolean viewClosed;
    /**
     * For an array made by {@link #range}: its extents and the host versions of its buffers when they
     * were filled, so that any later write ends its being a range; null for every other array.
     */
    private volatile RangeMark rangeMark;

    /** The extents of a range (outermost first) and each component buffer's host version when filled. */
    private record RangeMark(int[] extents, long[] versions) {
    }

    /** Owns the buffers; separate from the array so the cleaner does not keep the array reachable. */
    private record Release(ComponentBuffer[] buffers) implements Runnable {
        @Override
        public void run() {
            for (ComponentBuffer buffer : buffers) {
                buffer.close();
            }
        }
    }

    private PArray(DataType type, long length) {
        this(type, length, true);
    }

    private PArray(DataType type, long length, boolean zeroed) {
        this(type, length, zeroed, null);
    }

    /** An array of {@code memory}'s, or of the memory the runtime has installed when it is null. */
    private PArray(DataType type, long length, boolean zeroed, HostMemory from) {
        this.type = Objects.requireNonNull(type, "the element type of a PArray is null");
        this.length = length;
        List<ElementType> components = type.components();
        for (ElementType component : components) {
            ArraySize.byteSize(component, length); // checks every size before anything is allocated
        }
        this.buffers = new ComponentBuffer[components.size()];
        // The first allocation makes the device choice, which installs the chosen device's pinned memory.
        HostMemory memory = from != null ? from : OpenCLRuntime.hostMemory();
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
        this.scalarBuffer = scalarBufferOf(type, buffers);
    }

    private static ComponentBuffer scalarBufferOf(DataType type, ComponentBuffer[] buffers) {
        return buffers.length == 1 && type instanceof ElementType ? buffers[0] : null;
    }

    /** A view over {@code buffers} of {@code sources}. */
    private PArray(DataType type, long length, ComponentBuffer[] buffers, List<PArray<?>> sources) {
        this.type = type;
        this.length = length;
        this.buffers = buffers;
        this.cleanable = null;
        this.sources = List.copyOf(sources);
        this.scalarBuffer = scalarBufferOf(type, buffers);
    }

    // ---------------------------------------------------------------------------------------------
    // Making arrays

    /**
     * A zero-filled array of {@code length} elements of the scalar type {@code elementType} ({@code Float.class}, ...).
     *
     * @throws IllegalArgumentException if {@code length} is negative or its byte size is more than
     *         a {@code long} can hold or the host's memory (RAM and swap)
     */
    public static <T> PArray<T> allocate(Class<T> elementType, long length) {
        return new PArray<>(ElementType.of(Objects.requireNonNull(elementType, "PArray.allocate: the element type is null")), length);
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
        Objects.requireNonNull(componentTypes, "PArray.allocateTuples: the component types are null");
        for (int i = 0; i < componentTypes.length; i++) {
            Objects.requireNonNull(componentTypes[i], "PArray.allocateTuples: component type " + i + " is null");
        }
        return (PArray<T>) allocate(TupleType.of(componentTypes), length);
    }

    public static PArray<Byte> of(byte... values) {
        return copyOf(Byte.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the byte[] is null")));
    }

    public static PArray<Short> of(short... values) {
        return copyOf(Short.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the short[] is null")));
    }

    public static PArray<Character> of(char... values) {
        return copyOf(Character.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the char[] is null")));
    }

    public static PArray<Integer> of(int... values) {
        return copyOf(Integer.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the int[] is null")));
    }

    public static PArray<Long> of(long... values) {
        return copyOf(Long.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the long[] is null")));
    }

    public static PArray<Float> of(float... values) {
        return copyOf(Float.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the float[] is null")));
    }

    public static PArray<Double> of(double... values) {
        return copyOf(Double.class, MemorySegment.ofArray(Objects.requireNonNull(values, "PArray.of: the double[] is null")));
    }

    public static PArray<Boolean> of(boolean... values) {
        Objects.requireNonNull(values, "PArray.of: the boolean[] is null");
        PArray<Boolean> array = allocate(Boolean.class, values.length);
        array.copyFrom(values, 0);
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
        return rangeOf(n);
    }

    /**
     * The index pairs {@code (i, j)} of a {@code rows x columns} grid in row-major order: element
     * {@code i * columns + j} is {@code Tuple2(i, j)}, so that {@code AF.map((Tuple2<Integer, Integer>
     * ij) -> ...)} over it gives a row-major matrix of {@code rows * columns} elements (a {@code long}
     * length: more than 2^31 elements where memory allows). On the device a map over it is a 2-D
     * NDRange whose work-items take {@code i} and {@code j} from their own ids (no division per
     * element) and read no input buffer: nothing is sent. The host memory holds the pairs too (Java
     * executors and the host read them: 8 bytes per element); writing to the array makes it an
     * ordinary array of pairs from then on.
     *
     * @throws IllegalArgumentException if {@code rows} or {@code columns} is negative
     */
    public static PArray<Tuple2<Integer, Integer>> range(int rows, int columns) {
        return rangeOf(rows, columns);
    }

    /**
     * The index triples {@code (i, j, k)} of a {@code d0 x d1 x d2} grid in row-major order: element
     * {@code (i * d1 + j) * d2 + k} is {@code Tuple3(i, j, k)}. As {@link #range(int, int)}, with a
     * 3-D NDRange on the device (12 bytes per element on the host).
     *
     * @throws IllegalArgumentException if an extent is negative or the element count exceeds a {@code long}
     */
    public static PArray<Tuple3<Integer, Integer, Integer>> range(int d0, int d1, int d2) {
        return rangeOf(d0, d1, d2);
    }

    /** An index space of 1 to 3 dimensions, outermost first, filled in row-major order and marked as a range. */
    @SuppressWarnings("unchecked")
    private static <T> PArray<T> rangeOf(int... extents) {
        long length = 1;
        for (int extent : extents) {
            if (extent < 0) {
                throw new IllegalArgumentException("a range cannot have a negative extent: " + java.util.Arrays.toString(extents));
            }
            try {
                length = Math.multiplyExact(length, extent);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("a range of " + java.util.Arrays.toString(extents) + " has more elements than a long counts");
            }
        }
        DataType type = extents.length == 1 ? ElementType.INT : TupleType.of(java.util.Collections.nCopies(extents.length, Integer.class).toArray(Class<?>[]::new));
        PArray<T> array = (PArray<T>) allocateUninitialized(type, length);
        long[] versions = new long[extents.length];
        try {
            for (int d = 0; d < extents.length; d++) {
                versions[d] = length == 0 ? array.buffers[d].hostVersion() : array.fillWithIndex(d, extents);
            }
        } catch (RuntimeException | Error e) {
            array.close();
            throw e;
        }
        array.rangeMark = new RangeMark(extents.clone(), versions);
        return array;
    }

    /**
     * Writes index {@code d} of each element's position in the row-major space of {@code extents} into
     * component {@code d}, in parallel chunks; returns the buffer's host version after the write.
     */
    private long fillWithIndex(int d, int[] extents) {
        long inner = 1; // elements per step of index d
        for (int k = d + 1; k < extents.length; k++) {
            inner *= extents[k];
        }
        long stride = inner;
        int extent = extents[d];
        ComponentBuffer buffer = buffers[d];
        buffer.acquireLease();
        try {
            MemorySegment memory = buffer.leasedForHostRead();
            jpai.runtime.exec.Chunks.forEach(length, (from, to) -> {
                // the index at element e is (e / stride) % extent: one division per chunk, then counting
                long e = from;
                int index = (int) ((from / stride) % extent);
                long left = stride - from % stride; // elements before the index next changes
                while (e < to) {
                    long end = Math.min(to, e + left);
                    for (; e < end; e++) {
                        memory.setAtIndex(ValueLayout.JAVA_INT, e, index);
                    }
                    index = index + 1 == extent ? 0 : index + 1;
                    left = stride;
                }
            });
        } finally {
            buffer.releaseLease();
        }
        buffer.hostWritten();
        return buffer.hostVersion();
    }

    /**
     * The extents of the index space this array still holds as {@link #range} made it, outermost
     * first ({@code {n}}, {@code {rows, columns}} or {@code {d0, d1, d2}}), or null when it was not
     * made so or an element was written since. For the runtime, through {@link PArrayStorage}.
     */
    private int[] rangeExtents() {
        RangeMark mark = rangeMark;
        if (mark == null || isClosed()) {
            return null;
        }
        for (int d = 0; d < mark.versions().length; d++) {
            if (buffers[d].hostVersion() != mark.versions()[d]) {
                return null;
            }
        }
        return mark.extents().clone();
    }

    /**
     * A new array of {@code elementType} holding a copy of {@code source}, whose size must be a
     * multiple of the element size (host byte order, as Java arrays and {@code MemorySegment}s have it).
     */
    public static <T> PArray<T> copyOf(Class<T> elementType, MemorySegment source) {
        ElementType type = ElementType.of(Objects.requireNonNull(elementType, "PArray.copyOf: the element type is null"));
        Objects.requireNonNull(source, "PArray.copyOf: the source segment is null");
        if (source.byteSize() % type.byteSize() != 0) {
            throw new IllegalArgumentException("a segment of " + source.byteSize() + " bytes is not a whole number of " + type.javaName() + " elements");
        }
        PArray<T> array = allocate(elementType, source.byteSize() / type.byteSize());
        try {
            array.copyFrom(source, 0);
        } catch (RuntimeException e) {
            array.close();
            throw e;
        }
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
        ComponentBuffer scalar = scalarBuffer;
        if (scalar != null && !viewClosed && index >= 0 && index < length) {
            return (T) scalar.get(index); // the buffer checks that it is open (this array's other state is the view's flag)
        }
        checkIndex(index);
        if (scalar != null) {
            return (T) scalar.get(index);
        }
        Object[] components = new Object[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            components[i] = buffers[i].get(index);
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
                buffers[i].put(index, tuple.get(i));
            }
        } else {
            buffers[0].put(index, value);
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
        byte[] values = new byte[javaArrayLength(ElementType.BYTE)];
        copyAllInto(values, ValueLayout.JAVA_BYTE);
        return values;
    }

    public short[] toShortArray() {
        short[] values = new short[javaArrayLength(ElementType.SHORT)];
        copyAllInto(values, ValueLayout.JAVA_SHORT_UNALIGNED);
        return values;
    }

    public char[] toCharArray() {
        char[] values = new char[javaArrayLength(ElementType.CHAR)];
        copyAllInto(values, ValueLayout.JAVA_CHAR_UNALIGNED);
        return values;
    }

    public int[] toIntArray() {
        int[] values = new int[javaArrayLength(ElementType.INT)];
        copyAllInto(values, ValueLayout.JAVA_INT_UNALIGNED);
        return values;
    }

    public long[] toLongArray() {
        long[] values = new long[javaArrayLength(ElementType.LONG)];
        copyAllInto(values, ValueLayout.JAVA_LONG_UNALIGNED);
        return values;
    }

    /** The elements as a new {@code float[]}; this must be a {@code PArray<Float>} of at most 2^31-1 elements. */
    public float[] toFloatArray() {
        float[] values = new float[javaArrayLength(ElementType.FLOAT)];
        copyAllInto(values, ValueLayout.JAVA_FLOAT_UNALIGNED);
        return values;
    }

    public double[] toDoubleArray() {
        double[] values = new double[javaArrayLength(ElementType.DOUBLE)];
        copyAllInto(values, ValueLayout.JAVA_DOUBLE_UNALIGNED);
        return values;
    }

    public boolean[] toBooleanArray() {
        return readAll(ElementType.BOOLEAN, memory -> {
            boolean[] values = new boolean[(int) length];
            for (int i = 0; i < values.length; i++) {
                values[i] = memory.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
            return values;
        });
    }

    /**
     * Copies {@code source} (its size a whole number of elements) into this scalar array, starting at
     * element {@code index}. Works for every length, also beyond 2^31 elements.
     */
    public void copyFrom(MemorySegment source, long index) {
        Objects.requireNonNull(source, "copyFrom: the source segment is null");
        ElementType scalar = elementType();
        long count = source.byteSize() / scalar.byteSize();
        if (source.byteSize() % scalar.byteSize() != 0) {
            throw new IllegalArgumentException("a segment of " + source.byteSize() + " bytes is not a whole number of " + scalar.javaName() + " elements");
        }
        checkRange(index, count);
        writeLeased(memory -> MemorySegment.copy(source, 0, memory, index * scalar.byteSize(), source.byteSize()));
    }

    /** Copies {@code count} elements from element {@code index} on into {@code target}, from its start. */
    public void copyTo(long index, long count, MemorySegment target) {
        Objects.requireNonNull(target, "copyTo: the target segment is null");
        ElementType scalar = elementType();
        checkRange(index, count);
        readLeased(memory -> {
            MemorySegment.copy(memory, index * scalar.byteSize(), target, 0, count * scalar.byteSize());
            return null;
        });
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
            writeLeased(memory -> {
                for (int i = 0; i < booleans.length; i++) {
                    memory.set(ValueLayout.JAVA_BYTE, index + i, (byte) (booleans[i] ? 1 : 0));
                }
            });
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
            readLeased(memory -> {
                for (int i = 0; i < booleans.length; i++) {
                    booleans[i] = memory.get(ValueLayout.JAVA_BYTE, index + i) != 0;
                }
                return null;
            });
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

    /** {@code reader} applied to the whole current host memory of this scalar array of {@code expected}, which must fit a Java array. */
    private <R> R readAll(ElementType expected, Function<MemorySegment, R> reader) {
        javaArrayLength(expected);
        return readLeased(reader);
    }

    /** The length of a Java array of all the elements of this open scalar array of {@code expected}. */
    private int javaArrayLength(ElementType expected) {
        if (type != expected) {
            throw new ClassCastException("this PArray holds " + type.javaName() + ", not " + expected.javaName());
        }
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a PArray of " + length + " elements does not fit in a Java array; use copyTo with a range");
        }
        checkOpen();
        return (int) length;
    }

    /*
     * The typed reads copy with MemorySegment.copy, not MemorySegment.toArray: toArray makes a layout,
     * a heap segment and a class's simple name at each call, about thirty JDK methods in all, and every
     * compiled method a call enters costs it an entry barrier after each full collection (docs/runtime.md,
     * "What the cold apply pays for"). {@code array} holds all the elements (javaArrayLength checked it).
     */
    private void copyAllInto(Object array, ValueLayout layout) {
        ComponentBuffer buffer = buffers[0];
        buffer.acquireLease();
        try {
            MemorySegment.copy(buffer.leasedForHostRead(), layout, 0, array, 0, (int) length);
        } finally {
            buffer.releaseLease();
        }
    }

    /*
     * Bulk copies run on the unscoped memory under a lease: no arena is made for them (an array read
     * only in bulk closes without a thread handshake), and the lease keeps the memory allocated if
     * another thread closes the array meanwhile.
     */

    private <R> R readLeased(Function<MemorySegment, R> reader) {
        ComponentBuffer buffer = buffers[0];
        buffer.acquireLease();
        try {
            return reader.apply(buffer.leasedForHostRead());
        } finally {
            buffer.releaseLease();
        }
    }

    private void writeLeased(Consumer<MemorySegment> writer) {
        ComponentBuffer buffer = buffers[0];
        buffer.acquireLease();
        try {
            // Brought up to date first: a partial write must keep the rest of a newer device copy.
            writer.accept(buffer.leasedForHostRead());
        } finally {
            buffer.releaseLease();
        }
        buffer.hostWritten();
    }

    /**
     * The storage of a scalar array, {@code length * elementType().byteSize()} bytes in host byte
     * order, <em>read-only</em>: any newer device copy is brought back first. It dies with the
     * array: once the array is closed, every access through it throws
     * {@link IllegalStateException}. To write through a segment, use {@link #writeScope()}.
     *
     * @throws IllegalStateException for an array of tuples (take a {@link #component}) or a closed array
     */
    public MemorySegment segment() {
        checkOpen();
        elementType();
        return buffers[0].forHostRead().asReadOnly();
    }

    /**
     * Opens a write scope over the storage of this scalar array: its {@link WriteScope#segment()} is
     * writable until the scope is closed (or the array is, whichever comes first), and closing the
     * scope marks the array written, so the next function applied to it sends the new data to the
     * device. Write through the segment only inside the scope (try-with-resources); afterwards the
     * segment throws {@link IllegalStateException}. Several threads may write through one scope's
     * segment; close the scope once they are all done.
     *
     * <pre>{@code
     * try (PArray.WriteScope scope = array.writeScope()) {
     *     MemorySegment memory = scope.segment();
     *     for (long i = 0; i < array.length(); i++) {
     *         memory.setAtIndex(ValueLayout.JAVA_FLOAT, i, i * 0.5f);
     *     }
     * }   // the array counts as written here
     * }</pre>
     *
     * @throws IllegalStateException for an array of tuples (take a {@link #component}) or a closed array
     */
    public WriteScope writeScope() {
        checkOpen();
        elementType();
        return new WriteScope(buffers[0].openWrite());
    }

    /** A scope for writing an array through a segment: see {@link PArray#writeScope()}. */
    public static final class WriteScope implements AutoCloseable {
        private final ComponentBuffer.Write write;

        private WriteScope(ComponentBuffer.Write write) {
            this.write = write;
        }

        /** The array's storage, writable until this scope or the array is closed. */
        public MemorySegment segment() {
            return write.segment();
        }

        /** Ends the scope: the segment dies, and the array counts as written. Idempotent. */
        @Override
        public void close() {
            write.close();
        }
    }

    /**
     * The storage of component {@code index}: for the runtime, which moves data itself, through
     * {@link PArrayStorage}; kept out of the public API so that it names no runtime type.
     */
    private ComponentBuffer buffer(int index) {
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
            if (buffer.isClosed()) {
                return true;
            }
        }
        return false;
    }

    /** True if this array shares the storage of others (made by {@link #zip} or {@link #component}). */
    public boolean isView() {
        return cleanable == null;
    }

    /**
     * Releases the memory (a view only stops being usable): every segment this array gave out dies
     * now; the memory is freed now, or, if another thread is still transferring it, as soon as that
     * transfer is done. Idempotent, from any thread.
     */
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
