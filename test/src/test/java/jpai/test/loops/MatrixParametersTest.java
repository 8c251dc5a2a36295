package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;


/**
 * Rectangular 2-D array parameters of {@code @Accelerate} methods on the device (PoCL here), each
 * result compared with the method's original body run by the JVM on copies of the same data: the
 * matrix multiply over {@code float[][]}, elements read and written in place on {@code int[][]},
 * {@code double[][]} and {@code long[][]}, written results copied back into each row; a ragged
 * array, a null row and a row shared by two arguments run in Java as written and say why; an index
 * past a row throws Java's exception after Java's writes only.
 */
class MatrixParametersTest extends WithTheAgentExplaining {

    private static float[][] floats(Random random, int rows, int columns) {
        float[][] m = new float[rows][columns];
        for (float[] row : m) {
            for (int j = 0; j < columns; j++) {
                row[j] = random.nextFloat() - 0.5f;
            }
        }
        m[0][0] = -0.0f;
        return m;
    }

    private static float[][] copy(float[][] m) {
        float[][] c = new float[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    @Test
    void theMatrixMultiplyOverFloatMatricesGivesJavasBits() {
        Random random = new Random(41);
        int n = 37, m = 29, p = 53; // no multiple of a work-group side
        float[][] a = floats(random, n, m);
        float[][] b = floats(random, m, p);
        float[][] c = floats(random, n, p);
        float[][] expected = copy(c);
        float[][] rowsBefore = c.clone();
        ExplainedCall call = explained(() -> {
            MatrixKernels.matmul(a, b, c, m);
            return null;
        });
        assertTrue(call.launched(), "matmul ran on the device: " + call.said());
        OriginalBodies.runOf(MatrixKernels.class, "matmul", a, b, expected, m);
        for (int i = 0; i < n; i++) {
            assertArrayEquals(expected[i], c[i], "row " + i);
            assertTrue(rowsBefore[i] == c[i], "the results are copied into the caller's row objects");
        }
    }

    @Test
    void elementsReadAndWrittenInPlaceOnEveryElementType() {
        Random random = new Random(43);
        int rows = 301, columns = 7;
        int[][] m = new int[rows][columns];
        double[][] d = new double[rows][columns];
        long[][] l = new long[rows][columns];
        int[][] mExpected = new int[rows][];
        double[][] dExpected = new double[rows][];
        long[][] lExpected = new long[rows][];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                m[i][j] = i == 0 && j < 2 ? (j == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt();
                d[i][j] = i == 0 && j < 2 ? (j == 0 ? Double.NaN : -0.0) : random.nextGaussian() * 1e5;
                l[i][j] = random.nextLong();
            }
            mExpected[i] = m[i].clone();
            dExpected[i] = d[i].clone();
            lExpected[i] = l[i].clone();
        }
        assertTrue(explained(() -> {
            MatrixKernels.scale(m, d, l, columns, -3);
            return null;
        }).launched(), "scale ran on the device");
        OriginalBodies.runOf(MatrixKernels.class, "scale", mExpected, dExpected, lExpected, columns, -3);
        for (int i = 0; i < rows; i++) {
            assertArrayEquals(mExpected[i], m[i]);
            assertArrayEquals(dExpected[i], d[i]);
            assertArrayEquals(lExpected[i], l[i]);
        }
    }

    @Test
    void aReductionOverA2DArrayAndJavasExceptionWhenARowIsShort() {
        long[][] square = new long[50][50];
        Random random = new Random(47);
        for (long[] row : square) {
            for (int j = 0; j < row.length; j++) {
                row[j] = random.nextLong();
            }
        }
        ExplainedCall call = explained(() -> MatrixKernels.trace(square));
        assertTrue(call.launched());
        assertEquals(OriginalBodies.runOf(MatrixKernels.class, "trace", (Object) square).result(), call.result());

        long[][] wide = new long[50][30]; // rows past 29 have no element i
        ExplainedCall short_ = explained(() -> MatrixKernels.trace(wide));
        assertTrue(short_.launched(), "the kernel ran first");
        assertNotNull(short_.thrown());
        Throwable java = OriginalBodies.runOf(MatrixKernels.class, "trace", (Object) wide).thrown();
        assertEquals(java.getClass(), short_.thrown().getClass());
        assertEquals(java.getMessage(), short_.thrown().getMessage());
    }

    @Test
    void raggedArraysNullRowsAndSharedRowsRunInJavaAndSayWhy() {
        Random random = new Random(53);
        float[][] a = floats(random, 4, 4);
        float[][] b = floats(random, 4, 4);

        float[][] ragged = floats(random, 4, 4);
        ragged[2] = new float[3];
        float[][] raggedExpected = copy(ragged);
        ExplainedCall call = explained(() -> {
            MatrixKernels.matmul(a, b, ragged, 4);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("not rectangular"), call.said());
        assertNotNull(call.thrown(), "Java's exception at the short row");
        Throwable java = OriginalBodies.runOf(MatrixKernels.class, "matmul", a, b, raggedExpected, 4).thrown();
        assertEquals(java.getClass(), call.thrown().getClass());
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(raggedExpected[i], ragged[i]);
        }

        float[][] nullRow = floats(random, 4, 4);
        nullRow[1] = null;
        call = explained(() -> {
            MatrixKernels.matmul(a, b, nullRow, 4);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("row 1 of its argument 3"), call.said());
        assertTrue(call.thrown() instanceof NullPointerException, String.valueOf(call.thrown()));

        float[][] shared = floats(random, 4, 4);
        shared[3] = a[0]; // c's last row is a's first: Java's writes to it change what later elements read
        float[][] sharedExpectedA = copy(a);
        float[][] sharedExpected = copy(shared);
        sharedExpected[3] = sharedExpectedA[0];
        call = explained(() -> {
            MatrixKernels.matmul(a, b, shared, 4);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("is also in its argument 1"), call.said());
        OriginalBodies.runOf(MatrixKernels.class, "matmul", sharedExpectedA, b, sharedExpected, 4);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(sharedExpected[i], shared[i]);
            assertArrayEquals(sharedExpectedA[i], a[i]);
        }
    }
}
