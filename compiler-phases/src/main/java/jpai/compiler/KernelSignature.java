package jpai.compiler;

import java.util.List;

/**
 * The runtime's description of one function's data: the shapes of the arguments of its single
 * abstract method (the receiver, which holds captured values, excluded) and the shape of its
 * result.
 */
public record KernelSignature(List<ValueShape> arguments, ValueShape result) {

    public KernelSignature {
        arguments = List.copyOf(arguments);
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
