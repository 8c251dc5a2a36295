package jpai.test.loops;

import jpai.Accelerate;
import jpai.PArray;
import jpai.Parallel;
import jpai.Reduce;

/** Accelerated methods with {@code PArray} parameters, for {@link PArrayParametersTest}. */
final class PArrayKernels {

    private PArrayKernels() {
    }

    @Accelerate
    static void saxpy(float alpha, PArray<Float> x, PArray<Float> y) {
        for (@Parallel int i = 0; i < y.length(); i++) {
            y.put(i, alpha * x.get(i) + y.get(i));
        }
    }

    /** As {@link #saxpy}, used only by the test of the kernel without index checks (compiled once per JVM, while it dumps kernels). */
    @Accelerate
    static void axpyForTheUncheckedKernel(float alpha, PArray<Float> x, PArray<Float> y) {
        for (@Parallel int i = 0; i < y.length(); i++) {
            y.put(i, alpha * x.get(i) + y.get(i));
        }
    }

    @Accelerate
    static void ints(PArray<Integer> a, PArray<Integer> out, int k) {
        for (@Parallel int i = 0; i < out.length(); i++) {
            int v = a.get(i);
            out.put(i, v * k + (v >> 3) - Integer.MIN_VALUE);
        }
    }

    @Accelerate
    static void longs(PArray<Long> a, PArray<Long> out) {
        for (@Parallel int i = 0; i < (int) a.length(); i++) {
            long v = a.get(i);
            out.put(i, v * 0x9E3779B97F4A7C15L ^ (v >>> 17));
        }
    }

    @Accelerate
    static void doubles(PArray<Double> a, PArray<Double> out, double scale) {
        for (@Parallel int i = 0; i < out.length(); i++) {
            double v = a.get(i);
            out.put(i, v * scale + 1.0 / v);
        }
    }

    @Accelerate
    static void bytesAndBooleans(PArray<Byte> a, PArray<Boolean> negative, PArray<Short> widened) {
        for (@Parallel int i = 0; i < a.length(); i++) {
            byte v = a.get(i);
            negative.put(i, v < 0);
            widened.put(i, (short) (v * 300));
        }
    }

    /** A Java array and a PArray in one method: the array is copied per call, the PArray stays resident. */
    @Accelerate
    static void mixed(float[] weights, PArray<Float> values) {
        for (@Parallel int i = 0; i < weights.length; i++) {
            values.put(i, values.get(i) * weights[i]);
        }
    }

    @Accelerate
    static long sum(PArray<Long> a) {
        @Reduce long total = 0;
        for (@Parallel int i = 0; i < a.length(); i++) {
            total += a.get(i);
        }
        return total;
    }

    /** Writes {@code a} in place; Java throws ArithmeticException at the first zero of {@code b}. */
    @Accelerate
    static void divideInPlace(PArray<Integer> a, PArray<Integer> b) {
        for (@Parallel int i = 0; i < a.length(); i++) {
            a.put(i, a.get(i) / b.get(i));
        }
    }

    /** Reads {@code source} at computed indices: Java throws IndexOutOfBoundsException at the first one outside it. */
    @Accelerate
    static void gather(PArray<Float> source, PArray<Integer> indices, PArray<Float> out) {
        for (@Parallel int i = 0; i < out.length(); i++) {
            out.put(i, source.get(indices.get(i)) + out.get(i));
        }
    }
}
