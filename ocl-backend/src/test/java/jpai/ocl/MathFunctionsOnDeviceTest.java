package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.compiler.MathFunctions;
import jpai.compiler.phases.MathCallsToNodesPhase;

/**
 * By default ({@code -Djpai.math} unset) kernels compute {@code Math}'s transcendental functions as
 * {@code StrictMath}'s, FdLibm inlined: the device gives {@code StrictMath.f(x)} bit for bit, which
 * is within {@code Math}'s documented bound (it is the JDK's reference implementation of
 * {@code Math.f}), never an OpenCL built-in with its wider bound. {@code -Djpai.math=opencl}
 * brings the built-ins back.
 */
class MathFunctionsOnDeviceTest {

    /** Each function of {@link MathCallsToNodesPhase#FUNCTIONS} through {@code Math}, and its {@code StrictMath} twin. */
    private static Map<String, Function<Double, Double>[]> functions() {
        Map<String, Function<Double, Double>[]> all = new LinkedHashMap<>();
        put(all, "sin", x -> Math.sin(x), x -> StrictMath.sin(x));
        put(all, "cos", x -> Math.cos(x), x -> StrictMath.cos(x));
        put(all, "tan", x -> Math.tan(x), x -> StrictMath.tan(x));
        put(all, "asin", x -> Math.asin(x), x -> StrictMath.asin(x));
        put(all, "acos", x -> Math.acos(x), x -> StrictMath.acos(x));
        put(all, "atan", x -> Math.atan(x), x -> StrictMath.atan(x));
        put(all, "atan2", x -> Math.atan2(x, -0.75), x -> StrictMath.atan2(x, -0.75));
        put(all, "sinh", x -> Math.sinh(x), x -> StrictMath.sinh(x));
        put(all, "cosh", x -> Math.cosh(x), x -> StrictMath.cosh(x));
        put(all, "tanh", x -> Math.tanh(x), x -> StrictMath.tanh(x));
        put(all, "exp", x -> Math.exp(x), x -> StrictMath.exp(x));
        put(all, "expm1", x -> Math.expm1(x), x -> StrictMath.expm1(x));
        put(all, "log", x -> Math.log(x), x -> StrictMath.log(x));
        put(all, "log10", x -> Math.log10(x), x -> StrictMath.log10(x));
        put(all, "log1p", x -> Math.log1p(x), x -> StrictMath.log1p(x));
        put(all, "cbrt", x -> Math.cbrt(x), x -> StrictMath.cbrt(x));
        put(all, "hypot", x -> Math.hypot(x, 3.0), x -> StrictMath.hypot(x, 3.0));
        put(all, "pow", x -> Math.pow(x, 1.7) + Math.pow(2.5, x), x -> StrictMath.pow(x, 1.7) + StrictMath.pow(2.5, x));
        return all;
    }

    @SafeVarargs
    private static void put(Map<String, Function<Double, Double>[]> all, String name, Function<Double, Double>... mathAndStrict) {
        all.put(name, mathAndStrict);
    }

    @Test
    void everyFunctionIsCovered() {
        assertEquals(MathCallsToNodesPhase.FUNCTIONS.keySet(), functions().keySet());
    }

    /** {@code Math.f} on the device is {@code StrictMath.f}'s bits, for every function, with no built-in in the kernel. */
    @Test
    void doublesAreStrictMathsBits() {
        double[] values = StrictMathOnDeviceTest.anglesTheKernelReduces();
        for (Map.Entry<String, Function<Double, Double>[]> entry : functions().entrySet()) {
            Function<Double, Double> math = entry.getValue()[0];
            Function<Double, Double> strict = entry.getValue()[1];
            String text = KernelTestSupport.map(math, Double.class, Double.class).text();
            assertFalse(text.matches("(?s).*\\b" + entry.getKey() + "\\(.*"), entry.getKey() + ": no OpenCL built-in by default");
            OpenCLTestDevice.Result result = KernelTestSupport.runMap(math, Double.class, Double.class, values);
            assertEquals(DeoptReason.NONE, result.reason(), entry.getKey());
            double[] device = result.doubles(0);
            for (int i = 0; i < values.length; i++) {
                KernelTestSupport.assertSameValue(strict.apply(values[i]), device[i], entry.getKey() + "(" + values[i] + ")");
            }
        }
    }

