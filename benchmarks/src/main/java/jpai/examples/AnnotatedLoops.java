package jpai.examples;

import java.util.Arrays;
import java.util.Random;

import jpai.Accelerate;
import jpai.Parallel;
import jpai.Reduce;

/**
 * Plain Java methods whose loops run on the OpenCL device when the JVM has JPAI's agent:
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
        long start = System.nanoTime();
        saxpy(2.5f, x, y);
        report("saxpy", n + " elements", start, Arrays.equals(expected, y));

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
        report("matmul", size + " x " + size, start, Arrays.equals(reference, c));

        int expectedCount = 0;
        for (float value : x) {
            expectedCount += value > 0.75f ? 1 : 0;
        }
        start = System.nanoTime();
        int count = countAbove(x, 0.75f);
        report("countAbove", n + " elements, " + count + " above 0.75", start, count == expectedCount);
    }

    private static void report(String what, String size, long start, boolean same) {
        System.out.printf("%-10s %-28s %9.2f ms  %s%n", what, size, (System.nanoTime() - start) / 1e6, same ? "same as Java" : "DIFFERENT FROM JAVA");
        if (!same) {
            System.exit(1);
        }
    }
}
