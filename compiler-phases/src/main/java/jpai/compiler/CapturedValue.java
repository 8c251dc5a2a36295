package jpai.compiler;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * A value the lambda captured: one final instance field of the functional object (a lambda's
 * hidden class keeps each captured variable in such a field), and the shape the runtime promises
 * for its value. The runtime reads the field of the actual object and passes its value to the
 * kernel; the compiler turns every read of the field into a kernel parameter.
 *
 * <p>Allowed shapes: {@link ValueShape.Primitive} (a captured {@code float}),
 * {@link ValueShape.BoxedPrimitive} (a captured {@code Float}, never null),
 * {@link ValueShape.PrimitiveArray} (a captured {@code float[]}, read-only, never null) and
 * {@link ValueShape.ElementReader} (a captured {@code PArray}, read-only, never null).
 *
 * <p>A lambda written in an instance method that uses a field or method of its class captures
 * {@code this}; the compiler refuses such a lambda with a message that says so.
 */
public record CapturedValue(Field field, ValueShape shape) {

    public CapturedValue {
        if (Modifier.isStatic(field.getModifiers())) {
            throw new IllegalArgumentException(field + " is static: captured values are instance fields of the functional object");
        }
        if (shape instanceof ValueShape.Tuple) {
            throw new IllegalArgumentException("captured tuples are not supported: " + field);
        }
    }

    @Override
    public String toString() {
        return field.getName() + ": " + shape;
    }
}
