package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.BinaryOperator;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code @Reduce(reassociate = true)} float and double reductions on the device: the result is the
 * initial value combined with JPAI's combining tree over the iterations' contributions (computed
 * here in Java by {@code AF.reduce} on the sequential executor, which follows the same tree), bit
 * for bit, for lengths that are not powers of two; without the opt-in the loop runs in Java
 * ({@code AcceleratedMethodsTest.aFloatSumRunsInJavaAsWrittenAndSaysWhy}).
 */
class ReassociatedReductionsTest extends WithTheAgent {

    private static <T> T tree(BinaryOperator<T> operator, T identity, PArray<T> contributions) {
        try (contributions; PArray<T> reduced = AF.reduce(operator, identity).on(Executor.SEQUENTIAL).apply(contributions)) {
            return reduced.get(0);
        }
    }

    @Test
    void aFloatSumIsTheCombiningTreesBitsOnTheDevice() {
        for (int n : new int[] {1, 17, 1000, 100_003}) {
            Random random = new Random(n);
            float[] a = new float[n];
            for (int k = 0; k < n; k++) {
                a[k] = (random.nextFloat() - 0.3f) * (1 << random.nextInt(20));
            }
            float expected = 0f + tree((x, y) -> x + y, -0f, PArray.of(a));
            long launches = KernelLaunches.count();
            float sum = ReassociatedReductionKernels.sum(a);
            assertTrue(KernelLaunches.count() > launches, "the sum ran on the device");
            assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(sum), "n = " + n + ": " + expected + " vs " + sum);
        }
    }

    @Test
    void aDoubleDotProductFromAParameterIsTheCombiningTreesBits() {
        int n = 30_001;
        Random random = new Random(7);
        double[] a = new double[n], b = new double[n], products = new double[n];
        for (int k = 0; k < n; k++) {
            a[k] = random.nextGaussian() * 1e3;
            b[k] = random.nextGaussian();
            products[k] = a[k] * b[k];
        }
        double initial = 0.1;
        double expected = initial + tree((x, y) -> x + y, -0d, PArray.of(products));
        long launches = KernelLaunches.count();
        double dot = ReassociatedReductionKernels.dot(a, b, initial);
        assertTrue(KernelLaunches.count() > launches, "the dot product ran on the device");
        assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(dot), expected + " vs " + dot);
    }

    @Test
    void aDoubleProductIsTheCombiningTreesBits() {
        int n = 4097;
        Random random = new Random(11);
        double[] a = new double[n];
        for (int k = 0; k < n; k++) {
            a[k] = 1 + (random.nextDouble() - 0.5) * 1e-3;
        }
        double expected = 1d * tree((x, y) -> x * y, 1d, PArray.of(a));
        double product = ReassociatedReductionKernels.product(a);
        assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(product), expected + " vs " + product);
    }
}
