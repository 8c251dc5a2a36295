package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;
import jpai.Reduce;

/**
 * Accelerated methods the tests call. The agent keeps each one's original body as
 * {@code jpai$original$<name>}, which {@link OriginalBodies} runs: the same code, run by the JVM as
 * written, is what every device result is compared with.
 */
final class LoopKernels {

    private LoopKernels() {
    }

    @Accelerate
    static void saxpy(float alpha, float[] x, float[] y) {
        for (@Parallel int i = 0; i < y.length; i++) {
            y[i] = alpha * x[i] + y[i];
        }
    }

    // ------------------------------------------------------------ every element type

    @Accelerate
    static void bytes(byte[] a, byte[] out, byte k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = (byte) (a[i] * k + i);
        }
    }

    @Accelerate
    static void shorts(short[] a, short[] out, short k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = (short) (a[i] * k - i);
        }
    }

    @Accelerate
    static void chars(char[] a, char[] out, char k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = (char) (a[i] + k * i);
        }
    }

    @Accelerate
    static void ints(int[] a, int[] out, int k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i] * k - (a[i] >>> 3) + i / (k | 1);
        }
    }

    @Accelerate
    static void longs(long[] a, long[] out, long k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i] * k ^ (a[i] >> 7) + i;
        }
    }

    @Accelerate
    static void floats(float[] a, float[] out, float k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i] / k + (float) Math.sqrt(Math.abs(a[i])) - i;
        }
    }

    @Accelerate
    static void doubles(double[] a, double[] out, double k) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = StrictMath.sin(a[i]) * k + a[i] / 3.0;
        }
    }

    @Accelerate
    static void booleans(boolean[] a, boolean[] out, boolean flip) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i] ^ flip ^ (i % 3 == 0);
        }
    }

    // ------------------------------------------------------------ loops inside, bounds from parameters

    /** c = a b for n x n matrices in row-major order, one work-item per row of c. */
    @Accelerate
    static void matmul(float[] a, float[] b, float[] c, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = sum;
            }
        }
    }

    /** In place, from a start index: reads and writes y[i] only. */
    @Accelerate
    static void scaleFrom(double[] y, int from, double factor) {
        for (@Parallel int i = from; i < y.length; i++) {
            y[i] = y[i] * factor;
        }
    }

    // ------------------------------------------------------------ reductions

    @Accelerate
    static int sumOfSquares(int[] a) {
        @Reduce int sum = 0;
        for (@Parallel int i = 0; i < a.length; i++) {
            sum += a[i] * a[i];
        }
        return sum;
    }

    @Accelerate
    static long maximum(long[] a, long start) {
        @Reduce long max = start;
        for (@Parallel int i = 0; i < a.length; i++) {
            max = Math.max(max, a[i] * 3 - i);
        }
        return max;
    }

    /** A float sum: its bits depend on the order, so it runs in Java as written. */
    @Accelerate
    static float floatSum(float[] a) {
        @Reduce float sum = 0;
        for (@Parallel int i = 0; i < a.length; i++) {
            sum += a[i];
        }
        return sum;
    }

    // ------------------------------------------------------------ Java exceptions inside the loop

    /** Sums {@code table[0..bound)} until {@code j == keys[i] & 3}: its bounds check is hoisted, and fails where {@code bound > table.length}. */
    @Accelerate
    static void earlyBreakingSums(int[] keys, int[] table, int bound, int[] out) {
        for (@Parallel int i = 0; i < out.length; i++) {
            int sum = 0;
            for (int j = 0; j < bound; j++) {
                if (j == (keys[i] & 3)) {
                    break;
                }
                sum += table[j];
            }
            out[i] = sum;
        }
    }

    @Accelerate
    static void shifted(int[] a, int[] out, int offset) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i + offset];
        }
    }

    @Accelerate
    static void quotients(int[] a, int[] d, int[] out) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = a[i] / d[i];
        }
    }

    // ------------------------------------------------------------ refused

    /** A break: the iterations after it must not run, which a kernel cannot know. */
    @Accelerate
    static void untilNegative(int[] a) {
        for (@Parallel int i = 0; i < a.length; i++) {
            if (a[i] < 0) {
                break;
            }
            a[i] = a[i] * 2;
        }
    }

    /** Iteration i reads what iteration i - 1 wrote: a loop-carried dependence. */
    @Accelerate
    static void runningDoubling(int[] a) {
        for (@Parallel int i = 1; i < a.length; i++) {
            a[i] = a[i - 1] * 2 + 1;
        }
    }
}
