package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.FallbackException;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.FloatingPointSupport;

/**
 * Issue 11: the device's floating-point capabilities are read (CL_DEVICE_SINGLE/DOUBLE_FP_CONFIG),
 * not assumed. A device that would flush subnormals, lacks correctly rounded divide and sqrt, or has
 * no doubles runs the operations that need them in Java, saying which capability is missing; an
 * integer kernel still runs there. The device's own capabilities (PoCL's, the H100's) are Java's.
 */
class FloatingPointCapabilityTest {

    @AfterEach
    void restore() {
        System.clearProperty(FloatingPointSupport.TEST_MASK_PROPERTY);
    }

    @Test
    void aDeviceThatFlushesSubnormalsRunsFloatKernelsInJava() {
        // a new lambda per test, so no program is cached from before the mask
        Function<Float, Float> f = x -> x * 0.5f + Float.MIN_VALUE;
        float[] values = {Float.MIN_NORMAL, Float.MIN_VALUE * 3, 1f, -2.5e-39f};
        System.setProperty(FloatingPointSupport.TEST_MASK_PROPERTY, "denormals");
        try (PArray<Float> in = PArray.of(values)) {
            if (ExecutorCase.openCLExpected()) {
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(f, Float.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("flushes float subnormal numbers to zero"), e.getMessage());
            }
            try (PArray<Float> out = AF.map(f, Float.class).on(Executor.ACCELERATOR).apply(in)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "computed in Java instead");
            }
        }
    }

    @Test
    void aDeviceWithoutDoublesRunsDoubleKernelsInJavaAndIntegerKernelsOnTheDevice() {
        Function<Double, Double> d = x -> x / 3.0;
        Function<Integer, Integer> i = x -> x * 7 - 1;
        System.setProperty(FloatingPointSupport.TEST_MASK_PROPERTY, "double,correctlyRoundedDivideSqrt");
        try (PArray<Double> in = PArray.of(1.0, 2.0, 1e-310); PArray<Integer> ints = PArray.of(1, 2, 3)) {
            if (ExecutorCase.openCLExpected()) {
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(d, Double.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("has no double arithmetic"), e.getMessage());
            }
            try (PArray<Integer> out = ExecutorCase.apply(AF.map(i, Integer.class), Executor.ACCELERATOR, ints)) {
                assertEquals(20, out.get(2));
            }
        }
    }

    @Test
    void theDevicesOwnCapabilitiesAreJavas() {
        Function<Float, Float> f = x -> x / 3f + (float) Math.sqrt(x);
        Function<Double, Double> d = x -> x / 3.0 + Math.sqrt(x);
        try (PArray<Float> in = PArray.of(1f, 1e-40f, 2f); PArray<Float> out = ExecutorCase.apply(AF.map(f, Float.class), Executor.ACCELERATOR, in);
                        PArray<Double> din = PArray.of(1.0, 1e-310, 2.0); PArray<Double> dout = ExecutorCase.apply(AF.map(d, Double.class), Executor.ACCELERATOR, din)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "float on the device");
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(d, din), dout, "double on the device");
        }
    }

    /**
     * Issue 12: a device without correctly rounded float divide and sqrt runs a float division in
     * Java under the built-in formulation, and on the device under -Djpai.exactDivSqrt=fma, whose
     * program is built without the option and computes both exactly itself.
     */
    @Test
    void withoutCorrectlyRoundedDivideSqrtTheFmaFormulationStillRunsOnTheDevice() {
        Function<Float, Float> f = x -> 1.0f / (float) Math.sqrt(x) + x / 7f;
        float[] values = {2f, 3f, 1e-40f, 0x1.fffffep127f, 0.1f};
        System.setProperty(FloatingPointSupport.TEST_MASK_PROPERTY, "correctlyRoundedDivideSqrt");
        try (PArray<Float> in = PArray.of(values)) {
            if (ExecutorCase.openCLExpected()) {
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(f, Float.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("does not divide and take square roots of floats correctly rounded"), e.getMessage());
            }
            System.setProperty(JpaiOptions.EXACT_DIV_SQRT, "fma");
            try (PArray<Float> out = ExecutorCase.apply(AF.map(f, Float.class), Executor.ACCELERATOR, in)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "the fma formulation on the device");
            }
        } finally {
            System.clearProperty(JpaiOptions.EXACT_DIV_SQRT);
        }
    }
}
