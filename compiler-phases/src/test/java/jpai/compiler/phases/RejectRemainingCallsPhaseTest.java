package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import jpai.compiler.KernelBailoutException;

class RejectRemainingCallsPhaseTest {

    static long fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }

    static int twice(int x) {
        return helper(x) + helper(x);
    }

    static int helper(int x) {
        return x * 3;
    }

    @Test
    void recursionBailsNamingTheMethod() {
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile((Integer x) -> fibonacci(x), Integer.class, Long.class, List.of()));
        assertTrue(e.getMessage().startsWith("recursion in RejectRemainingCallsPhaseTest.fibonacci is not supported on OpenCL"), e.getMessage());
        assertTrue(e.getMessage().contains("RejectRemainingCallsPhaseTest.java:"), e.getMessage());
    }

    @Test
    void nonRecursiveCallsAreInlined() {
        assertDoesNotThrow(() -> compile((Integer x) -> twice(x) + Math.abs(x), Integer.class, Integer.class, List.of()));
    }

    @Test
    void nativeCallsBail() {
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile((Integer x) -> Runtime.getRuntime().availableProcessors() + x, Integer.class, Integer.class, List.of()));
        assertTrue(e.getMessage().contains("availableProcessors is not supported on OpenCL: it is native"), e.getMessage());
    }
}
