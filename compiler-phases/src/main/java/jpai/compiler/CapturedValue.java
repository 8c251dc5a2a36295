package jpai.compiler;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * A value the kernel reads from outside its arguments, and the shape the runtime promises for it.
 * The runtime reads it at each apply and passes it to the kernel; the compiler turns every read of
 * it into a kernel parameter. Three kinds:
 *
 * <ul>
 * <li>a captured variable: one final instance field of the functional object ({@link #field()}, a
 * lambda's hidden class keeps each captured variable in such a field), {@link #path()} empty;</li>
 * <li>a field of a captured object ({@code p.scale}, {@code p.inner.weights}): {@link #field()} is
 * the functional object's field holding the object, {@link #path()} the instance fields read from
 * it in turn, the last one holding the value. The runtime reads the path at each apply; where an
 * object on it is null, that apply runs in Java (which throws Java's exception where an element
 * reads through it);</li>
 * <li>a static array the function reads ({@link #staticArray()}: a user's {@code static final int[]},
 * found by the compiler, not listed by the runtime): the array object itself, whose elements the
 * runtime sends at each apply.</li>
 * </ul>
 *
 * <p>Allowed shapes: {@link ValueShape.Primitive} (a {@code float}), {@link ValueShape.BoxedPrimitive}
 * (a {@code Float}, possibly null), {@link ValueShape.PrimitiveArray} (a {@code float[]},
 * read-only, possibly null), {@link ValueShape.RectangularArray} (a {@code float[][]}, read-only,
 * possibly null) and {@link ValueShape.ElementReader} (a captured {@code PArray}, read-only, never
 * null).
 *
 * <p>A lambda written in an instance method that uses a field or method of its class captures
 * {@code this}; its fields are then fields of a captured object.
 */
public record CapturedValue(Field field, List<Field> path, Object staticArray, ValueShape shape, MethodParameter methodParameter) {

    /**
     * An argument of an accelerated method (not a lambda's capture): the method's parameter
     * {@code index} (0 is the first), named {@code name} in messages. A primitive is a scalar, a
     * primitive array a buffer the kernel may write ({@link ValueShape.PrimitiveArray}), a 2-D one
     * ({@link ValueShape.RectangularArray}) its rows in one buffer the kernel may write.
     */
    public record MethodParameter(int index, String name) {
    }

    public CapturedValue {
        path = List.copyOf(path);
        if (shape instanceof ValueShape.Tuple) {
            throw new IllegalArgumentException("captured tuples are not supported: " + field);
        }
        if (methodParameter != null) {
            if (field != null || !path.isEmpty() || staticArray != null
                            || !(shape instanceof ValueShape.Primitive || shape instanceof ValueShape.PrimitiveArray || shape instanceof ValueShape.RectangularArray)) {
                throw new IllegalArgumentException("a method parameter is a primitive, a primitive array or a rectangular 2-D one, with no field: " + shape);
            }
        } else if (staticArray != null) {
            if (field != null || !path.isEmpty() || !(shape instanceof ValueShape.PrimitiveArray array) || staticArray.getClass() != array.arrayClass()) {
                throw new IllegalArgumentException("a static array is a primitive array of its shape's class, with no field: " + shape);
            }
        } else {
            if (Modifier.isStatic(field.getModifiers())) {
                throw new IllegalArgumentException(field + " is static: captured values are instance fields of the functional object");
            }
            for (Field step : path) {
                if (Modifier.isStatic(step.getModifiers())) {
                    throw new IllegalArgumentException(step + " is static: a captured object's values are its instance fields");
                }
            }
        }
    }

    /** A captured variable: the functional object's field {@code field}. */
    public CapturedValue(Field field, ValueShape shape) {
        this(field, List.of(), null, shape, null);
    }

    /** Argument {@code index} of an accelerated method, as the runtime passes it to each launch. */
    public static CapturedValue ofMethodParameter(int index, String name, ValueShape shape) {
        return new CapturedValue(null, List.of(), null, shape, new MethodParameter(index, name));
    }

    /** Whether this is an argument of an accelerated method. */
    public boolean isMethodParameter() {
        return methodParameter != null;
    }

    /** The value of field {@code path}'s last element, read through the object in the functional object's {@code field}. */
    public static CapturedValue throughFields(Field field, List<Field> path, ValueShape shape) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a field of a captured object needs a path");
        }
        return new CapturedValue(field, path, null, shape, null);
    }

    /** A static array the function reads, passed as it is at each apply. */
    public static CapturedValue ofStaticArray(Object array, ValueShape.PrimitiveArray shape) {
        return new CapturedValue(null, List.of(), array, shape, null);
    }

    /** Whether this is a static array the compiler found (no field). */
    public boolean isStaticArray() {
        return staticArray != null;
    }

    /**
     * Whether the kernel takes it only where the function reads it: the runtime lists every field
     * of a captured object it could pass, most of which a function never reads; a captured variable
     * is a parameter whether read or not (a lambda captures what it uses).
     */
    public boolean passedOnlyWhereRead() {
        return staticArray != null || !path.isEmpty();
    }

    /** The declared type of the field that holds the value (the last of the path). */
    public Class<?> declaredType() {
        if (methodParameter != null) {
            return switch (shape) {
                case ValueShape.PrimitiveArray array -> array.arrayClass();
                case ValueShape.RectangularArray matrix -> matrix.arrayClass();
                default -> ((ValueShape.Primitive) shape).kind().toJavaClass();
            };
        }
        return staticArray != null ? staticArray.getClass() : path.isEmpty() ? field.getType() : path.get(path.size() - 1).getType();
    }

    /** Every field read to reach the value, from the functional object's. */
    public List<Field> fields() {
        List<Field> all = new ArrayList<>();
        if (field != null) {
            all.add(field);
        }
        all.addAll(path);
        return all;
    }

    /** How messages name it: {@code scale}, {@code p.weights}, or the static array's type and length. */
    public String name() {
        if (methodParameter != null) {
            return methodParameter.name();
        }
        if (staticArray != null) {
            return "a static " + staticArray.getClass().getComponentType().getName() + "[" + java.lang.reflect.Array.getLength(staticArray) + "]";
        }
        StringBuilder name = new StringBuilder(field.getName());
        for (Field step : path) {
            name.append('.').append(step.getName());
        }
        return name.toString();
    }

    /**
     * How sentences name it: {@code the captured float[][]} for a lambda's captured variable (javac
     * names its field {@code arg$1}, which the user never wrote), {@code the field weights of the
     * captured Params}, {@code a static int[5]}.
     */
    public String description() {
        if (methodParameter != null) {
            return "the parameter " + methodParameter.name();
        }
        if (staticArray != null) {
            return name();
        }
        String head = isLambdaField(field) ? "the captured " + field.getType().getSimpleName() : "the captured field " + field.getName();
        if (path.isEmpty()) {
            return head;
        }
        StringBuilder fields = new StringBuilder();
        for (Field step : path) {
            fields.append(fields.isEmpty() ? "" : ".").append(step.getName());
        }
        return "the field " + fields + " of " + (isLambdaField(field) ? "the captured " + field.getType().getSimpleName() : head);
    }

    /** Whether {@code field} is one javac made for a lambda's captured variable ({@code arg$1}, ...), not one the user named. */
    public static boolean isLambdaField(Field field) {
        return field.getDeclaringClass().isHidden() && field.getName().startsWith("arg$");
    }

    @Override
    public String toString() {
        return name() + ": " + shape;
    }
}
