package jpai.ocl;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a scan's down-sweep kernel: the primitive kind of each component of the scanned
 * element (the operator's argument and result shape; one buffer each) and the first level's leaf
 * width (elements folded per work-item, a power of two that the runtime's scan order defines; the
 * levels above it use leaves of one).
 *
 * @param singlePass whether the kernel is the single-pass scan (one launch over the input, the
 *            groups' carries passed between work-groups through global memory, see
 *            {@code OpenCLKernelGenerator.scan}) rather than one level of a reduce-then-scan
 */
public record ScanKernelSpec(List<JavaKind> elementComponents, int leafWidth, boolean singlePass) {

    public ScanKernelSpec {
        elementComponents = List.copyOf(elementComponents);
        if (leafWidth < 2 || Integer.bitCount(leafWidth) != 1) {
            throw new IllegalArgumentException("a scan's leaf width must be a power of two of at least 2, not " + leafWidth);
        }
    }
}
