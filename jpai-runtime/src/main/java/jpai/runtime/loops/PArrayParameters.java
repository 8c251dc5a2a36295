package jpai.runtime.loops;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

import jdk.vm.ci.meta.JavaKind;
import jpai.ElementType;
import jpai.PArray;
import jpai.compiler.loops.IndexedElements;
import jpai.runtime.memory.PArrayStorage;

/**
 * {@code PArray} parameters of accelerated methods: what the compiler is told of them (an
 * {@link IndexedElements} of the element kind the declaration names, {@code PArray<Float>} a
 * {@code float} buffer) and what a call's {@code PArray} argument must be for the kernel to give
 * Java's result. On the device such a parameter is its array's resident device copy, kept between
 * calls as {@code AF}'s functions keep it ({@code DeviceResidency}): sent only when the host wrote
 * it since, never brought back until the host reads it.
 */
final class PArrayParameters {

    private static final Method GET;
    private static final Method PUT;
    private static final Method LENGTH;

    static {
        try {
            GET = PArray.class.getMethod("get", long.class);
            PUT = PArray.class.getMethod("put", long.class, Object.class);
            LENGTH = PArray.class.getMethod("length");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PArrayParameters() {
    }

    /** Whether parameter {@code k} of {@code body} is declared a {@code PArray}. */
    static boolean isPArray(Method body, int k) {
        return body.getParameterTypes()[k] == PArray.class;
    }

    /**
     * The element kind parameter {@code k} (a {@code PArray}) declares: {@code float} for
     * {@code PArray<Float>}; null for a raw {@code PArray}, a wildcard, a type variable or a tuple.
     */
    static JavaKind declaredElementKind(Method body, int k) {
        Type type = body.getGenericParameterTypes()[k];
        if (!(type instanceof ParameterizedType parameterized) || !(parameterized.getActualTypeArguments()[0] instanceof Class<?> element)) {
            return null;
        }
        for (ElementType elementType : ElementType.values()) {
            if (elementType.boxClass() == element) {
                return JavaKind.fromJavaClass(elementType.primitiveClass());
            }
        }
        return null;
    }

    /** What the compiler is told of a {@code PArray} parameter of element kind {@code kind}. */
    static IndexedElements accessors(JavaKind kind) {
        return new IndexedElements(kind, GET, PUT, LENGTH);
    }

    /**
     * Why {@code argument} (parameter {@code k}, declared of element kind {@code kind}) cannot be
     * passed to the kernel, or null when it can. The kernel takes an open array of scalars of the
     * declared element type (a raw or unchecked caller may pass another), at most
     * {@link Integer#MAX_VALUE} elements (the kernel's indices are {@code int}s).
     */
    static String problem(int k, JavaKind kind, PArray<?> argument) {
        String which = "its argument " + (k + 1) + " (a PArray<" + kind.toBoxedJavaClass().getSimpleName() + ">)";
        if (argument.isClosed()) {
            return which + " is closed";
        }
        if (argument.isTuples() || ((ElementType) argument.type()).primitiveClass() != kind.toJavaClass()) {
            return which + " holds " + argument.type().javaName() + " elements";
        }
        if (argument.length() > Integer.MAX_VALUE) {
            return which + " has " + argument.length() + " elements, more than a kernel's int index reaches";
        }
        return null;
    }

    /** The storage two arguments share when they are one array or views of it: the aliasing check compares these. */
    static Object storage(PArray<?> argument) {
        return PArrayStorage.buffer(argument, 0);
    }
}
