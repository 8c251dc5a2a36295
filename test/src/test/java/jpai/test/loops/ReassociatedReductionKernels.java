package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;
import jpai.Reduce;

/** Floating-point reductions whose user allows any association ({@code @Reduce(reassociate = true)}). */
final class ReassociatedReductionKernels {

    private ReassociatedReductionKernels() {
    }

    @Accelerate
    static float sum(float[] a) {
        @Reduce(reassociate = true) float sum = 0;
        for (@Parallel int i = 0; i < a.length; i++) {
            sum += a[i];
        }
        return sum;
    }

    /** A dot product from an initial value given by the caller. */
    @Accelerate
    static double dot(double[] a, double[] b, double initial) {
        @Reduce(reassociate = true) double dot = initial;
        for (@Parallel int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }

    @Accelerate
    static double product(double[] a) {
        @Reduce(reassociate = true) double product = 1;
        for (@Parallel int i = 0; i < a.length; i++) {
            product *= a[i];
        }
        return product;
    }
}
