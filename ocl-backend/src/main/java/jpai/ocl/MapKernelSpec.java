package jpai.ocl;

import java.util.Collections;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;

/**
 * The data of a map: the primitive kind of each input component (the function's arguments'
 * components, flattened in order; one buffer each) and of each output component (the result's).
 *
 * @param indexDimensions 0 for a map reading its input from buffers; 1, 2 or 3 for a map over an
 *            index space (a range): the input element is the element's own index, one {@code int}
 *            component per dimension ({@code (i)}, {@code (i, j)}, {@code (i, j, k)}, the outermost
 *            first, elements in row-major order), which the kernel takes from its NDRange and reads
 *            from no buffer
 */
public record MapKernelSpec(List<JavaKind> inputComponents, List<JavaKind> outputComponents, int indexDimensions) {

    /** The most dimensions an index space has (an OpenCL NDRange's). */
    public static final int MAX_INDEX_DIMENSIONS = 3;

    public MapKernelSpec {
        inputComponents = List.copyOf(inputComponents);
        outputComponents = List.copyOf(outputComponents);
        if (indexDimensions < 0 || indexDimensions > MAX_INDEX_DIMENSIONS) {
            throw new IllegalArgumentException("an index space has 1 to " + MAX_INDEX_DIMENSIONS + " dimensions, not " + indexDimensions);
        }
        if (indexDimensions > 0 && !inputComponents.equals(Collections.nCopies(indexDimensions, JavaKind.Int))) {
            throw new IllegalArgumentException("a map over a " + indexDimensions + "-D index space has " + indexDimensions + " int input components, not " + inputComponents);
        }
    }

    /** A map reading its input from buffers. */
    public MapKernelSpec(List<JavaKind> inputComponents, List<JavaKind> outputComponents) {
        this(inputComponents, outputComponents, 0);
    }

    /** Whether the input is an index space rather than buffers. */
    public boolean inputIsIndex() {
        return indexDimensions > 0;
    }
}
