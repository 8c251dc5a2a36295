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
 * {@link ValueShape}s, and the values a lambda captured as {@link CapturedValue}s (public for
 * {@code jpai.runtime.loops}, where an accelerated instance method's receiver is described and read
 * as a lambda's functional object is).
 */
public final class KernelShapes {

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

    /** How many fields of one captured object are offered to the compiler at most (each read one becomes a kernel argument). */
    private static final int MAX_OBJECT_FIELDS = 256;
    /** How deep into captured objects fields are offered: {@code p.w} and {@code p.inner.w}. */
    private static final int MAX_OBJECT_DEPTH = 2;

    /**
     * The values {@code function} captured that kernels can use, in declaration order: its instance
     * fields holding primitives, wrappers, primitive arrays, 2-D primitive arrays or PArrays of
     * scalars, and, for a field holding an object of the user's own class (a record, a parameter
     * object, a captured {@code this}), that object's non-volatile instance fields of those types
     * (but PArrays), also one object further. Other fields (a String, a tuple PArray) are left out:
     * if the lambda uses one, the compiler says which and why it cannot. The compiler makes kernel
     * arguments only of the object fields the function reads.
     */
    public static List<CapturedValue> capturesOf(Object function) {
        requireOpenToJpai(function.getClass());
        List<CapturedValue> captures = new ArrayList<>();
        for (Field field : function.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            ValueShape shape = shapeOfCapture(field, function);
            if (shape != null) {
                field.setAccessible(true); // once: valueOf runs at every launch
                captures.add(new CapturedValue(field, shape));
            } else if (isUserObjectType(field.getType()) && accessible(field)) {
                List<CapturedValue> fields = new ArrayList<>();
                addObjectFields(field, List.of(), field.getType(), fields);
                captures.addAll(fields.subList(0, Math.min(fields.size(), MAX_OBJECT_FIELDS)));
            }
        }
        return List.copyOf(captures);
    }

    /**
     * The values an accelerated instance method of {@code type} may read through its receiver, as
     * {@link #capturesOf} describes a lambda's: the instance fields of {@code type} and of its
     * superclasses of the user's (a method may be called on an object of a subclass, whose own fields
     * it cannot name) holding primitives, wrappers, primitive arrays or 2-D primitive arrays, and the
     * fields of an object of the user's class in one of them, one object further; volatile fields and
     * {@code PArray}s are left out (if the method reads one, the compiler names it and refuses).
     */
    public static List<CapturedValue> receiverFieldsOf(Class<?> type) {
        requireOpenToJpai(type);
        List<CapturedValue> captures = new ArrayList<>();
        for (Class<?> c = type; c != null && isUserObjectType(c); c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isVolatile(modifiers) || !accessible(field)) {
                    continue;
                }
                ValueShape shape = shapeOfValue(field.getType());
                if (shape != null) {
                    captures.add(new CapturedValue(field, shape));
                } else if (isUserObjectType(field.getType())) {
                    List<CapturedValue> fields = new ArrayList<>();
                    addObjectFields(field, List.of(), field.getType(), fields);
                    captures.addAll(fields.subList(0, Math.min(fields.size(), MAX_OBJECT_FIELDS)));
                }
            }
        }
        return List.copyOf(captures);
    }

    /**
     * A lambda that captured values can run on the device only if JPAI may read them: its class's
     * package must be open to JPAI. A user module that does not open it gets a reason naming the
     * line to add, said by default (it is the user's set-up, like a missing flag), and the
     * operation runs in Java, where no reflection is needed.
     */
    private static void requireOpenToJpai(Class<?> type) {
        Module module = type.getModule();
        Module jpai = KernelShapes.class.getModule();
        if (!hasInstanceFields(type) || module.isOpen(type.getPackageName(), jpai)) {
            return;
        }
        String opens = "opens " + type.getPackageName() + (jpai.isNamed() ? " to " + jpai.getName() : "") + ";";
        String owner = type.getName().replaceAll("\\$\\$Lambda.*", ""); // the hidden class's name without its suffix
        String reason = "a lambda of " + owner + " captures values that JPAI cannot read: module " + module.getName() + " does not open package "
                        + type.getPackageName() + " to JPAI; add '" + opens + "' to its module-info.java";
        Explain.notice(reason);
        throw new jpai.compiler.KernelBailoutException(reason, null);
    }

    private static boolean hasInstanceFields(Class<?> type) {
        for (Field field : type.getDeclaredFields()) {
            if (!Modifier.isStatic(field.getModifiers())) {
                return true;
            }
        }
        return false;
    }

    /** The fields of an object of class {@code type} reached from the functional object's {@code field} through {@code path}. */
    private static void addObjectFields(Field field, List<Field> path, Class<?> type, List<CapturedValue> captures) {
        for (Class<?> c = type; c != null && isUserObjectType(c); c = c.getSuperclass()) {
            for (Field member : c.getDeclaredFields()) {
                int modifiers = member.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isVolatile(modifiers) || !accessible(member)) {
                    continue;
                }
                List<Field> longer = new ArrayList<>(path);
                longer.add(member);
                ValueShape shape = shapeOfValue(member.getType());
                if (shape != null) {
                    captures.add(CapturedValue.throughFields(field, longer, shape));
                } else if (longer.size() < MAX_OBJECT_DEPTH && isUserObjectType(member.getType())) {
                    addObjectFields(field, longer, member.getType(), captures);
                }
            }
        }
    }

    /**
     * A class of the user's, whose objects' fields kernels may read: not a primitive, an array, an
     * interface, a class of the JDK (its fields are its implementation) or of JPAI itself.
     */
    private static boolean isUserObjectType(Class<?> type) {
        if (type.isPrimitive() || type.isArray() || type.isInterface() || type == Object.class) {
            return false;
        }
        ClassLoader loader = type.getClassLoader();
        if (loader == null || loader == ClassLoader.getPlatformClassLoader()) {
            return false;
        }
        java.security.CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null || !source.equals(JPAI_CODE);
    }

    private static final java.security.CodeSource JPAI_CODE = PArray.class.getProtectionDomain().getCodeSource();

    private static boolean accessible(Field field) {
        try {
            field.setAccessible(true);
            return true;
        } catch (RuntimeException e) {
            return false; // a field of a module that does not open it: the compiler refuses a read of it
        }
    }

    private static ValueShape shapeOfCapture(Field field, Object function) {
        ValueShape shape = shapeOfValue(field.getType());
        if (shape != null) {
            return shape;
        }
        if (field.getType() == PArray.class && valueOf(field, function) instanceof PArray<?> array && array.type() instanceof ElementType element) {
            return new ValueShape.ElementReader(kind(element), PARRAY_GET, PARRAY_LENGTH);
        }
        return null;
    }

    /** The shape of a field of declared type {@code type}, or null: a primitive, a wrapper, a primitive array, a 2-D primitive array. */
    private static ValueShape shapeOfValue(Class<?> type) {
        if (type.isPrimitive()) {
            return new ValueShape.Primitive(JavaKind.fromJavaClass(type));
        }
        if (type.isArray() && type.componentType().isPrimitive()) {
            return new ValueShape.PrimitiveArray(JavaKind.fromJavaClass(type.componentType()));
        }
        if (type.isArray() && type.componentType().isArray() && type.componentType().componentType().isPrimitive()) {
            return new ValueShape.RectangularArray(JavaKind.fromJavaClass(type.componentType().componentType()));
        }
        for (ElementType element : ElementType.values()) {
            if (element.boxClass() == type) {
                return new ValueShape.BoxedPrimitive(kind(element));
            }
        }
        return null;
    }

    /**
     * An object on the path to a captured value was null at the apply: the kernel cannot have the
     * value, and the apply runs in Java, which throws Java's exception where an element reads
     * through the null object, and gives its result where none does.
     */
    public record NullOnPath(String reason) {
    }

    /**
     * The current value of {@code capture} of {@code owner} (the functional object): its field, the
     * fields of a captured object read in turn ({@link NullOnPath} where an object on the way is
     * null), or a static array itself.
     */
    public static Object valueOf(CapturedValue capture, Object owner) {
        if (capture.isStaticArray()) {
            return capture.staticArray();
        }
        Object value = valueOf(capture.field(), owner);
        for (Field step : capture.path()) {
            if (value == null) {
                return new NullOnPath("the captured " + step.getDeclaringClass().getSimpleName() + " object is null, and the function may read its field " + step.getName());
            }
            value = valueOf(step, value);
        }
        return value;
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
