package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a map: the primitive kind of each input component (the function's arguments'
 * components, flattened in order; one buffer each) and of each output component (the result's).
 */
public record MapKernelSpec(List<JavaKind> inputComponents, List<JavaKind> outputComponents) {

    public MapKernelSpec {
        inputComponents = List.copyOf(inputComponents);
        outputComponents = List.copyOf(outputComponents);
    }
}
