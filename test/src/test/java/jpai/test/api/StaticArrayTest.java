package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.FallbackException;

/**
 * Issue 11: a user's {@code static final} array is never frozen into a kernel, also where JDK code
 * reads it ({@code Arrays.binarySearch(TABLE, x)}, which used to become a constant table because
 * the reading code was the JDK's): a write between two applies is seen by the second. Only the JDK's
 * own immutable tables (FdLibm's) are constants in kernels.
 */
class StaticArrayTest {

    private static final int[] TABLE = {1, 3, 5, 7, 9};

    @Test
    void aStaticFinalArrayReadByJdkCodeSeesWritesBetweenApplies() {
        Function<Integer, Integer> f = x -> Arrays.binarySearch(TABLE, x);
        int[] keys = {0, 1, 2, 3, 5, 6, 9, 10};
        try (PArray<Integer> in = PArray.of(keys)) {
            try (PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "before the write");
            }
            TABLE[0] = 0;
            TABLE[4] = 10;
            try (PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "after the write");
            } finally {
                TABLE[0] = 1;
                TABLE[4] = 9;
            }
            if (ExecutorCase.openCLExpected()) {
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(f, Integer.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("static final array"), e.getMessage());
            }
        }
    }
}
