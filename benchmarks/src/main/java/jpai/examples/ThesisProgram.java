package jpai.examples;

import jpai.PArray;

/**
 * One of the thesis's five programs written with the JPAI API: it makes its random input, runs itself
 * on an executor, and checks a result against the reference (the same function run sequentially by
 * the JVM).
 */
interface ThesisProgram extends AutoCloseable {

    String name();

    /** How results are compared: "bit-exact" or the tolerance and why. */
    String check();

    /** Runs the program on {@code executor}; the caller closes the result. */
    PArray<?> run(jpai.Executor executor);

    /** Null when {@code actual} matches {@code reference} as {@link #check()} says, else the first difference. */
    String compare(PArray<?> reference, PArray<?> actual);

    @Override
    void close();

    /** Bit-exact comparison of every element (wrappers' equals compare floating point by bits). */
    static String compareExactly(PArray<?> reference, PArray<?> actual) {
        if (reference.length() != actual.length()) {
            return "length " + actual.length() + " instead of " + reference.length();
        }
        for (long i = 0; i < reference.length(); i++) {
            if (!reference.get(i).equals(actual.get(i))) {
                return "element " + i + " is " + actual.get(i) + ", Java gives " + reference.get(i);
            }
        }
        return null;
    }
}
