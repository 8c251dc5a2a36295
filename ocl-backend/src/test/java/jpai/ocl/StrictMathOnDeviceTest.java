package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * {@code StrictMath} is FdLibm bit for bit in Java. It is not mapped to OpenCL built-ins (which are
 * allowed several ulps): its Java implementation is inlined and compiled, FdLibm's tables becoming
 * {@code __constant} arrays, and the device gives exactly Java's results (sin, cos and tan of angles
 * of 2^19 pi/2 or more leave the kernel, and Java computes them).
 */
class StrictMathOnDeviceTest {

    /** Random doubles of moderate size, random bit patterns (huge, tiny, subnormal, NaN) and special values. */
    static double[] inputs() {
        Random random = new Random(20261121);
        double[] values = new double[1500];
        for (int i = 0; i < values.length; i++) {
            values[i] = i < 700 ? (random.nextDouble() - 0.5) * 40 : i < 900 ? (random.nextDouble() - 0.5) * 2e5 : Double.longBitsToDouble(random.nextLong());
        }
        double[] special = {0.0, -0.0, 1.0, -1.0, 0.5, Math.PI, -Math.PI / 2, 709.78, -745.2, 1e-310, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN,
                        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        System.arraycopy(special, 0, values, 0, special.length);
        return values;
    }

    private static void assertExact(Function<Double, Double> f, double[] values) {
        String text = KernelTestSupport.map(f, Double.class, Double.class).text();
        assertFalse(text.matches("(?s).*\\b(sin|cos|tan|exp|log|pow|atan2?|cbrt|hypot|sinh|cosh|tanh|asin|acos|expm1|log1p|log10)\\(.*"), "no OpenCL built-in: " + text);
        assertMapEqualsJava(f, Double.class, Double.class, values);
    }

    @Test
    void exponentialsAndLogarithms() {
        double[] values = inputs();
        assertExact(x -> StrictMath.exp(x), values);
        assertExact(x -> StrictMath.expm1(x), values);
        assertExact(x -> StrictMath.log(x), values);
        assertExact(x -> StrictMath.log10(x), values);
        assertExact(x -> StrictMath.log1p(x), values);
        assertExact(x -> StrictMath.pow(x, 1.7) + StrictMath.pow(2.5, x), values);
        assertExact(x -> StrictMath.cbrt(x), values);
        assertExact(x -> StrictMath.hypot(x, 3.0), values);
    }

    @Test
    void hyperbolicAndInverseTrigonometric() {
        double[] values = inputs();
        assertExact(x -> StrictMath.sinh(x), values);
        assertExact(x -> StrictMath.cosh(x), values);
        assertExact(x -> StrictMath.tanh(x), values);
        assertExact(x -> StrictMath.asin(x) + StrictMath.acos(x), values);
        assertExact(x -> StrictMath.atan(x), values);
        assertExact(x -> StrictMath.atan2(x, -0.75), values);
    }

    /** FdLibm's bound for its medium-size argument reduction: |x| <= 2^19 pi/2; beyond it kernels leave sin, cos and tan to Java. */
    static final double HUGE_ANGLE = 0x1p19 * Math.PI / 2;

    /** The inputs below {@link #HUGE_ANGLE} (and the non-finite ones, which need no reduction). */
    static double[] anglesTheKernelReduces() {
        return java.util.Arrays.stream(inputs()).filter(x -> !(Math.abs(x) >= HUGE_ANGLE * 0.999 && Double.isFinite(x))).toArray();
    }

    /**
     * sin, cos and tan compile, FdLibm's argument reduction included, and give Java's bits for every
     * argument below 2^19 pi/2: the reduction of huger angles, which works on arrays with computed
     * indices, is a path the kernel leaves to Java ({@code MethodsLeftToJava}).
     */
    @Test
    void trigonometricFunctions() {
        double[] values = anglesTheKernelReduces();
        assertTrue(values.length > 1000);
        assertExact(x -> StrictMath.sin(x), values);
        assertExact(x -> StrictMath.cos(x), values);
        assertExact(x -> StrictMath.tan(x), values);
    }

    /** An angle of 2^19 pi/2 or more makes the kernel exit with the reason that says so; Java computes it. */
    @Test
    void hugeAnglesAreLeftToJava() {
        for (Function<Double, Double> f : List.<Function<Double, Double>>of(x -> StrictMath.sin(x), x -> StrictMath.cos(x), x -> StrictMath.tan(x))) {
            OpenCLTestDevice.Result result = KernelTestSupport.runMap(f, Double.class, Double.class, new double[] {0.5, 3.0, HUGE_ANGLE * 2, -1e300});
            assertEquals(DeoptReason.LEFT_TO_JAVA, result.reason());
            assertTrue(result.status()[1] == 2 || result.status()[1] == 3, "the first huge angle exits: " + result.status()[1]);
        }
    }
}
