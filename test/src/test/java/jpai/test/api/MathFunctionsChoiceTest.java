package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.compiler.MathFunctions;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * How kernels compute {@code Math}'s functions when {@code -Djpai.math} is unset: a GPU computes
 * {@code (float) Math.sin/cos/exp/log} of floats from the float ({@code java-float}; on NVIDIA's
 * OpenCL {@code java-float-device}, exp and log from its double built-ins), a CPU device
 * with FdLibm alone ({@code java}); both give {@code (float) StrictMath}'s bits, which the device
 * must reproduce here whichever this machine's device is (PoCL in CI, the H100 in
 * {@code bin/gpu-check tests}).
 */
class MathFunctionsChoiceTest {

    @AfterEach
    void propertiesAsBefore() {
        System.clearProperty(MathFunctions.PROPERTY);
        System.clearProperty("jpai.fastmath");
    }

    @Test
    void theDefaultComputesFloatArgumentsFromTheFloatOnGpusOnly() {
        System.clearProperty(MathFunctions.PROPERTY);
        boolean gpu = OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL chosen && chosen.device().kind() != DeviceKind.CPU;
        boolean nvidia = gpu && ((DeviceChoice.OpenCL) OpenCLRuntime.choice()).device().platformName().contains("NVIDIA");
        assertEquals(nvidia ? MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG : gpu ? MathFunctions.JAVA_FLOAT_ARGUMENTS : MathFunctions.JAVA, JpaiOptions.mathFunctions());
        System.setProperty(MathFunctions.PROPERTY, "java");
        assertEquals(MathFunctions.JAVA, JpaiOptions.mathFunctions());
        System.setProperty(MathFunctions.PROPERTY, "java-float");
        assertEquals(MathFunctions.JAVA_FLOAT_ARGUMENTS, JpaiOptions.mathFunctions());
        System.setProperty(MathFunctions.PROPERTY, "java-float-device");
        assertEquals(MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG, JpaiOptions.mathFunctions());
        System.clearProperty(MathFunctions.PROPERTY);
        System.setProperty("jpai.fastmath", "true");
        assertEquals(MathFunctions.OPENCL_BUILTINS, JpaiOptions.mathFunctions());
        System.setProperty(MathFunctions.PROPERTY, "sometimes");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, JpaiOptions::mathFunctions);
        assertTrue(refused.getMessage().contains("-Djpai.math=sometimes") && refused.getMessage().contains("java-float"), refused.getMessage());
    }

    /**
     * Random arguments (any bits, and uniform ones within 1.1e6, 100 and [0, 4)), the edges and each
     * function's hard cases; for angles ({@code trig}), none of magnitude 2^19 pi/2 (about 823,550)
     * or more: FdLibm's reduction of those is left to Java (docs/java-semantics.md), which would make
     * the operation a fallback here.
     */
    private static PArray<Float> arguments(boolean trig) {
        Random random = new Random(20261127L);
        float[] edges = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, 0x1p-126f, 1f, -1f, 1.5707964f, 3.1415927f, 0x1p19f, 823_549f, 88.72283f, 88.72284f,
            -103.97208f, -104f, 104.5f, 1e30f, Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
        float[] values = new float[60_000 + edges.length];
        for (int i = 0; i < 60_000; i++) {
            float value = switch (i % 4) {
                case 0 -> Float.intBitsToFloat(random.nextInt());
                case 1 -> (random.nextFloat() * 2 - 1) * 1.1e6f;
                case 2 -> (random.nextFloat() * 2 - 1) * 100f;
                default -> random.nextFloat() * 4f;
            };
            values[i] = trig && Math.abs(value) >= 823_549f && Float.isFinite(value) ? value % 823_549f : value;
        }
        System.arraycopy(edges, 0, values, 60_000, edges.length);
        for (int i = 60_000; trig && i < values.length; i++) {
            values[i] = Math.abs(values[i]) >= 823_549f && Float.isFinite(values[i]) ? 0x1.8p19f : values[i];
        }
        return PArray.of(values);
    }

    @Test
    void theDefaultGivesStrictMathsBitsOnTheDevice() {
        PArray<Float> angles = arguments(true);
        PArray<Float> any = arguments(false);
        check("sin", x -> (float) Math.sin(x), x -> (float) StrictMath.sin(x), angles);
        check("cos", x -> (float) Math.cos(x), x -> (float) StrictMath.cos(x), angles);
        check("exp", x -> (float) Math.exp(x), x -> (float) StrictMath.exp(x), any);
        check("log", x -> (float) Math.log(x), x -> (float) StrictMath.log(x), any);
        // a float expression of both, as DFT's inner loop has them (one reduction shared)
        check("cos + sin", x -> (float) Math.cos(x) * 3f - (float) Math.sin(x), x -> (float) StrictMath.cos(x) * 3f - (float) StrictMath.sin(x), angles);
    }

    /**
     * Each way of computing floats' functions from the float, chosen explicitly, gives {@code (float)
     * StrictMath}'s bits on this device: {@code java-float-device} reads the device's own {@code
     * double exp} and {@code log} on their fast paths, so this is where a device whose built-ins
     * broke OpenCL's bound by more than the rounding test's margin would show.
     */
    @ParameterizedTest
    @ValueSource(strings = {"java-float", "java-float-device"})
    void eachFloatArgumentChoiceGivesStrictMathsBitsOnTheDevice(String choice) {
        System.setProperty(MathFunctions.PROPERTY, choice);
        PArray<Float> any = arguments(false);
        check(choice + " exp", x -> (float) Math.exp(x), x -> (float) StrictMath.exp(x), any);
        check(choice + " log", x -> (float) Math.log(x), x -> (float) StrictMath.log(x), any);
        check(choice + " exp of a product", x -> (float) Math.exp(-0.5f * x * x) * 0.39894228f, x -> (float) StrictMath.exp(-0.5f * x * x) * 0.39894228f, any);
    }

    private static void check(String what, Function<Float, Float> f, Function<Float, Float> strict, PArray<Float> input) {
        long launches = KernelLaunches.count();
        try (PArray<Float> out = ExecutorCase.apply(AF.map(f), Executor.ACCELERATOR, input)) {
            if (ExecutorCase.openCLExpected()) {
                assertTrue(!AF.lastProfile().fellBack() && KernelLaunches.count() > launches, what + ": the device ran: " + AF.lastProfile());
            }
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(strict, input), out, what + " (against (float) StrictMath)");
        }
    }
}
