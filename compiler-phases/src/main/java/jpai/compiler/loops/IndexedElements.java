package jpai.compiler.loops;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import jdk.vm.ci.meta.JavaKind;

/**
 * An accelerated method's parameter that is not an array but gives its elements by index through
 * three instance methods (the runtime's {@code PArray}): {@code get(long)} returning the boxed
 * element, {@code put(long, element)} setting it, {@code length()} returning the {@code long} number
 * of elements. The compiler knows no API class, so the runtime names the methods. The compiler does
 * not inline them: in the kernel the parameter is a buffer of {@code elementKind} like a primitive
 * array parameter, {@code get} an element load, {@code put} an element store (each behind a bounds
 * check that exits as Java's {@code IndexOutOfBoundsException}), {@code length} the buffer's length.
 */
public record IndexedElements(JavaKind elementKind, Method get, Method put, Method length) {

    public IndexedElements {
        if (!elementKind.isPrimitive() || elementKind == JavaKind.Void) {
            throw new IllegalArgumentException("not a primitive kind: " + elementKind);
        }
        if (get.getParameterCount() != 1 || get.getParameterTypes()[0] != long.class || Modifier.isStatic(get.getModifiers())) {
            throw new IllegalArgumentException(get + " is not an instance method get(long)");
        }
        if (put.getParameterCount() != 2 || put.getParameterTypes()[0] != long.class || Modifier.isStatic(put.getModifiers())) {
            throw new IllegalArgumentException(put + " is not an instance method put(long, element)");
        }
        if (length.getParameterCount() != 0 || length.getReturnType() != long.class || Modifier.isStatic(length.getModifiers())) {
            throw new IllegalArgumentException(length + " is not an instance method long length()");
        }
    }

    /** How messages name the parameter's type: {@code PArray<Float>}. */
    public String typeName() {
        return get.getDeclaringClass().getSimpleName() + "<" + elementKind.toBoxedJavaClass().getSimpleName() + ">";
    }
}
