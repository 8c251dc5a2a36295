package jpai.compiler;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * What the runtime promises about a value crossing the kernel boundary: an argument of the
 * function, its result, or a value the lambda captured. The compiler knows no API class: the runtime
 * describes its data to it in these terms.
 *
 * <p>Every shape is, on the device, a fixed list of primitive <em>components</em>
 * ({@link #components()}): a scalar is one component, a tuple one per field, in field order. An
 * array is one component too (its element kind): it travels as a device buffer and its length.
 *
 * <table>
 * <caption>Where each shape may appear</caption>
 * <tr><th>shape</th><th>argument</th><th>result</th><th>captured value</th></tr>
 * <tr><td>{@link Primitive}</td><td></td><td></td><td>yes</td></tr>
 * <tr><td>{@link BoxedPrimitive}</td><td>yes</td><td>yes</td><td>yes</td></tr>
 * <tr><td>{@link Tuple}</td><td>yes</td><td>yes</td><td></td></tr>
 * <tr><td>{@link PrimitiveArray}</td><td></td><td></td><td>yes</td></tr>
 * <tr><td>{@link ElementReader}</td><td></td><td></td><td>yes</td></tr>
 * <tr><td>{@link RectangularArray}</td><td></td><td></td><td>yes</td></tr>
 * </table>
 */
public sealed interface ValueShape {

    /** The primitive kinds this value is made of on the device, flattened, in order. */
    List<JavaKind> components();

    /** A bare primitive, e.g. a captured {@code float} variable. */
    record Primitive(JavaKind kind) implements ValueShape {
        public Primitive {
            requirePrimitive(kind);
        }

        @Override
        public List<JavaKind> components() {
            return List.of(kind);
        }

        @Override
        public String toString() {
            return kind.getJavaName();
        }
    }

    /**
     * A wrapper object ({@code Float}, {@code Integer}, ...) of the given primitive kind, never
     * null. On the device it is the bare primitive.
     */
    record BoxedPrimitive(JavaKind kind) implements ValueShape {
        public BoxedPrimitive {
            requirePrimitive(kind);
        }

        /** The wrapper class, e.g. {@code java.lang.Float} for {@link JavaKind#Float}. */
        public Class<?> boxClass() {
            return kind.toBoxedJavaClass();
        }

        @Override
        public List<JavaKind> components() {
            return List.of(kind);
        }

        @Override
        public String toString() {
            return boxClass().getSimpleName();
        }
    }

    /**
     * A value object of class {@code type}, never null, whose final instance fields
     * {@code fields.get(i)} hold its components, each a {@link BoxedPrimitive} (for example a record
     * {@code Tuple2<A, B>(A _1, B _2)} holding a {@code Float} and an {@code Integer}: the fields are
     * declared as {@code Object} by erasure, {@code componentShapes} says what they hold). On the
     * device it is its components, one primitive each; its identity is never observed.
     *
     * <p>The record component is named {@code componentShapes}, not {@code components}, because
     * {@link ValueShape#components()} already names the flattened primitive kinds.
     */
    record Tuple(Class<?> type, List<Field> fields, List<ValueShape> componentShapes) implements ValueShape {
        public Tuple {
            fields = List.copyOf(fields);
            componentShapes = List.copyOf(componentShapes);
            if (fields.size() != componentShapes.size() || fields.isEmpty()) {
                throw new IllegalArgumentException("a tuple needs one shape per field, at least one: " + fields + " " + componentShapes);
            }
            for (int i = 0; i < fields.size(); i++) {
                Field field = fields.get(i);
                if (field.getDeclaringClass() != type || Modifier.isStatic(field.getModifiers()) || !Modifier.isFinal(field.getModifiers())) {
                    throw new IllegalArgumentException(field + " is not a final instance field of " + type.getName());
                }
                if (!(componentShapes.get(i) instanceof BoxedPrimitive)) {
                    throw new IllegalArgumentException("tuple components must be boxed primitives, not " + componentShapes.get(i));
                }
            }
        }

        @Override
        public List<JavaKind> components() {
            List<JavaKind> kinds = new ArrayList<>();
            for (ValueShape shape : componentShapes) {
                kinds.addAll(shape.components());
            }
            return List.copyOf(kinds);
        }

        /** The primitive kind of component {@code i}. */
        public JavaKind kindAt(int i) {
            return ((BoxedPrimitive) componentShapes.get(i)).kind();
        }

        @Override
        public String toString() {
            return type.getSimpleName() + componentShapes;
        }
    }

    /**
     * A Java primitive array ({@code float[]}, ...), never null, read-only in a lambda's kernel (an
     * accelerated method's parameter may be written). On the device it is a buffer and its length.
     */
    record PrimitiveArray(JavaKind elementKind) implements ValueShape {
        public PrimitiveArray {
            requirePrimitive(elementKind);
        }

        @Override
        public List<JavaKind> components() {
            return List.of(elementKind);
        }

        /** The array class, e.g. {@code float[].class}. */
        public Class<?> arrayClass() {
            return elementKind.toJavaClass().arrayType();
        }

        @Override
        public String toString() {
            return elementKind.getJavaName() + "[]";
        }
    }

    /**
     * A two-dimensional Java primitive array ({@code float[][]}, ...), read-only in a lambda's
     * kernel (an accelerated method's parameter may be written: the runtime copies the buffer back
     * into each row). On the device it is one buffer holding its rows one after the other, its
     * number of rows (-1 for a null array) and the length of its rows: the runtime sends it only
     * when it is rectangular at the apply (every row there, all of one length), and otherwise runs
     * that apply in Java.
     */
    record RectangularArray(JavaKind elementKind) implements ValueShape {
        public RectangularArray {
            requirePrimitive(elementKind);
        }

        @Override
        public List<JavaKind> components() {
            return List.of(elementKind);
        }

        /** The array class, e.g. {@code float[][].class}. */
        public Class<?> arrayClass() {
            return elementKind.toJavaClass().arrayType().arrayType();
        }

        /** The class of one row, e.g. {@code float[].class}: also the type of the buffer holding all rows. */
        public Class<?> rowClass() {
            return elementKind.toJavaClass().arrayType();
        }

        @Override
        public String toString() {
            return elementKind.getJavaName() + "[][]";
        }
    }

    /**
     * An object, never null, that gives read-only access to a sequence of elements of one
     * primitive kind through two instance methods: {@code get}, taking a {@code long} index and
     * returning the boxed element, and {@code length}, returning the {@code long} number of
     * elements (the runtime's {@code PArray}). The compiler does not inline these two methods:
     * a call to {@code get(i)} on such a value becomes an element load of a read-only device buffer
     * (bounds-checked), a call to {@code length()} the buffer's length. On the device it is, like a
     * {@link PrimitiveArray}, a read-only buffer and its length.
     */
    record ElementReader(JavaKind elementKind, Method get, Method length) implements ValueShape {
        public ElementReader {
            requirePrimitive(elementKind);
            if (get.getParameterCount() != 1 || get.getParameterTypes()[0] != long.class || Modifier.isStatic(get.getModifiers())) {
                throw new IllegalArgumentException(get + " is not an instance method get(long)");
            }
            if (length.getParameterCount() != 0 || length.getReturnType() != long.class || Modifier.isStatic(length.getModifiers())) {
                throw new IllegalArgumentException(length + " is not an instance method long length()");
            }
        }

        @Override
        public List<JavaKind> components() {
            return List.of(elementKind);
        }

        @Override
        public String toString() {
            return get.getDeclaringClass().getSimpleName() + "<" + elementKind.toBoxedJavaClass().getSimpleName() + ">";
        }
    }

    /** The shape of a value of class {@code type} if the runtime supports it as kernel data. */
    static ValueShape ofBoxed(Class<?> type) {
        for (JavaKind kind : JavaKind.values()) {
            if (kind.isPrimitive() && kind != JavaKind.Void && kind.toBoxedJavaClass() == type) {
                return new BoxedPrimitive(kind);
            }
        }
        throw new IllegalArgumentException(type.getName() + " is not a primitive wrapper type");
    }

    private static void requirePrimitive(JavaKind kind) {
        if (!kind.isPrimitive() || kind == JavaKind.Void) {
            throw new IllegalArgumentException("not a primitive kind: " + kind);
        }
    }
}
