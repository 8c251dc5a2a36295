package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.compiler.KernelBailoutException;

/**
 * {@code StrictMath} is FdLibm bit for bit in Java. It is not mapped to OpenCL built-ins (which are
 * allowed several ulps): its Java implementation is inlined and compiled, FdLibm's tables becoming
 * {@code __constant} arrays, and the device gives exactly Java's results; or, for sin, cos and tan
 * today, the compiler refuses and the operation runs in Java.
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

    /**
     * sin, cos and tan are not compiled yet: FdLibm's argument reduction chooses between arrays on
     * different paths, which the backend does not emit. The bailout makes the operation run in
     * Java, which is exact; this test says so until they compile.
     */
    @Test
    void trigonometricFunctionsBailAndRunInJava() {
        for (Function<Double, Double> f : List.<Function<Double, Double>>of(x -> StrictMath.sin(x), x -> StrictMath.cos(x), x -> StrictMath.tan(x))) {
            KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> KernelTestSupport.map(f, Double.class, Double.class));
            assertTrue(e.getMessage().contains("different arrays"), e.getMessage());
        }
    }
}
