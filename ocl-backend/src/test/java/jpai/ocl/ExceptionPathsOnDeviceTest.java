package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static jpai.ocl.KernelTestSupport.runMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Java exception paths become exits with a reason: the kernel reports the first failing element,
 * and where nothing fails it computes Java's result.
 */
class ExceptionPathsOnDeviceTest {

    @Test
    void capturedArrayIndexOutOfBoundsExits() {
        int[] table = {10, 20, 30, 40};
        OpenCLTestDevice.Result result = runMap((Integer i) -> table[i], Integer.class, Integer.class, new int[] {0, 1, 2, 3, 4});
        assertEquals(DeoptReason.BOUNDS_CHECK, result.reason());
        assertEquals(4, result.status()[1]);
        assertEquals(DeoptReason.BOUNDS_CHECK, runMap((Integer i) -> table[i], Integer.class, Integer.class, new int[] {-1}).reason());
        assertMapEqualsJava((Integer i) -> table[i] + table.length, Integer.class, Integer.class, new int[] {3, 2, 1, 0});
    }

    @Test
    void localArraysAreZeroedAndChecked() {
        assertMapEqualsJava((Integer x) -> {
            int[] counts = new int[4];
            counts[x & 3] += x;
            counts[(x >> 2) & 3]++;
            return counts[0] * 1000 + counts[1] * 100 + counts[2] * 10 + counts[3];
        }, Integer.class, Integer.class, new int[] {0, 1, 5, 7, 11, -1, 1 << 20});
        assertMapEqualsJava((Integer x) -> {
            float[] large = new float[100];
            for (int i = 0; i < large.length; i++) {
                large[i] = i * 0.5f;
            }
            return large[Math.floorMod(x, 100)];
        }, Integer.class, Float.class, new int[] {0, 99, 100, -1, 12345});
        OpenCLTestDevice.Result result = runMap((Integer x) -> {
            int[] small = new int[3];
            small[x] = 1;
            return small[0];
        }, Integer.class, Integer.class, new int[] {0, 2, 3});
        assertEquals(DeoptReason.BOUNDS_CHECK, result.reason());
        assertEquals(2, result.status()[1]);
    }

    @Test
    void explicitThrowExits() {
        OpenCLTestDevice.Result result = runMap((Integer x) -> {
            if (x < 0) {
                throw new IllegalArgumentException("negative: " + x);
            }
            return x + 1;
        }, Integer.class, Integer.class, new int[] {1, 2, -3});
        assertEquals(DeoptReason.EXPLICIT_THROW, result.reason());
        assertEquals(2, result.status()[1]);
    }

    @Test
    void aCatchThatIgnoresTheExceptionRunsOnTheDevice() {
        // Graal turns a throw whose exception object nobody reads into a branch to the handler.
        assertMapEqualsJava((Integer x) -> {
            try {
                return 100 / x;
            } catch (ArithmeticException e) {
                return -1;
            }
        }, Integer.class, Integer.class, new int[] {4, 0, -3});
    }

    @Test
    void aCatchThatUsesTheExceptionLeavesTheKernelSoJavaRunsTheHandler() {
        OpenCLTestDevice.Result result = runMap((Integer x) -> {
            try {
                return 100 / x;
            } catch (ArithmeticException e) {
                return System.identityHashCode(e);
            }
        }, Integer.class, Integer.class, new int[] {4, 0});
        assertEquals(DeoptReason.DIVISION_BY_ZERO, result.reason());
        assertEquals(1, result.status()[1]);
    }

    @Test
    void aFailingCastExits() {
        OpenCLTestDevice.Result result = runMap((Float x) -> (Integer) (Object) x, Float.class, Integer.class, new float[] {1f});
        assertEquals(DeoptReason.CLASS_CAST, result.reason());
    }

    @Test
    void theKernelNamesTheReasonAndLine() {
        int[] table = {1};
        String text = KernelTestSupport.map((Integer i) -> table[i], Integer.class, Integer.class).text();
        assertTrue(text.contains("/* BOUNDS_CHECK at ExceptionPathsOnDeviceTest.java:"), text);
    }
}
