package jpai.runtime.loops;

import java.util.List;
import java.util.Map;

import jpai.PArray;
import jpai.compiler.CapturedValue;
import jpai.ocl.KernelParameter;
import jpai.runtime.KernelShapes;

/**
 * The fields of an accelerated instance method's receiver that its kernel reads: described to the
 * compiler as a lambda's captured objects are ({@link KernelShapes#receiverFieldsOf}: the receiver
 * plays the functional object; the fields of the method's class and its superclasses holding
 * primitives, wrappers, primitive arrays and rectangular 2-D primitive arrays, and those of the
 * objects in its fields, two deep), and read again at each call, final or not, since the method may
 * be called on another object or after a field changed. A {@code PArray} field is not offered (its
 * element type is not in its declaration's erasure): a method reading one is refused with the field
 * named.
 */
final class ReceiverFields {

    private ReceiverFields() {
    }

    /** What the compiler is told of the fields of the receiver of {@code body}, a method of that class (or of a superclass of the receiver's). */
    static List<CapturedValue> of(java.lang.reflect.Method body) {
        return KernelShapes.receiverFieldsOf(body.getDeclaringClass());
    }

    /**
     * The kernel's captured values by slot: the method's declared arguments (after the receiver in
     * {@code arguments} for an instance method), then the receiver's fields as they are now.
     */
    static Object[] values(CompiledLoop loop, Object[] arguments) {
        int declared = arguments.length - loop.firstArgument();
        Object[] values = new Object[declared + loop.receiverFields().size()];
        System.arraycopy(arguments, loop.firstArgument(), values, 0, declared);
        for (int f = 0; f < loop.receiverFields().size(); f++) {
            values[declared + f] = KernelShapes.valueOf(loop.receiverFields().get(f), arguments[0]);
        }
        return values;
    }

    /**
     * Why the field values the kernel reads cannot be sent, or null: a null array or wrapper (Java
     * throws where the method uses it), a null object on the way to one, a 2-D array that is not
     * rectangular, or an array that is also an argument's or another field's (a write through the
     * argument would change what the field's copy on the device cannot show). {@code seen} holds the
     * arguments' arrays ({@link ArgumentChecks}).
     */
    static String problem(CompiledLoop loop, Object[] values, int declared, Map<Object, String> seen) {
        for (KernelParameter parameter : loop.kernel().parameters()) {
            int slot = parameter.slot();
            boolean value = parameter.role() == KernelParameter.Role.CAPTURED_ARRAY || parameter.role() == KernelParameter.Role.CAPTURED_SCALAR;
            if (!value || slot < declared) {
                continue; // an argument (checked by ArgumentChecks), or a length, which comes with its value
            }
            CapturedValue field = loop.receiverFields().get(slot - declared);
            String which = "the field " + field.name() + " of this";
            Object current = values[slot];
            if (current instanceof KernelShapes.NullOnPath nullOnPath) {
                return which + " cannot be read: " + nullOnPath.reason().replace("the captured ", "the ").replace("the function", "the method");
            }
            if (current == null) {
                return which + " is null";
            }
            if (parameter.role() == KernelParameter.Role.CAPTURED_SCALAR) {
                continue;
            }
            Object storage = current instanceof PArray<?> array ? PArrayParameters.storage(array) : current;
            String other = seen.putIfAbsent(storage, which);
            if (other != null) {
                return which + " holds the same array as " + other + ", so a write through one would be a write through the other, which one buffer each cannot show";
            }
            if (current instanceof Object[] rows) {
                String problem = RectangularArguments.problem(which, rows, seen);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return null;
    }
}
