package jpai.test.api;

import java.util.Objects;
import java.util.function.Function;

import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * Runs API tests on each of the three executors. On {@link Executor#ACCELERATOR} the test demands
 * that the device really ran ({@code jpai.fallback=error}) when the environment says an OpenCL
 * device exists ({@code JPAI_EXPECT_OPENCL=1}, set by {@code .ci/run}).
 */
final class ExecutorCase {

    static final Executor[] ALL = {Executor.SEQUENTIAL, Executor.THREADS, Executor.ACCELERATOR};

    private ExecutorCase() {
    }

    static boolean openCLExpected() {
        return "1".equals(System.getenv("JPAI_EXPECT_OPENCL"));
    }

    /** Applies {@code function} on {@code executor}, with fallbacks made errors on a real device. */
    static <T, R> PArray<R> apply(ArrayFunction<T, R> function, Executor executor, PArray<T> input) {
        String previous = System.getProperty("jpai.fallback");
        if (executor == Executor.ACCELERATOR && openCLExpected()) {
            System.setProperty("jpai.fallback", "error");
        }
        try {
            return function.on(executor).apply(input);
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.fallback");
            } else {
                System.setProperty("jpai.fallback", previous);
            }
        }
    }

    /** {@code f} applied by a plain Java loop: the reference. */
    static <T, R> Object[] javaLoop(Function<T, R> f, PArray<T> input) {
        Object[] expected = new Object[(int) input.length()];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = f.apply(input.get(i));
        }
        return expected;
    }

    /**
     * Element-for-element equality; wrappers' {@code equals} compares floating-point values by
     * their bits (NaN equals NaN, 0.0 differs from -0.0), as Java defines the results.
     */
    static void assertSameAsJava(Object[] expected, PArray<?> actual, String what) {
        if (expected.length != actual.length()) {
            throw new AssertionError(what + ": length " + actual.length() + ", Java's " + expected.length);
        }
        for (int i = 0; i < expected.length; i++) {
            Object value = actual.get(i);
            if (!Objects.equals(expected[i], value)) {
                throw new AssertionError(what + ": element " + i + " is " + value + ", Java gives " + expected[i]);
            }
        }
    }
}
