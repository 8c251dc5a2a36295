package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/** Compiles real lambdas to kernels and compares what the device computes with what Java computes. */
final class KernelTestSupport {

    static final Method FUNCTION_APPLY = method(Function.class, "apply", Object.class);
    static final Method BIFUNCTION_APPLY = method(java.util.function.BiFunction.class, "apply", Object.class, Object.class);

    private KernelTestSupport() {
    }

    static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** The lambda's captured values as the runtime would describe them: its instance fields, in declaration order. */
    static List<CapturedValue> capturesOf(Object lambda) {
        List<CapturedValue> captures = new ArrayList<>();
        for (Field field : lambda.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            Class<?> type = field.getType();
            ValueShape shape;
            if (type.isPrimitive()) {
                shape = new ValueShape.Primitive(JavaKind.fromJavaClass(type));
            } else if (type.isArray() && type.getComponentType().isPrimitive()) {
                shape = new ValueShape.PrimitiveArray(JavaKind.fromJavaClass(type.getComponentType()));
            } else {
                try {
                    shape = ValueShape.ofBoxed(type);
                } catch (IllegalArgumentException e) {
                    continue; // not a value the runtime passes (a captured `this`): the compiler must refuse it
                }
            }
            captures.add(new CapturedValue(field, shape));
        }
        return captures;
    }

    /** The values of the captured fields, as the runtime would pass them (booleans as bytes). */
    static List<Object> captureValues(Object lambda, List<CapturedValue> captures) {
        List<Object> values = new ArrayList<>();
        for (CapturedValue capture : captures) {
            if (capture.isStaticArray()) {
                values.add(capture.staticArray() instanceof boolean[] flags ? bytes(flags) : capture.staticArray());
                continue;
            }
            try {
                capture.field().setAccessible(true);
                Object value = capture.field().get(lambda);
                values.add(value instanceof boolean[] flags ? bytes(flags) : value);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return values;
    }

    private static byte[] bytes(boolean[] flags) {
        byte[] bytes = new byte[flags.length];
        for (int i = 0; i < flags.length; i++) {
            bytes[i] = (byte) (flags[i] ? 1 : 0);
        }
        return bytes;
    }

    /**
     * Runs {@code body} with kernels computing {@code Math}'s functions as {@code math} says (the
     * {@code -Djpai.math} property every compiler reads), then restores the property. Tests run one
     * at a time in this module.
     */
    static void withMath(jpai.compiler.MathFunctions math, Runnable body) {
        String old = System.getProperty(jpai.compiler.MathFunctions.PROPERTY);
        System.setProperty(jpai.compiler.MathFunctions.PROPERTY, math.optionValue());
        try {
            body.run();
        } finally {
            if (old == null) {
                System.clearProperty(jpai.compiler.MathFunctions.PROPERTY);
            } else {
                System.setProperty(jpai.compiler.MathFunctions.PROPERTY, old);
            }
        }
    }

    static KernelGraph compile(Object function, Method method, List<ValueShape> arguments, ValueShape result) {
        return new KernelGraphCompiler().compile(function, method, new KernelSignature(arguments, result, capturesOf(function)));
    }

    static KernelSource map(Function<?, ?> function, Class<?> in, Class<?> out) {
        KernelGraph graph = compile(function, FUNCTION_APPLY, List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out));
        return new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(kind(in)), List.of(kind(out))));
    }

    static JavaKind kind(Class<?> boxed) {
        return ((ValueShape.BoxedPrimitive) ValueShape.ofBoxed(boxed)).kind();
    }

    /** Runs the map of {@code function} over {@code inputs} (a primitive array) on the device. */
    static OpenCLTestDevice.Result runMap(Function<?, ?> function, Class<?> in, Class<?> out, Object inputs) {
        KernelSource source = map(function, in, out);
        List<CapturedValue> captures = source.captures(); // the lambda's, then the static arrays the compiler found
        return OpenCLTestDevice.get().map(source, Array.getLength(inputs), List.of(inputs), List.of(kind(out)), captureValues(function, captures));
    }

    /** Asserts that the device's map of {@code function} over {@code inputs} equals Java's, bit for bit. */
    static <T, R> void assertMapEqualsJava(Function<T, R> function, Class<T> in, Class<R> out, Object inputs) {
        OpenCLTestDevice.Result result = runMap(function, in, out, inputs);
        assertEquals(DeoptReason.NONE, result.reason(), "the kernel left at element " + result.status()[1]);
        Object actual = result.outputs().get(0);
        for (int i = 0; i < Array.getLength(inputs); i++) {
            T argument = in.cast(Array.get(inputs, i));
            Object expected = function.apply(argument);
            assertSameValue(expected, Array.get(actual, i), "f(" + argument + ") at element " + i);
        }
    }

    static void assertSameValue(Object expected, Object actual, String what) {
        if (expected instanceof Float f) {
            float a = (Float) actual;
            if (Float.floatToRawIntBits(f) != Float.floatToRawIntBits(a) && !(Float.isNaN(f) && Float.isNaN(a))) {
                throw new AssertionError(what + ": Java " + f + " (" + Float.toHexString(f) + "), device " + a + " (" + Float.toHexString(a) + ")");
            }
        } else if (expected instanceof Double d) {
            double a = (Double) actual;
            if (Double.doubleToRawLongBits(d) != Double.doubleToRawLongBits(a) && !(Double.isNaN(d) && Double.isNaN(a))) {
                throw new AssertionError(what + ": Java " + d + " (" + Double.toHexString(d) + "), device " + a + " (" + Double.toHexString(a) + ")");
            }
        } else if (expected instanceof Boolean b) {
            assertEquals(b ? (byte) 1 : (byte) 0, actual, what);
        } else {
            assertEquals(expected, actual, what);
        }
    }

    /** Java's sequential reduction, for comparison. */
    static <T> T reduceInJava(T identity, BinaryOperator<T> combiner, List<T> values) {
        T accumulator = identity;
        for (T value : values) {
            accumulator = combiner.apply(accumulator, value);
        }
        return accumulator;
    }
}
