package jpai.runtime;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.ElementType;
import jpai.PArray;
import jpai.TupleType;
import jpai.compiler.CapturedValue;
import jpai.compiler.ValueShape;

/**
 * Describes the API's data to the compiler, which knows no API class: element types as
 * {@link ValueShape}s, and the values a lambda captured as {@link CapturedValue}s.
 */
final class KernelShapes {

    private static final Method PARRAY_GET = method("get", long.class);
    private static final Method PARRAY_LENGTH = method("length");

    private KernelShapes() {
    }

    /** A scalar element is a boxed primitive; a tuple is its record class, its fields and their shapes. */
    static ValueShape of(DataType type) {
        if (type instanceof ElementType scalar) {
            return new ValueShape.BoxedPrimitive(kind(scalar));
        }
        TupleType tuple = (TupleType) type;
        Class<?> tupleClass = tuple.javaClass();
        List<Field> fields = new ArrayList<>();
        List<ValueShape> components = new ArrayList<>();
        for (int i = 0; i < tuple.arity(); i++) {
            try {
                fields.add(tupleClass.getDeclaredField("_" + (i + 1)));
            } catch (NoSuchFieldException e) {
                throw new AssertionError(tupleClass + " has no field _" + (i + 1), e);
            }
            components.add(new ValueShape.BoxedPrimitive(kind(tuple.components().get(i))));
        }
        return new ValueShape.Tuple(tupleClass, fields, components);
    }

    /**
     * The values {@code function} captured that kernels can use: its instance fields holding
     * primitives, wrappers, primitive arrays or PArrays of scalars, in declaration order. Other
     * fields (a captured {@code this}, a String, a tuple PArray) are left out: if the lambda uses
     * one, the compiler says which and why it cannot.
     */
    static List<CapturedValue> capturesOf(Object function) {
        List<CapturedValue> captures = new ArrayList<>();
        for (Field field : function.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            ValueShape shape = shapeOfCapture(field, function);
            if (shape != null) {
                field.setAccessible(true); // once: valueOf runs at every launch
                captures.add(new CapturedValue(field, shape));
            }
        }
        return List.copyOf(captures);
    }

    private static ValueShape shapeOfCapture(Field field, Object function) {
        Class<?> type = field.getType();
        if (type.isPrimitive()) {
            return new ValueShape.Primitive(JavaKind.fromJavaClass(type));
        }
        if (type.isArray() && type.componentType().isPrimitive()) {
            return new ValueShape.PrimitiveArray(JavaKind.fromJavaClass(type.componentType()));
        }
        for (ElementType element : ElementType.values()) {
            if (element.boxClass() == type) {
                return new ValueShape.BoxedPrimitive(kind(element));
            }
        }
        if (type == PArray.class && valueOf(field, function) instanceof PArray<?> array && array.type() instanceof ElementType element) {
            return new ValueShape.ElementReader(kind(element), PARRAY_GET, PARRAY_LENGTH);
        }
        return null;
    }

    /** The value of a captured field of {@code function}. */
    static Object valueOf(Field field, Object function) {
        try {
            if (!field.canAccess(function)) {
                field.setAccessible(true);
            }
            return field.get(function);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read the captured value " + field.getName() + " of " + function.getClass().getName() + ": " + e, e);
        }
    }

    static JavaKind kind(ElementType type) {
        return JavaKind.fromJavaClass(type.primitiveClass());
    }

    /** The primitive kinds of {@code type}'s components, in order. */
    static List<JavaKind> kinds(DataType type) {
        List<JavaKind> kinds = new ArrayList<>();
        for (ElementType component : type.components()) {
            kinds.add(kind(component));
        }
        return kinds;
    }

    private static Method method(String name, Class<?>... parameters) {
        try {
            return PArray.class.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
