package jpai.test.api;

import static jpai.test.api.DeviceRun.assertOnDeviceAsJava;
import static jpai.test.api.DeviceRun.assertThrowsAsJava;

import java.util.Arrays;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.PArray;

/**
 * Issue 11: a user's {@code static final} array is never frozen into a kernel, also where JDK code
 * reads it ({@code Arrays.binarySearch(TABLE, x)}, which used to become a constant table because
 * the reading code was the JDK's). It is a kernel argument whose elements are sent at each apply,
 * like a captured array's: the operation runs on the device, and a write between two applies is
 * seen by the second. Only the JDK's own immutable tables (FdLibm's) are constants in kernels.
 * Before, such an operation ran in Java ("reads a static final array").
 */
class StaticArrayTest {

    private static final int[] TABLE = {1, 3, 5, 7, 9};
    private static final double[] COEFFICIENTS = {0.5, -0.0, 1e300, Double.MIN_VALUE};
    private static final long[] SHORT_TABLE = {Long.MIN_VALUE, 2};

    @Test
    void aStaticFinalArrayReadByJdkCodeSeesWritesBetweenApplies() {
        Function<Integer, Integer> f = x -> Arrays.binarySearch(TABLE, x);
        ArrayFunction<Integer, Integer> map = AF.map(f, Integer.class);
        try (PArray<Integer> in = PArray.of(0, 1, 2, 3, 5, 6, 9, 10, -1, Integer.MIN_VALUE, Integer.MAX_VALUE)) {
            assertOnDeviceAsJava(f, map, in, "before the write");
            TABLE[0] = 0;
            TABLE[4] = 10;
            try {
                assertOnDeviceAsJava(f, map, in, "after the write");
            } finally {
                TABLE[0] = 1;
                TABLE[4] = 9;
            }
        }
    }

    @Test
    void aStaticFinalArrayReadByTheLambda() {
        Function<Integer, Double> f = x -> COEFFICIENTS[x & 3] * x + COEFFICIENTS.length;
        ArrayFunction<Integer, Double> map = AF.map(f, Double.class);
        try (PArray<Integer> in = MapTest.cast(RandomData.of(ElementType.INT, 5_000, 11))) {
            assertOnDeviceAsJava(f, map, in, "before the write");
            COEFFICIENTS[1] = Double.NaN;
            try {
                assertOnDeviceAsJava(f, map, in, "after the write");
            } finally {
                COEFFICIENTS[1] = -0.0;
            }
        }
    }

    @Test
    void anIndexOutsideAStaticArrayThrowsJavasException() {
        Function<Integer, Long> f = x -> SHORT_TABLE[x / 1000];
        try (PArray<Integer> in = PArray.range(3000)) {
            assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f, Long.class), in, true, "index 2 of a static long[2]");
        }
    }
}
