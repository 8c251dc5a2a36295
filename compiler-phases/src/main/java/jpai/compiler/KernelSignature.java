package jpai.compiler;

import java.util.List;

/**
 * The runtime's description of one function's data: the shapes of the arguments of its single
 * abstract method (the receiver excluded), the shape of its result, and the values it captured
 * (fields of the receiver), in the order the kernel takes them.
 *
 * <p>Arguments and the result are {@link ValueShape.BoxedPrimitive} or {@link ValueShape.Tuple};
 * captured values are described by {@link CapturedValue}. The result is null for a function that
 * returns nothing (the body of a parallel loop, whose effects are its array writes).
 */
public record KernelSignature(List<ValueShape> arguments, ValueShape result, List<CapturedValue> captures) {

    public KernelSignature {
        arguments = List.copyOf(arguments);
        captures = List.copyOf(captures);
        for (ValueShape argument : arguments) {
            if (!(argument instanceof ValueShape.BoxedPrimitive || argument instanceof ValueShape.Tuple)) {
                throw new IllegalArgumentException("an argument is a boxed primitive or a tuple, not " + argument);
            }
        }
        if (result != null && !(result instanceof ValueShape.BoxedPrimitive || result instanceof ValueShape.Tuple)) {
            throw new IllegalArgumentException("a result is a boxed primitive or a tuple, not " + result);
        }
    }

    /** A function that captures nothing. */
    public KernelSignature(List<ValueShape> arguments, ValueShape result) {
        this(arguments, result, List.of());
    }

    /** The result's primitive components; none for a function that returns nothing. */
    public List<jdk.vm.ci.meta.JavaKind> resultComponents() {
        return result == null ? List.of() : result.components();
    }

    /** The shape of the argument with this parameter index (0 is the receiver, 1 the first argument). */
    public ValueShape argumentAt(int parameterIndex) {
        return arguments.get(parameterIndex - 1);
    }

    /** True if {@code parameterIndex} names a function argument (not the receiver). */
    public boolean isArgument(int parameterIndex) {
        return parameterIndex >= 1 && parameterIndex <= arguments.size();
    }
}
