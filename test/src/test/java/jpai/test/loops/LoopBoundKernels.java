package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;

/** Accelerated methods whose loop bounds are computed from the arguments (compared with their original bodies). */
final class LoopBoundKernels {

    private LoopBoundKernels() {
    }

    /** The interior of a 1-D grid: from 1 to a.length - 1. */
    @Accelerate
    static void smooth(float[] a, float[] out) {
        for (@Parallel int i = 1; i < a.length - 1; i++) {
            out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3f;
        }
    }

    /** Half as many iterations as elements: the limit n / 2. */
    @Accelerate
    static void pairSums(int[] a, int[] out, int n) {
        for (@Parallel int i = 0; i < n / 2; i++) {
            out[i] = a[2 * i] + a[2 * i + 1];
        }
    }

    /** Bounds computed before the loop from parameters. */
    @Accelerate
    static void upperHalf(long[] a, int n) {
        int last = n - 1;
        int middle = last >> 1;
        for (@Parallel int i = middle; i < last; i++) {
            a[i] = a[i] * 3 + i;
        }
    }

    /** A limit divided by a parameter, which Java throws at before the loop when it is 0. */
    @Accelerate
    static void everyKth(int[] a, int[] out, int k) {
        for (@Parallel int i = 0; i < a.length / k; i++) {
            out[i] = a[i * k];
        }
    }

    /** The interior of a 2-D grid: a nest from 1 to rows - 1 and cols - 1. */
    @Accelerate
    static void laplace(double[] in, double[] out, int rows, int cols) {
        for (@Parallel int i = 1; i < rows - 1; i++) {
            for (@Parallel int j = 1; j < cols - 1; j++) {
                out[i * cols + j] = in[(i - 1) * cols + j] + in[(i + 1) * cols + j] + in[i * cols + j - 1] + in[i * cols + j + 1] - 4 * in[i * cols + j];
            }
        }
    }

    /** A limit read from an array: refused (the loop could write it), the method runs in Java as written. */
    @Accelerate
    static void upToFirst(int[] a, int[] out) {
        for (@Parallel int i = 0; i < a[0]; i++) {
            out[i] = a[i] + 1;
        }
    }
}
