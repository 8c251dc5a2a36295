package jpai.runtime;

import jpai.PArray;

/** The checks every function makes of its input before any work starts. */
final class Inputs {

    private Inputs() {
    }

    /** Non-null and open, or a clear exception naming {@code operation}. */
    static void check(PArray<?> input, String operation) {
        if (input == null) {
            throw new NullPointerException(operation + " was applied to null; give it a PArray");
        }
        if (input.isClosed()) {
            throw new IllegalStateException(operation + " was applied to a closed " + input);
        }
    }
}
