package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.compiler.UnsafeExitCheckRemoval;
import jpai.runtime.opencl.DriverCalls;
import jpai.runtime.opencl.DriverCalls.Call;

/**
 * The measurement-only switch {@code -Djpai.unsafe.noExitChecks=true} (issue 21) really removes a
 * kernel's exit checks: a map that reads a captured array at its element (a bounds check per element)
 * has a status to read after its launch (its array a resident {@code PArray}, so nothing else is sent) when compiled as usual, and none when compiled with the
 * switch, and gives the same results for indices in range.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class UnsafeExitCheckRemovalTest {

    private static final int N = 4096;

    /**
     * Driver transfers of a warm apply of {@code lookUp} (the status read, if its kernel has one;
     * results are closed unread). Kernels are cached per lambda, so each case has a lambda of its own.
     */
    private static long transfersOfAWarmApply(ArrayFunction<Integer, Float> lookUp, PArray<Integer> indices, float[] expected) {
        for (int i = 0; i < 4; i++) {
            try (PArray<Float> out = lookUp.apply(indices)) {
                assertArrayEquals(expected, out.toFloatArray());
            }
        }
        lookUp.apply(indices).close(); // a result released unread: the next is not read ahead
        long[] before = DriverCalls.snapshot();
        lookUp.apply(indices).close();
        long[] after = DriverCalls.snapshot();
        assertEquals(1, DriverCalls.between(before, after, Call.ENQUEUE_KERNEL), DriverCalls.describe(before, after));
        return DriverCalls.between(before, after, Call.ENQUEUE_TRANSFER);
    }

    @Test
    void theSwitchLeavesKernelsWithoutExits() {
        float[] table = new float[N];
        float[] expected = new float[N];
        for (int i = 0; i < N; i++) {
            table[i] = i * 0.5f;
            expected[i] = table[i] * 2f;
        }
        // a captured PArray stays on the device: the only transfer a launch may make is its status read
        try (PArray<Integer> indices = PArray.range(N); PArray<Float> resident = PArray.of(table)) {
            assertTrue(transfersOfAWarmApply(AF.map((Integer i) -> resident.get(i) * 2f), indices, expected) >= 1, "as usual, the kernel may exit (the check of get(i)): its status is read");
            System.setProperty(UnsafeExitCheckRemoval.PROPERTY, "true");
            try {
                assertEquals(0, transfersOfAWarmApply(AF.map((Integer j) -> resident.get(j) * 2f), indices, expected), "without its checks the kernel cannot exit: no status to read");
            } finally {
                System.clearProperty(UnsafeExitCheckRemoval.PROPERTY);
            }
        }
    }
}
