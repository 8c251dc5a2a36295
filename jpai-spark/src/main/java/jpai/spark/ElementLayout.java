package jpai.spark;

import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Iterator;

import jpai.ElementType;
import jpai.PArray;
import jpai.Tuple;
import jpai.Tuple2;
import jpai.Tuple3;

/**
 * What the elements of a partition are, so that they can be laid out as a {@link PArray}: a boxed
 * scalar ({@code Float}, {@code Double}, {@code Integer}, {@code Long}, {@code Short}, {@code Byte},
 * {@code Character}, {@code Boolean}) or a JPAI tuple of them ({@link Tuple2} to {@code Tuple8},
 * which are serialisable). A partition becomes one primitive column per component, read from its
 * iterator once and copied into the array's off-heap memory once: the fewest copies an RDD of boxed
 * elements allows.
 */
public final class ElementLayout<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final Class<?>[] components;

    private ElementLayout(Class<?>... components) {
        for (Class<?> component : components) {
            if (ElementType.of(component).boxClass() != component) { // ElementType.of names the types it takes
                throw new IllegalArgumentException("ElementLayout: a component is a boxed type (Float, Integer, ...), not " + component.getName());
            }
        }
        this.components = components.clone();
    }

    /** Partitions of boxed scalars of {@code type}. */
    public static <T> ElementLayout<T> of(Class<T> type) {
        return new ElementLayout<>(type);
    }

    /** Partitions of {@link Tuple2}s of these component types. */
    public static <A, B> ElementLayout<Tuple2<A, B>> tuple(Class<A> first, Class<B> second) {
        return new ElementLayout<>(first, second);
    }

    /** Partitions of {@link Tuple3}s of these component types. */
    public static <A, B, C> ElementLayout<Tuple3<A, B, C>> tuple(Class<A> first, Class<B> second, Class<C> third) {
        return new ElementLayout<>(first, second, third);
    }

    /** Partitions of tuples of 2 to 8 components of these types (for 4 to 8: {@code ElementLayout.<Tuple4<...>> tupleOf(...)}). */
    public static <T extends Tuple> ElementLayout<T> tupleOf(Class<?>... componentTypes) {
        if (componentTypes.length < 2 || componentTypes.length > 8) {
            throw new IllegalArgumentException("tuples have 2 to 8 components, not " + componentTypes.length);
        }
        return new ElementLayout<>(componentTypes);
    }

    /** The elements {@code elements} yields, as a new array the caller closes. */
    @SuppressWarnings("unchecked")
    PArray<T> toPArray(Iterator<T> elements) {
        Column[] columns = new Column[components.length];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = new Column(components[c]);
        }
        while (elements.hasNext()) {
            T element = elements.next();
            if (columns.length == 1) {
                columns[0].add(element);
            } else {
                Tuple tuple = (Tuple) element;
                for (int c = 0; c < columns.length; c++) {
                    columns[c].add(tuple.get(c));
                }
            }
        }
        if (columns.length == 1) {
            return (PArray<T>) columns[0].toPArray();
        }
        PArray<?>[] arrays = new PArray<?>[columns.length];
        for (int c = 0; c < columns.length; c++) {
            arrays[c] = columns[c].toPArray();
        }
        return (PArray<T>) switch (arrays.length) {
            case 2 -> PArray.zip(arrays[0], arrays[1]);
            case 3 -> PArray.zip(arrays[0], arrays[1], arrays[2]);
            case 4 -> PArray.zip(arrays[0], arrays[1], arrays[2], arrays[3]);
            case 5 -> PArray.zip(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4]);
            case 6 -> PArray.zip(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]);
            case 7 -> PArray.zip(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5], arrays[6]);
            default -> PArray.zip(arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5], arrays[6], arrays[7]);
        };
    }

    @Override
    public String toString() {
        return components.length == 1 ? components[0].getSimpleName() : "Tuple" + components.length + Arrays.stream(components).map(Class::getSimpleName).toList();
    }

    /** One component's values, in a primitive array that grows as the partition is read. */
    private static final class Column {
        private final ElementType type;
        private Object values;
        private int size;

        Column(Class<?> type) {
            this.type = ElementType.of(type);
            this.values = java.lang.reflect.Array.newInstance(this.type.primitiveClass(), 1024);
        }

        void add(Object value) {
            if (value == null) {
                throw new NullPointerException("a partition's element (or a tuple's component) is null; PArray elements cannot be null");
            }
            if (!type.isInstance(value)) {
                throw new ClassCastException("a partition's element (or a tuple's component) is a " + value.getClass().getName() + ", not the layout's " + type.boxClass().getName());
            }
            int capacity = java.lang.reflect.Array.getLength(values);
            if (size == capacity) {
                values = switch (values) {
                    case float[] a -> Arrays.copyOf(a, capacity * 2);
                    case double[] a -> Arrays.copyOf(a, capacity * 2);
                    case int[] a -> Arrays.copyOf(a, capacity * 2);
                    case long[] a -> Arrays.copyOf(a, capacity * 2);
                    case short[] a -> Arrays.copyOf(a, capacity * 2);
                    case byte[] a -> Arrays.copyOf(a, capacity * 2);
                    case char[] a -> Arrays.copyOf(a, capacity * 2);
                    case boolean[] a -> Arrays.copyOf(a, capacity * 2);
                    default -> throw new IllegalStateException(values.getClass().getName());
                };
            }
            switch (values) {
                case float[] a -> a[size] = (Float) value;
                case double[] a -> a[size] = (Double) value;
                case int[] a -> a[size] = (Integer) value;
                case long[] a -> a[size] = (Long) value;
                case short[] a -> a[size] = (Short) value;
                case byte[] a -> a[size] = (Byte) value;
                case char[] a -> a[size] = (Character) value;
                case boolean[] a -> a[size] = (Boolean) value;
                default -> throw new IllegalStateException(values.getClass().getName());
            }
            size++;
        }

        /** The values as a new array: one copy from the primitive array into off-heap memory. */
        PArray<?> toPArray() {
            if (values instanceof boolean[] booleans) {
                return PArray.of(Arrays.copyOf(booleans, size));
            }
            PArray<?> array = PArray.allocate(type.boxClass(), size);
            long bytes = size * type.byteSize();
            MemorySegment heap = switch (values) {
                case float[] a -> MemorySegment.ofArray(a);
                case double[] a -> MemorySegment.ofArray(a);
                case int[] a -> MemorySegment.ofArray(a);
                case long[] a -> MemorySegment.ofArray(a);
                case short[] a -> MemorySegment.ofArray(a);
                case byte[] a -> MemorySegment.ofArray(a);
                case char[] a -> MemorySegment.ofArray(a);
                default -> throw new IllegalStateException(values.getClass().getName());
            };
            array.copyFrom(heap.asSlice(0, bytes), 0);
            return array;
        }
    }
}
