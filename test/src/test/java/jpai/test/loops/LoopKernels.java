package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;

/** Accelerated methods the tests call; each has a twin in {@link JavaTwins} with the same body and no annotation, run by the JVM as written. */
final class LoopKernels {

    private LoopKernels() {
    }

    @Accelerate
    static void saxpy(float alpha, float[] x, float[] y) {
        for (@Parallel int i = 0; i < y.length; i++) {
            y[i] = alpha * x[i] + y[i];
        }
    }
}
