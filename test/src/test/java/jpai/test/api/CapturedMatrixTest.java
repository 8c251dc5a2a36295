package jpai.test.api;

import static jpai.test.api.DeviceRun.assertInJavaAsJava;
import static jpai.test.api.DeviceRun.assertOnDeviceAsJava;
import static jpai.test.api.DeviceRun.assertThrowsAsJava;

import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.PArray;

/**
 * Issue 19: captured rectangular 2-D primitive arrays ({@code float[][]}, {@code long[][]}, ...)
 * run on the device, sent as one buffer of their rows at each apply, with Java's checks of both
 * indices; a ragged array or a null row at the apply runs that apply in Java, which gives Java's
 * result or exception. Before, every such lambda ran in Java ("uses an object (LoadIndexed)").
 */
class CapturedMatrixTest {

    private static final int SIZE = 5_000;

    private static PArray<Integer> randomInts(long seed) {
        return MapTest.cast(RandomData.of(ElementType.INT, SIZE, seed));
    }

    private static float[][] randomFloats(int rows, int columns, long seed) {
        Random random = new Random(seed);
        float[][] m = new float[rows][columns];
        float[] edges = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, Float.MIN_VALUE, -1f};
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                m[i][j] = (i * columns + j) < edges.length ? edges[i * columns + j] : (random.nextFloat() - 0.5f) * 1000f;
            }
        }
        return m;
    }

    @Test
    void aFloatMatrixIndexedByTheElement() {
        float[][] m = randomFloats(7, 13, 1);
        Function<Integer, Float> f = x -> m[(x & 0x7fffffff) % m.length][(x >>> 3) % m[0].length] * 2f + m.length - m[1].length;
        try (PArray<Integer> in = randomInts(2)) {
            assertOnDeviceAsJava(f, AF.map(f, Float.class), in, "float[7][13]");
        }
    }

    @Test
    void everyPrimitiveElementType() {
        Random random = new Random(3);
        long[][] longs = new long[5][4];
        double[][] doubles = new double[5][4];
        int[][] ints = new int[5][4];
        short[][] shorts = new short[5][4];
        char[][] chars = new char[5][4];
        byte[][] bytes = new byte[5][4];
        boolean[][] flags = new boolean[5][4];
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j < 4; j++) {
                longs[i][j] = i + j == 0 ? Long.MIN_VALUE : random.nextLong();
                doubles[i][j] = i + j == 0 ? -0.0 : random.nextGaussian() * 1e9;
                ints[i][j] = i + j == 0 ? Integer.MIN_VALUE : random.nextInt();
                shorts[i][j] = (short) random.nextInt();
                chars[i][j] = (char) random.nextInt();
                bytes[i][j] = (byte) random.nextInt();
                flags[i][j] = random.nextBoolean();
            }
        }
        Function<Integer, Long> integral = x -> {
            int i = (x & 0x7fffffff) % 5;
            int j = (x >>> 5) & 3;
            return longs[i][j] * 31 + ints[i][j] + shorts[i][j] + chars[i][j] + bytes[i][j] + (flags[i][j] ? 1 : 0);
        };
        Function<Integer, Double> floating = x -> doubles[(x & 0x7fffffff) % 5][x & 3] * 0.5;
        try (PArray<Integer> in = randomInts(4)) {
            assertOnDeviceAsJava(integral, AF.map(integral, Long.class), in, "long, int, short, char, byte and boolean [5][4]");
            assertOnDeviceAsJava(floating, AF.map(floating, Double.class), in, "double[5][4]");
        }
    }

    /** A row read in a loop: a matrix-vector product, row by row, as users write it. */
    @Test
    void aLoopOverARow() {
        float[][] a = randomFloats(64, 48, 5);
        float[] v = randomFloats(1, 48, 6)[0];
        Function<Integer, Float> row = i -> {
            float[] r = a[i];
            float sum = 0f;
            for (int j = 0; j < r.length; j++) {
                sum += r[j] * v[j];
            }
            return sum;
        };
        try (PArray<Integer> in = PArray.range(64)) {
            assertOnDeviceAsJava(row, AF.map(row, Float.class), in, "A·v by rows");
        }
    }

    /** Writes into the rows, and a row replaced by another of the same length, between two applies: the second sees them. */
    @Test
    void writesBetweenAppliesAreSeen() {
        int[][] m = {{1, 2, 3}, {4, 5, 6}};
        Function<Integer, Integer> f = x -> m[x & 1][x % 3] * 10 + x;
        ArrayFunction<Integer, Integer> map = AF.map(f, Integer.class);
        try (PArray<Integer> in = PArray.range(600)) {
            assertOnDeviceAsJava(f, map, in, "before the writes");
            m[1][2] = -600;
            m[0] = new int[] {7, 8, 9};
            assertOnDeviceAsJava(f, map, in, "after the writes");
        }
    }

    @Test
    void anOutOfBoundsRowOrColumnThrowsJavasException() {
        double[][] m = {{1, 2, 3}, {4, 5, 6}};
        Function<Integer, Double> row = x -> x < 2000 ? m[x & 1][1] : m[x - 1998][0];
        Function<Integer, Double> column = x -> x < 2000 ? m[x & 1][x % 3] : m[0][x - 1997];
        Function<Integer, Double> negative = x -> x < 2000 ? m[1][2] : m[1][-x];
        try (PArray<Integer> in = PArray.range(3000)) {
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, row, AF.map(row, Double.class), in, true, "row 2 of 2");
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, column, AF.map(column, Double.class), in, true, "column 3 of 3");
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, negative, AF.map(negative, Double.class), in, true, "column -2000");
        }
    }

    @Test
    void aNullMatrixThrowsJavasExceptionOnlyWhereRead() {
        long[][] nul = null;
        Function<Integer, Long> never = x -> x < 1_000_000 ? (long) x : nul[0][x];
        Function<Integer, Long> late = x -> x < 100 ? (long) x : nul[0][x];
        Function<Integer, Integer> length = x -> x < 100 ? x : nul.length;
        try (PArray<Integer> in = PArray.range(3000)) {
            assertOnDeviceAsJava(never, AF.map(never, Long.class), in, "a null long[][] never read");
            assertThrowsAsJava(NullPointerException.class, late, AF.map(late, Long.class), in, true, "a null long[][] read at element 100");
            assertThrowsAsJava(NullPointerException.class, length, AF.map(length, Integer.class), in, true, "the length of a null long[][]");
        }
    }

    /** Not rectangular at the apply: the apply runs in Java (Java's result and exceptions), the next rectangular one on the device again. */
    @Test
    void aRaggedMatrixOrANullRowRunsThatApplyInJava() {
        int[][] m = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
        Function<Integer, Integer> f = x -> m[x % 3][x & 1] + m[x % 3].length;
        Function<Integer, Integer> wide = x -> x < 2000 ? m[x % 3][0] : m[1][2];
        ArrayFunction<Integer, Integer> map = AF.map(f, Integer.class);
        try (PArray<Integer> in = PArray.range(3000)) {
            assertOnDeviceAsJava(f, map, in, "rectangular");
            m[1] = new int[] {4, 5};
            assertInJavaAsJava(f, map, in, "not rectangular", "ragged, every index inside its row");
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, wide, AF.map(wide, Integer.class), in, false, "ragged, index 2 of the short row");
            m[1] = null;
            assertThrowsAsJava(NullPointerException.class, f, map, in, false, "a null row");
            m[1] = new int[] {-4, -5, -6};
            assertOnDeviceAsJava(f, map, in, "rectangular again");
        }
    }

    /**
     * A row chosen at a merge ({@code (c ? m[0] : m[1])[j]}) is a row object the kernel does not
     * have: the compiler refuses it with a sentence naming the 2-D array, and Java runs the map.
     */
    @Test
    void aRowChosenAtAMergeRunsInJavaWithAReason() {
        int[][] m = {{1, 2}, {3, 4}};
        Function<Integer, Integer> f = x -> {
            int[] row = (x & 1) == 0 ? m[0] : m[1];
            int sum = 0;
            for (int j = 0; j < x % 3; j++) {
                sum += row[j & 1] * j;
            }
            return sum;
        };
        try (PArray<Integer> in = PArray.range(500)) {
            assertInJavaAsJava(f, AF.map(f, Integer.class), in, "the captured int[][] (a 2-D array) other than by m[i][j]", "a row chosen at a merge");
        }
    }

    /** A captured matrix in a map fused into a reduction. */
    @Test
    void aMatrixInAMapThenReduce() {
        long[][] weights = {{1, -2, 3, 4}, {5, 6, -7, 8}, {Long.MAX_VALUE, 1, 2, 3}};
        Function<Integer, Long> weigh = x -> weights[x % 3][(x >>> 2) & 3] * x;
        try (PArray<Integer> in = PArray.range(10_000);
                        PArray<Long> sum = ExecutorCase.apply(AF.map(weigh, Long.class).reduce((Long a, Long b) -> a + b, 0L), jpai.Executor.ACCELERATOR, in)) {
            long expected = 0;
            for (int x = 0; x < 10_000; x++) {
                expected += weigh.apply(x);
            }
            org.junit.jupiter.api.Assertions.assertEquals(expected, sum.get(0));
            if (ExecutorCase.openCLExpected()) {
                org.junit.jupiter.api.Assertions.assertFalse(AF.lastProfile().fellBack(), AF.lastProfile().toString());
            }
        }
    }
}
