package jpai;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The element types a {@link PArray} stores by value, each in its Java size: the wrapper class a
 * lambda sees and the primitive layout the storage holds.
 */
public enum ElementType implements DataType {
    BYTE(Byte.class, byte.class, ValueLayout.JAVA_BYTE),
    SHORT(Short.class, short.class, ValueLayout.JAVA_SHORT),
    CHAR(Character.class, char.class, ValueLayout.JAVA_CHAR),
    INT(Integer.class, int.class, ValueLayout.JAVA_INT),
    LONG(Long.class, long.class, ValueLayout.JAVA_LONG),
    FLOAT(Float.class, float.class, ValueLayout.JAVA_FLOAT),
    DOUBLE(Double.class, double.class, ValueLayout.JAVA_DOUBLE),
    /** Stored as one byte, 0 or 1. */
    BOOLEAN(Boolean.class, boolean.class, ValueLayout.JAVA_BYTE);

    private final Class<?> boxClass;
    private final Class<?> primitiveClass;
    private final ValueLayout layout;
    /** {@link #components()}, made once: arrays ask for it on every apply. */
    private final java.util.List<ElementType> components;

    ElementType(Class<?> boxClass, Class<?> primitiveClass, ValueLayout layout) {
        this.boxClass = boxClass;
        this.primitiveClass = primitiveClass;
        this.layout = layout;
        this.components = java.util.List.of(this);
    }

    /** The primitive class ({@code float.class} for {@link #FLOAT}). */
    public Class<?> primitiveClass() {
        return primitiveClass;
    }

    /** The wrapper class elements have in Java code ({@code Float} for {@link #FLOAT}). */
    public Class<?> boxClass() {
        return boxClass;
    }

    @Override
    public java.util.List<ElementType> components() {
        return components;
    }

    @Override
    public Class<?> javaClass() {
        return boxClass;
    }

    @Override
    public String javaName() {
        return boxClass.getSimpleName();
    }

    @Override
    public boolean isInstance(Object value) {
        return boxClass.isInstance(value);
    }

    /** Bytes per element. */
    public long byteSize() {
        return layout.byteSize();
    }

    /** The element type whose wrapper (or primitive) class is {@code type}. */
    public static ElementType of(Class<?> type) {
        for (ElementType element : values()) {
            if (element.boxClass == type || element.primitiveClass == type) {
                return element;
            }
        }
        throw new IllegalArgumentException(type.getName() + " is not a PArray element type; supported: Byte, Short, Character, Integer, Long, Float, Double, Boolean");
    }

    /** Reads element {@code index} as its wrapper object. */
    public Object get(MemorySegment segment, long index) {
        long offset = index * byteSize();
        return switch (this) {
            case BYTE -> segment.get(ValueLayout.JAVA_BYTE, offset);
            case SHORT -> segment.get(ValueLayout.JAVA_SHORT, offset);
            case CHAR -> segment.get(ValueLayout.JAVA_CHAR, offset);
            case INT -> segment.get(ValueLayout.JAVA_INT, offset);
            case LONG -> segment.get(ValueLayout.JAVA_LONG, offset);
            case FLOAT -> segment.get(ValueLayout.JAVA_FLOAT, offset);
            case DOUBLE -> segment.get(ValueLayout.JAVA_DOUBLE, offset);
            case BOOLEAN -> segment.get(ValueLayout.JAVA_BYTE, offset) != 0;
        };
    }

    /** Writes {@code value}, an instance of {@link #boxClass()}, as element {@code index}. */
    public void put(MemorySegment segment, long index, Object value) {
        long offset = index * byteSize();
        switch (this) {
            case BYTE -> segment.set(ValueLayout.JAVA_BYTE, offset, (Byte) value);
            case SHORT -> segment.set(ValueLayout.JAVA_SHORT, offset, (Short) value);
            case CHAR -> segment.set(ValueLayout.JAVA_CHAR, offset, (Character) value);
            case INT -> segment.set(ValueLayout.JAVA_INT, offset, (Integer) value);
            case LONG -> segment.set(ValueLayout.JAVA_LONG, offset, (Long) value);
            case FLOAT -> segment.set(ValueLayout.JAVA_FLOAT, offset, (Float) value);
            case DOUBLE -> segment.set(ValueLayout.JAVA_DOUBLE, offset, (Double) value);
            case BOOLEAN -> segment.set(ValueLayout.JAVA_BYTE, offset, (byte) (((Boolean) value) ? 1 : 0));
        }
    }
}
