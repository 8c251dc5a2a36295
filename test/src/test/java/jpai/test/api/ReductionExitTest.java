package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;

/**
 * A Java exception in a reduction's kernel, at any element: the kernel exits, and the caller gets
 * Java's exception. Elements in every position of a work-group and of the array (first, middle,
 * last whole group, the partial group at the end), for a mapper with loops (one element per
 * work-item) and one without (a leaf per work-item), and for the combiner. The kernel must say so:
 * PoCL 3.1 once kept the failures of one work-item per group only, and the device's sum came back
 * where Java throws.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ReductionExitTest {

    private static final int N = (1 << 16) + 100;
    private static final int[] FAILING_ELEMENTS = {0, 5, 300, 4095, 40_000, (1 << 16) - 1, (1 << 16) + 50, N - 1};

    private static int steps(int x, int count) {
        int s = x;
        for (int k = 0; k < count; k++) {
            s = s * 3 + 1;
        }
        return s;
    }

    @Test
    void aMapperWithLoopsThatThrowsGivesJavasException() {
        int count = 7;
        assertEveryFailureIsJavas(failAt -> AF.map((Integer i) -> steps(i, count) + 100 / (i - failAt)).reduce((Integer a, Integer b) -> a + b, 0), "a mapper with loops");
    }

    @Test
    void aMapperWithoutLoopsThatThrowsGivesJavasException() {
        assertEveryFailureIsJavas(failAt -> AF.map((Integer i) -> i * 3 + 100 / (i - failAt)).reduce((Integer a, Integer b) -> a + b, 0), "a mapper without loops");
    }

    @Test
    void aCombinerThatThrowsGivesJavasException() {
        int count = 7;
        assertEveryFailureIsJavas(failAt -> AF.map((Integer i) -> steps(i, count)).reduce((Integer a, Integer b) -> a + 100 / (b - steps(failAt, count)), 0),
                        "a combiner after a mapper with loops");
    }

    /**
     * Every element 1: a work-group's value is at most a few thousand, so this combiner throws only
     * when the work-groups' values are combined, which the host does after the device's last pass
     * (DeviceReduce): the operation re-runs in Java and throws Java's exception.
     */
    @Test
    void aCombinerThatThrowsOnlyOnTheWorkGroupsValuesGivesJavasException() {
        int[] ones = new int[1 << 18];
        java.util.Arrays.fill(ones, 1);
        try (PArray<Integer> input = PArray.of(ones)) {
            ArrayFunction<Integer, Integer> f = AF.reduce((Integer a, Integer b) -> {
                int sum = a + b;
                return sum / (sum > 100_000 ? 0 : 1);
            }, 0);
            assertThrows(ArithmeticException.class, () -> f.on(Executor.SEQUENTIAL).apply(input).close(), "Java throws");
            long launches = jpai.runtime.opencl.KernelLaunches.count();
            assertThrows(ArithmeticException.class, () -> f.on(Executor.ACCELERATOR).apply(input).close(), "the device's apply throws Java's exception");
            ApplyProfile profile = AF.lastProfile();
            assertTrue(jpai.runtime.opencl.KernelLaunches.count() > launches && profile.fellBack() && profile.fallbackReason().contains("on the host"),
                            "the device ran the first pass, the host's combining threw, Java re-ran: " + profile);
        }
    }

    private static void assertEveryFailureIsJavas(java.util.function.IntFunction<ArrayFunction<Integer, Integer>> functionFailingAt, String what) {
        int[] indices = new int[N];
        for (int i = 0; i < N; i++) {
            indices[i] = i;
        }
        try (PArray<Integer> input = PArray.of(indices)) {
            for (int failAt : FAILING_ELEMENTS) {
                ArrayFunction<Integer, Integer> f = functionFailingAt.apply(failAt).on(Executor.ACCELERATOR);
                ArithmeticException thrown = assertThrows(ArithmeticException.class, () -> f.apply(input).close(), what + ", failing at element " + failAt);
                // HotSpot may throw a hot implicit exception without its message (-XX:+OmitStackTraceInFastThrow, its default): the JVM's choice
                assertTrue(thrown.getMessage() == null || thrown.getMessage().equals("/ by zero"), "Java's exception: " + thrown);
                ApplyProfile profile = AF.lastProfile();
                assertTrue(profile.kernelExits() > 0, what + ", failing at element " + failAt + ": the kernel exited: " + profile);
            }
        }
    }
}
