package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a map: the primitive kind of each input component (the function's arguments'
 * components, flattened in order; one buffer each) and of each output component (the result's).
 *
 * @param inputIsIndex the input is the element index itself (an index range: element {@code i} is
 *            {@code i}): one {@code int} component and no input buffer; the kernel passes its own
 *            index to the function
 */
public record MapKernelSpec(List<JavaKind> inputComponents, List<JavaKind> outputComponents, boolean inputIsIndex) {

    public MapKernelSpec {
        inputComponents = List.copyOf(inputComponents);
        outputComponents = List.copyOf(outputComponents);
        if (inputIsIndex && !inputComponents.equals(List.of(JavaKind.Int))) {
            throw new IllegalArgumentException("a map over indices has one int input component, not " + inputComponents);
        }
    }

    /** A map reading its input from buffers. */
    public MapKernelSpec(List<JavaKind> inputComponents, List<JavaKind> outputComponents) {
        this(inputComponents, outputComponents, false);
    }
}
