package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a reduction: the primitive kind of each input component (one buffer each), of each
 * component of the reduced element (the combiner's argument and result shape; without a mapper, the
 * same as the input's), and the first pass's leaf width (elements folded per work-item, a power of
 * two that the runtime's combining order defines; the passes after the first use leaves of one).
 */
public record ReduceKernelSpec(List<JavaKind> inputComponents, List<JavaKind> elementComponents, int leafWidth) {

    public ReduceKernelSpec {
        inputComponents = List.copyOf(inputComponents);
        elementComponents = List.copyOf(elementComponents);
        if (leafWidth < 2 || Integer.bitCount(leafWidth) != 1) {
            throw new IllegalArgumentException("a reduction's leaf width must be a power of two of at least 2, not " + leafWidth);
        }
    }
}
