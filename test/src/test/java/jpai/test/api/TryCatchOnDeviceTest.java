package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * Issue 19 item 9: a lambda's own {@code catch} of an implicit exception (index out of bounds,
 * null, division by zero) whose handler does not read the exception object runs on the device as a
 * branch, with Java's results: no kernel exit and no re-run in Java. A handler that reads the
 * exception, and an exception the lambda does not catch, still give exactly Java's behaviour.
 */
class TryCatchOnDeviceTest {

    private static final int N = 4000;

    /** Applies {@code f} on the device to 0..N-1 and checks Java's results, and (with a device) that no kernel exited. */
    private static void assertRunsOnTheDevice(Function<Integer, Integer> f, String what) {
        try (PArray<Integer> in = PArray.range(N); PArray<Integer> out = ExecutorCase.apply(AF.map(f, Integer.class), Executor.ACCELERATOR, in)) {
            ApplyProfile profile = AF.lastProfile();
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, what);
            if (ExecutorCase.openCLExpected()) {
                assertTrue(profile.kernelCount() > 0, what + ": no kernel ran");
                assertFalse(profile.fellBack(), what + ": ran in Java: " + profile.fallbackReason());
            }
        }
    }

    @Test
    void aCaughtIndexOutOfBoundsIsABranch() {
        int[] table = new int[1000];
        for (int i = 0; i < table.length; i++) {
            table[i] = i * 7 - 3;
        }
        assertRunsOnTheDevice(x -> {
            try {
                return table[x];
            } catch (ArrayIndexOutOfBoundsException e) {
                return -1;
            }
        }, "catch (ArrayIndexOutOfBoundsException)");
    }

    @Test
    void aCaughtDivisionByZeroIsABranch() {
        assertRunsOnTheDevice(x -> {
            try {
                return 100_000 / (x % 7 - 3);
            } catch (ArithmeticException e) {
                return Integer.MIN_VALUE;
            }
        }, "catch (ArithmeticException)");
    }

    @Test
    void oneHandlerForSeveralExceptions() {
        int[] table = {5, 6, 7, 8};
        int[] nul = null;
        assertRunsOnTheDevice(x -> {
            try {
                int a = table[x % 5];
                int b = x % 11 == 0 ? nul[0] : 1;
                return a * b / (x % 13 - 6);
            } catch (RuntimeException e) {
                return -x;
            }
        }, "catch (RuntimeException) of an index, a null and a division");
    }

    @Test
    void aCaughtNullCaptureIsABranch() {
        int[] nul = null;
        assertRunsOnTheDevice(x -> {
            try {
                return x % 11 == 0 ? nul[0] : x;
            } catch (NullPointerException e) {
                return -x;
            }
        }, "catch (NullPointerException) of a null captured array");
    }

    @Test
    void aCatchOfOneExceptionLetsAnotherThroughAsInJava() {
        int[] table = new int[3000];
        Function<Integer, Integer> f = x -> {
            try {
                return table[x] / (x - 2000 == 0 ? 1 : 1);
            } catch (ArithmeticException e) {
                return -1;
            }
        };
        ArrayIndexOutOfBoundsException java = assertThrows(ArrayIndexOutOfBoundsException.class, () -> {
            for (int i = 0; i < N; i++) {
                f.apply(i);
            }
        });
        try (PArray<Integer> in = PArray.range(N)) {
            ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class, () -> AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in).close());
            assertEquals(java.getMessage(), e.getMessage());
        }
    }

    @Test
    void aHandlerThatReadsTheExceptionGetsJavasObject() {
        int[] table = new int[10];
        Function<Integer, Integer> f = x -> {
            try {
                return table[x];
            } catch (ArrayIndexOutOfBoundsException e) {
                // not the message: HotSpot throws hot implicit exceptions without one (OmitStackTraceInFastThrow)
                return e.getClass().getName().length() + e.getStackTrace().length * 0;
            }
        };
        try (PArray<Integer> in = PArray.range(N); PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "a handler reading the message");
        }
    }
}
