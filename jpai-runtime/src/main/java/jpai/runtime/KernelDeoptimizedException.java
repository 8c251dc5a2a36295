package jpai.runtime;

import jpai.ocl.DeoptReason;

/**
 * A kernel left the device path at some element because Java would have taken an exception path
 * there (an index out of bounds, a division by zero, ...), or because a speculation of the kernel
 * failed ({@link DeoptReason#speculation()}): the operation must run in Java, which gives Java's
 * result or throws Java's exception.
 */
final class KernelDeoptimizedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why the kernel exited, or null when it never ran (the data could not be bound). */
    private final transient DeoptReason reason;
    /** The element it exited at (the lowest, for a map), or 0 when it never ran. */
    private final int element;

    KernelDeoptimizedException(int code, int element) {
        this(code, element, null);
    }

    /**
     * @param indexSpace the extents of the map's index space (outermost first) when its input was a
     *            2-D or 3-D range, so that the message names the indices of the element too; else null
     */
    KernelDeoptimizedException(int code, int element, int[] indexSpace) {
        super("at element " + (element == Integer.MAX_VALUE ? "2^31-1 or beyond" : element + indices(element, indexSpace)) + ", " + DeoptReason.fromCode(code).message());
        this.reason = DeoptReason.fromCode(code);
        this.element = element;
    }

    /** " (index (i, j))" of row-major element {@code element} in {@code indexSpace}, or "" for none. */
    private static String indices(long element, int[] indexSpace) {
        if (indexSpace == null || indexSpace.length < 2) {
            return "";
        }
        long[] index = new long[indexSpace.length];
        long rest = element;
        for (int d = indexSpace.length - 1; d >= 0; d--) {
            index[d] = rest % indexSpace[d];
            rest /= indexSpace[d];
        }
        StringBuilder text = new StringBuilder(" (index (");
        for (int d = 0; d < index.length; d++) {
            text.append(d == 0 ? "" : ", ").append(index[d]);
        }
        return text.append("))").toString();
    }

    /** The kernel could not take this apply's data ({@code why}), so the operation ran in Java without launching it. */
    KernelDeoptimizedException(String why) {
        super(why + "; the operation ran in Java");
        this.reason = null;
        this.element = 0;
    }

    /** Why the kernel exited, or null when it did not run. */
    DeoptReason reason() {
        return reason;
    }

    /** The element the kernel exited at (for a map, the lowest that exited), or 0 when it did not run. */
    int element() {
        return element;
    }

    /** Whether a kernel ran and exited (else the data could not be bound and no kernel ran). */
    boolean kernelExited() {
        return reason != null;
    }
}