    /** {@code (float) Math.f(x)} of a {@code float} is {@code (float) StrictMath.f(x)}: Java's rounding of an allowed {@code double}. */
    @Test
    void floatsAreStrictMathsBitsRounded() {
        float[] values = new float[1200];
        java.util.Random random = new java.util.Random(1125);
        for (int i = 0; i < values.length; i++) {
            values[i] = i < 1000 ? (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(8) - 3)) : Float.intBitsToFloat(random.nextInt());
        }
        values[0] = Float.NaN;
        values[1] = Float.NEGATIVE_INFINITY;
        values[2] = Float.MIN_VALUE;
        values[3] = -0f;
        Function<Float, Float> math = x -> (float) Math.sin(x) + (float) Math.exp(-0.5f * x) * (float) Math.atan2(x, 2.0) - (float) Math.pow(x, 1.5);
        Function<Float, Float> strict = x -> (float) StrictMath.sin(x) + (float) StrictMath.exp(-0.5f * x) * (float) StrictMath.atan2(x, 2.0) - (float) StrictMath.pow(x, 1.5);
        values = filterHuge(values);
        OpenCLTestDevice.Result result = KernelTestSupport.runMap(math, Float.class, Float.class, values);
        assertEquals(DeoptReason.NONE, result.reason());
        float[] device = result.floats(0);
        for (int i = 0; i < values.length; i++) {
            KernelTestSupport.assertSameValue(strict.apply(values[i]), device[i], "f(" + values[i] + ")");
        }
    }

    private static float[] filterHuge(float[] values) {
        float[] kept = new float[values.length];
        int n = 0;
        for (float v : values) {
            if (!(Math.abs(v) >= StrictMathOnDeviceTest.HUGE_ANGLE * 0.999 && Float.isFinite(v))) {
                kept[n++] = v;
            }
        }
        return java.util.Arrays.copyOf(kept, n);
    }

    /** {@code -Djpai.math=opencl}: the built-ins are back, within OpenCL's bounds (TranscendentalFunctionsOnDeviceTest). */
    @Test
    void openCLBuiltInsOnRequest() {
        KernelTestSupport.withMath(MathFunctions.OPENCL_BUILTINS, () -> {
            String text = KernelTestSupport.map((Double x) -> Math.sin(x) + Math.asin(x), Double.class, Double.class).text();
            assertTrue(text.matches("(?s).*\\bsin\\(.*") && text.matches("(?s).*\\basin\\(.*"), text);
        });
    }

    /**
     * Fuzz seed 20261134 program 5182: {@code Math.pow(-0.0, y)} for the negative odd integer
     * {@code y = -(2^51 + 1)} is negative infinity by Java's specification and by {@code StrictMath};
     * the device gives it. (HotSpot's intrinsic {@code Math.pow} on x86-64, Temurin 25.0.3, gives
     * positive infinity: the JVM's bug, docs/fuzzing.md.)
     */
    @Test
    void powOfNegativeZeroToANegativeOddIntegerIsNegativeInfinity() {
        double[] exponents = {-2251799813685249.0, -3.0, -9007199254740991.0, -2251799813685250.0};
        OpenCLTestDevice.Result result = KernelTestSupport.runMap((Double y) -> Math.pow(-0.0, y), Double.class, Double.class, exponents);
        assertEquals(DeoptReason.NONE, result.reason());
        double[] device = result.doubles(0);
        assertEquals(Double.NEGATIVE_INFINITY, device[0]);
        assertEquals(Double.NEGATIVE_INFINITY, device[1]);
        assertEquals(Double.NEGATIVE_INFINITY, device[2]);
        assertEquals(Double.POSITIVE_INFINITY, device[3], "an even integer");
        for (int i = 0; i < exponents.length; i++) {
            assertEquals(StrictMath.pow(-0.0, exponents[i]), device[i]);
        }
    }
}
