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

    /** The OpenCL extension the single-pass scan needs: its node words are 64-bit atomics. */
    public static final String SINGLE_PASS_EXTENSION = "cl_khr_int64_base_atomics";

    /**
     * The ints of the single-pass scan's {@link KernelParameter.Role#NODE_WORDS} buffer for
     * {@code groups} work-groups: the counter of started groups and a pad, then a 64-bit word per
     * 32-bit slice of each node's value, for at most {@code 2 * groups} nodes. All zero before the launch.
     */
    public long singlePassWordInts(long groups) {
        return 2 + 2 * (2 * groups * slicesPerNode(elementComponents));
    }

    /** 32-bit slices of a node's value: a word each (see {@link #slicesOf}). */
    static int slicesPerNode(List<JavaKind> element) {
        int slices = 0;
        for (JavaKind kind : element) {
            slices += slicesOf(kind);
        }
        return slices;
    }

    /** 32-bit slices of a component's value type: 2 for long and double, else 1 (narrower kinds are widened to int). */
    static int slicesOf(JavaKind kind) {
        return kind == JavaKind.Long || kind == JavaKind.Double ? 2 : 1;
    }
}
