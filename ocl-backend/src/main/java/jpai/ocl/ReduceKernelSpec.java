package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a reduction: the primitive kind of each input component (one buffer each) and of
 * each component of the reduced element (the combiner's argument and result shape; without a
 * mapper, the same as the input's).
 */
public record ReduceKernelSpec(List<JavaKind> inputComponents, List<JavaKind> elementComponents) {

    public ReduceKernelSpec {
        inputComponents = List.copyOf(inputComponents);
        elementComponents = List.copyOf(elementComponents);
    }
}
