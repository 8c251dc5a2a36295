package jpai.examples;

import java.util.Arrays;
import java.util.Random;

import jpai.Accelerate;
import jpai.PArray;
import jpai.Parallel;
import jpai.Reduce;

/**
 * Plain Java methods whose loops run on the OpenCL device when the JVM has JPAI's agent (also part
 * of {@code bin/jpai demo}):
 * {@code bin/jpai run jpai.examples.AnnotatedLoops} (the agent is in bin/jpai's command line), or
 * the README's {@code java -javaagent:build/lib/jpai-agent.jar ...} line. Each result is checked
 * against the same loop written without annotations, run by the JVM; add
 * {@code JPAI_JAVA_OPTS=-Djpai.explain=true} to see where each method ran.
 */
public final class AnnotatedLoops {

    private AnnotatedLoops() {
    }

    @Accelerate
    static void saxpy(float alpha, float[] x, float[] y) {
        for (@Parallel int i = 0; i < y.length; i++) {
            y[i] = alpha * x[i] + y[i];
        }
    }

    /**
     * c = a b, n x n, row-major. The two {@code @Parallel} loops are a perfect nest: one work-item
     * per element of c, on a 2-D NDRange whose dimension 0 runs along j (neighbouring work-items
     * read neighbouring elements of b and write neighbouring elements of c).
     */
    @Accelerate
    static void matmul(float[] a, float[] b, float[] c, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            for (@Parallel int j = 0; j < n; j++) {
                float sum = 0;
                for (int k = 0; k < n; k++) {
                    sum += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = sum;
            }
        }
    }

    /** The same product over {@code float[][]} matrices: each one buffer on the device, c's rows written back in place. */
    @Accelerate
    static void matmul2D(float[][] a, float[][] b, float[][] c) {
        for (@Parallel int i = 0; i < c.length; i++) {
            for (@Parallel int j = 0; j < b[0].length; j++) {
                float sum = 0;
                for (int k = 0; k < b.length; k++) {
                    sum += a[i][k] * b[k][j];
                }
                c[i][j] = sum;
            }
        }
    }

    /** saxpy on {@code PArray}s: they stay on the device between calls, and y is read back only when the host reads it. */
    @Accelerate
    static void saxpyResident(float alpha, PArray<Float> x, PArray<Float> y) {
        for (@Parallel int i = 0; i < y.length(); i++) {
            y.put(i, alpha * x.get(i) + y.get(i));
        }
    }

    /** How many values are above the threshold: an int reduction. */
    @Accelerate
    static int countAbove(float[] values, float threshold) {
        @Reduce int count = 0;
        for (@Parallel int i = 0; i < values.length; i++) {
            count += values[i] > threshold ? 1 : 0;
        }
        return count;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        System.exit(runAll(n, size) ? 0 : 1);
    }

    /**
     * Runs each method once on {@code n} elements ({@code size} x {@code size} for the matrices),
     * prints a line for each and returns whether every result is the same as Java's. Where each ran:
     * {@code -Djpai.explain=true} (bin/jpai demo sets it).
     */
    public static boolean runAll(int n, int size) {
        Random random = new Random(42);
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = random.nextFloat();
            y[i] = random.nextFloat();
        }
        float[] expected = y.clone();
        for (int i = 0; i < n; i++) {
            expected[i] = 2.5f * x[i] + expected[i];
        }
        boolean same = true;
        float[] yBefore = y.clone();
        long start = System.nanoTime();
        saxpy(2.5f, x, y);
        same &= report("saxpy", n + " elements", start, Arrays.equals(expected, y));

        try (PArray<Float> px = PArray.of(x); PArray<Float> py = PArray.of(yBefore)) {
            float[] twice = yBefore.clone();
            for (int i = 0; i < n; i++) {
                twice[i] = 2.5f * x[i] + (2.5f * x[i] + twice[i]);
            }
            start = System.nanoTime();
            saxpyResident(2.5f, px, py);
            saxpyResident(2.5f, px, py); // the second call finds x and y on the device
            same &= report("saxpy PArray", n + " elements, twice", start, Arrays.equals(twice, py.toFloatArray()));
        }

        float[] a = new float[size * size];
        float[] b = new float[size * size];
        for (int i = 0; i < a.length; i++) {
            a[i] = random.nextFloat() - 0.5f;
            b[i] = random.nextFloat() - 0.5f;
        }
        float[] c = new float[size * size];
        float[] reference = new float[size * size];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                float sum = 0;
                for (int k = 0; k < size; k++) {
                    sum += a[i * size + k] * b[k * size + j];
                }
                reference[i * size + j] = sum;
            }
        }
        start = System.nanoTime();
        matmul(a, b, c, size);
        same &= report("matmul", size + " x " + size, start, Arrays.equals(reference, c));

        float[][] a2 = new float[size][size];
        float[][] b2 = new float[size][size];
        float[][] c2 = new float[size][size];
        for (int i = 0; i < size; i++) {
            System.arraycopy(a, i * size, a2[i], 0, size);
            System.arraycopy(b, i * size, b2[i], 0, size);
        }
        start = System.nanoTime();
        matmul2D(a2, b2, c2);
        boolean rows = true;
        for (int i = 0; i < size; i++) {
            rows &= Arrays.equals(Arrays.copyOfRange(reference, i * size, (i + 1) * size), c2[i]);
        }
        same &= report("matmul2D", size + " x " + size + " float[][]", start, rows);

        int expectedCount = 0;
        for (float value : x) {
            expectedCount += value > 0.75f ? 1 : 0;
        }
        start = System.nanoTime();
        int count = countAbove(x, 0.75f);
        same &= report("countAbove", n + " elements, " + count + " above 0.75", start, count == expectedCount);
        return same;
    }

    private static boolean report(String what, String size, long start, boolean same) {
        System.out.printf("%-12s %-28s %9.2f ms  %s%n", what, size, (System.nanoTime() - start) / 1e6, same ? "same as Java" : "DIFFERENT FROM JAVA");
        return same;
    }
}
