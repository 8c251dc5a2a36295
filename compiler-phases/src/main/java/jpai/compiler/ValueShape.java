package jpai.compiler;

import jdk.vm.ci.meta.JavaKind;

/**
 * What the runtime promises about a value crossing the kernel boundary (an argument of the
 * function, or its result). The compiler knows no API class: the runtime describes its data to it
 * in these terms.
 */
public sealed interface ValueShape {

    /**
     * A wrapper object ({@code Float}, {@code Integer}, ...) of the given primitive kind, never
     * null. On the device it is the bare primitive.
     */
    record BoxedPrimitive(JavaKind kind) implements ValueShape {
        public BoxedPrimitive {
            if (!kind.isPrimitive() || kind == JavaKind.Void) {
                throw new IllegalArgumentException("not a primitive kind: " + kind);
            }
        }

        /** The wrapper class, e.g. {@code java.lang.Float} for {@link JavaKind#Float}. */
        public Class<?> boxClass() {
            return kind.toBoxedJavaClass();
        }

        @Override
        public String toString() {
            return boxClass().getSimpleName();
        }
    }

    /** The shape of a value of class {@code type} if the runtime supports it as kernel data. */
    static ValueShape ofBoxed(Class<?> type) {
        for (JavaKind kind : JavaKind.values()) {
            if (kind.isPrimitive() && kind.toBoxedJavaClass() == type) {
                return new BoxedPrimitive(kind);
            }
        }
        throw new IllegalArgumentException(type.getName() + " is not a primitive wrapper type");
    }
}
