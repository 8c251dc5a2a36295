package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;

/**
 * Accelerated methods with nested {@code @Parallel} loops, which the tests compare with their
 * original bodies ({@code jpai$original$<name>}, run by {@link OriginalBodies#runOf}).
 */
final class NestedLoopKernels {

    private NestedLoopKernels() {
    }

    /** c = a b: a is rows x inner, b inner x cols, c rows x cols, row-major; one work-item per element of c. */
    @Accelerate
    static void matmul(float[] a, float[] b, float[] c, int rows, int inner, int cols) {
        for (@Parallel int i = 0; i < rows; i++) {
            for (@Parallel int j = 0; j < cols; j++) {
                float sum = 0;
                for (int k = 0; k < inner; k++) {
                    sum += a[i * inner + k] * b[k * cols + j];
                }
                c[i * cols + j] = sum;
            }
        }
    }

    /** A 3-D nest from index 1 to the limits: a seven-point-like stencil on an x by y by z grid, interior points only. */
    @Accelerate
    static void stencil(double[] in, double[] out, int x, int y, int z) {
        for (@Parallel int i = 1; i < x; i++) {
            for (@Parallel int j = 1; j < y; j++) {
                for (@Parallel int k = 1; k < z; k++) {
                    int at = (i * (y + 1) + j) * (z + 1) + k;
                    out[at] = in[at] * 0.5 + (in[at - 1] + in[at - (z + 1)] + in[at - (y + 1) * (z + 1)]) / 6.0;
                }
            }
        }
    }

    /** A triangular nest: the inner bound is the outer index, so only the outer loop is the kernel. */
    @Accelerate
    static void lowerTriangle(int[] m, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            for (@Parallel int j = 0; j < i; j++) {
                m[i * n + j] = i * 1000 + j;
            }
        }
    }

    /** A nest whose outer body writes before the inner loop: not perfect, the inner loop runs in each work-item. */
    @Accelerate
    static void rowsWithHeader(int[] m, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            m[i * (n + 1)] = -i;
            for (@Parallel int j = 1; j <= n; j++) {
                m[i * (n + 1) + j] = i + j;
            }
        }
    }

    /** A 2-D nest whose body throws at one (i, j): Java's exception reaches the caller after Java's writes. */
    @Accelerate
    static void divide(int[] m, int[] d, int rows, int cols) {
        for (@Parallel int i = 0; i < rows; i++) {
            for (@Parallel int j = 0; j < cols; j++) {
                m[i * cols + j] = 1000 / d[i * cols + j];
            }
        }
    }

    /** Both loops marked, but each row's iterations accumulate into one element: the inner loop must stay sequential. */
    @Accelerate
    static void rowSums(float[] m, float[] sums, int rows, int cols) {
        for (@Parallel int i = 0; i < rows; i++) {
            for (@Parallel int j = 0; j < cols; j++) {
                sums[i] += m[i * cols + j];
            }
        }
    }
}
