package jpai.ocl;

import static jpai.ocl.KernelTestSupport.runMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * Math functions without a Graal intrinsic run as OpenCL built-ins: within the OpenCL
 * specification's ulp bounds of Java's result (docs/java-semantics.md), with Java's NaN and
 * infinities.
 */
@org.junit.jupiter.api.extension.ExtendWith(OpenCLBuiltInMath.class)
class TranscendentalFunctionsOnDeviceTest {

    static final double[] VALUES = {0.0, -0.0, 0.1, -0.5, 0.75, 1.0, -1.0, 2.0, 10.0, -20.0, 1e-300, 700.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

    /** The largest bound in the double column of the OpenCL 1.2 table for these functions (atan2: 6 ulp). */
    static final double ULPS = 6;

    static void assertWithinUlps(Function<Double, Double> f, String kernelCall) {
        KernelSource source = KernelTestSupport.map(f, Double.class, Double.class);
        assertTrue(source.text().contains(kernelCall), "calls the built-in " + kernelCall + ": " + source.text());
        OpenCLTestDevice.Result result = runMap(f, Double.class, Double.class, VALUES);
        assertEquals(DeoptReason.NONE, result.reason());
        for (int i = 0; i < VALUES.length; i++) {
            double expected = f.apply(VALUES[i]);
            double actual = result.doubles(0)[i];
            if (Double.isNaN(expected) || Double.isInfinite(expected) || expected == 0) {
                assertEquals(expected, actual, 0.0, kernelCall + " of " + VALUES[i]);
            } else {
                assertTrue(Math.abs(expected - actual) <= ULPS * Math.ulp(expected), kernelCall + " of " + VALUES[i] + ": Java " + expected + ", device " + actual);
            }
        }
    }

    @Test
    void functionsWithoutAnIntrinsicMapToBuiltIns() {
        assertWithinUlps(x -> Math.hypot(x, 3.0), "hypot(");
        assertWithinUlps(x -> Math.atan2(x, -0.5), "atan2(");
        assertWithinUlps(x -> Math.asin(x) + Math.acos(x), "asin(");
        assertWithinUlps(x -> Math.atan(x), "atan(");
        assertWithinUlps(x -> Math.sinh(x), "sinh(");
        assertWithinUlps(x -> Math.cosh(x), "cosh(");
        assertWithinUlps(x -> Math.log1p(x), "log1p(");
        assertWithinUlps(x -> Math.expm1(x), "expm1(");
    }
}
