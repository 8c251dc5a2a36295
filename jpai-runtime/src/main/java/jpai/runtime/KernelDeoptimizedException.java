package jpai.runtime;

import jpai.ocl.DeoptReason;

/**
 * A kernel left the device path at some element because Java would have taken an exception path
 * there (an index out of bounds, a division by zero, ...): the operation must run in Java, which
 * gives Java's result or throws Java's exception.
 */
final class KernelDeoptimizedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    KernelDeoptimizedException(int code, int element) {
        super("at element " + (element == Integer.MAX_VALUE ? "2^31-1 or beyond" : String.valueOf(element)) + ", " + DeoptReason.fromCode(code).message()
                        + "; the operation re-ran in Java");
    }

    /** The kernel could not take this apply's data ({@code why}), so the operation ran in Java without launching it. */
    KernelDeoptimizedException(String why) {
        super(why + "; the operation ran in Java");
    }
}
