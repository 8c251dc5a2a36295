package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * Regressions for the bugs the differential fuzzer (branch {@code fuzz}, {@code KnownBugsTest})
 * found, minimised, each run on PoCL and compared bit for bit with Java.
 */
class FuzzerFoundBugsTest {

    /** Fuzz seed 7 program 67: an early return from an inner loop fell through to the outer loop. */
    @Test
    void earlyReturnFromNestedLoop() {
        Function<Integer, Integer> f = x -> {
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 2; j++) {
                    if (x > 0) {
                        return 1;
                    }
                }
            }
            return 2;
        };
        assertMapEqualsJava(f, Integer.class, Integer.class, new int[] {5, -5, 0, Integer.MIN_VALUE});
    }

    /** The same shape three loops deep, returning a value computed in the innermost loop. */
    @Test
    void earlyReturnFromThreeNestedLoops() {
        Function<Integer, Integer> f = x -> {
            int sum = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    for (int k = 0; k < 3; k++) {
                        sum += i * j + k;
                        if (sum > x) {
                            return sum * 7 + k;
                        }
                    }
                }
                sum -= 1;
            }
            return -sum;
        };
        assertMapEqualsJava(f, Integer.class, Integer.class, new int[] {-1, 0, 3, 10, 20, 40, 1000});
    }

    /** Fuzz seed 20261121 program 21: a lambda that ignores its argument made the generator throw. */
    @Test
    void lambdaIgnoringItsArgument() {
        assertMapEqualsJava((Integer x) -> 5, Integer.class, Integer.class, new int[] {1, 2});
        assertMapEqualsJava((Double x) -> 0.25f, Double.class, Float.class, new double[] {1, Double.NaN});
    }

    /** Fuzz seed 42 program 1020: Math.abs(Integer.MIN_VALUE) was taken as non-negative on PoCL. */
    @Test
    void absOfMinValue() {
        int[] inputs = {Integer.MIN_VALUE, -5, 0, 7, Integer.MAX_VALUE};
        assertMapEqualsJava((Integer x) -> (long) Math.abs(x), Integer.class, Long.class, inputs);
        assertMapEqualsJava((Integer x) -> Math.abs(x) < 0, Integer.class, Boolean.class, inputs);
        long[] longs = {Long.MIN_VALUE, -5, 0, 7, Long.MAX_VALUE};
        assertMapEqualsJava((Long x) -> Math.abs(x) < 0 ? 1.0 : (double) Math.abs(x), Long.class, Double.class, longs);
        assertMapEqualsJava((Long x) -> Math.abs(x) >>> 1, Long.class, Long.class, longs);
    }
    /**
     * Fuzz seed 20261121 programs 211 and 302 (OpenCL rejected the kernel: "use of undeclared label"):
     * a loop left from its body (two exits of a short-circuit condition, joined) and from its header,
     * both paths meeting at the one return. That merge is dominated by the loop header but lies after
     * the loop; it was emitted inside the loop body, without the label the jump from after the loop
     * needed (and a jump into the loop would have been wrong anyway).
     */
    @Test
    void mergeAfterLoopOfExitsFromBodyAndHeader() {
        Function<Double, Integer> f = x -> {
            double p = x;
            for (int i = 0; i < (((int) p) & 7); i++) {
                p += i * 3.0;
                if (p > 100.0 || p < -100.0) {
                    return (int) p;
                }
                p *= 2.0;
            }
            return (int) p;
        };
        assertMapEqualsJava(f, Double.class, Integer.class, new double[] {0, 1, 3, 5, 7, 15, 60, -3, 1e9, Double.NaN, -0.0});
        Function<Integer, Long> g = x -> {
            long s = x;
            for (int i = 0; i < (x & 15); i++) {
                s = s * 3 + i;
                if ((s & 1) == 0 && s > 50) {
                    s -= 7;
                    break;
                }
                if (s < -1000) {
                    break;
                }
            }
            return s * 2;
        };
        assertMapEqualsJava(g, Integer.class, Long.class, new int[] {0, 1, 2, 3, 7, 15, -1, -16, Integer.MIN_VALUE, Integer.MAX_VALUE});
    }
}
