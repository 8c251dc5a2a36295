package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;
import jpai.Reduce;

/** Accelerated methods with 2-D array parameters, for {@link MatrixParametersTest}. */
final class MatrixKernels {

    private MatrixKernels() {
    }

    /** c = a b for a n x m, b m x p: a perfect nest over the elements of c. */
    @Accelerate
    static void matmul(float[][] a, float[][] b, float[][] c, int m) {
        for (@Parallel int i = 0; i < c.length; i++) {
            for (@Parallel int j = 0; j < b[0].length; j++) {
                float sum = 0;
                for (int k = 0; k < m; k++) {
                    sum += a[i][k] * b[k][j];
                }
                c[i][j] = sum;
            }
        }
    }

    /** Reads and writes each element of {@code m} in place, on every element type of a 2-D parameter. */
    @Accelerate
    static void scale(int[][] m, double[][] d, long[][] l, int columns, int k) {
        for (@Parallel int i = 0; i < m.length; i++) {
            for (int j = 0; j < columns; j++) {
                m[i][j] = m[i][j] * k + i - j;
                d[i][j] = d[i][j] / k + m[i][j];
                l[i][j] = l[i][j] * k ^ ((long) i << 40);
            }
        }
    }

    /** Sum of the diagonal: Java's index check of j = i fails on a matrix with fewer columns than rows. */
    @Accelerate
    static long trace(long[][] m) {
        @Reduce long sum = 0;
        for (@Parallel int i = 0; i < m.length; i++) {
            sum += m[i][i];
        }
        return sum;
    }
}
