package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;
import jpai.FallbackException;
import jpai.runtime.InternalCompilerErrors;

/**
 * Issue 11: a failure of the compiler itself is not "unsupported code". It is counted, said once on
 * standard error without {@code -Djpai.explain} (lambda and line, "internal compiler error"), the
 * operation still gives Java's answer, and {@code -Djpai.fallback=error} makes it an error.
 */
class InternalCompilerErrorTest {

    @Test
    void aCompilerFailureIsCountedSaidAndStillGivesJavasAnswer() {
        Function<Integer, Integer> f = x -> x * 3 + 1;
        long before = InternalCompilerErrors.count();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setProperty("jpai.test.failCompilerFor", "InternalCompilerErrorTest");
        try (PArray<Integer> in = PArray.of(1, 2, 3)) {
            System.setErr(new PrintStream(captured, true));
            try (PArray<Integer> out = AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in)) {
                assertEquals(10, out.get(2));
            } finally {
                System.setErr(err);
            }
            if (ExecutorCase.openCLExpected()) {
                assertEquals(before + 1, InternalCompilerErrors.count());
                String said = captured.toString();
                assertTrue(said.contains("internal compiler error") && said.contains("InternalCompilerErrorTest.java"), said);
                Function<Integer, Integer> g = x -> x - 1;
                FallbackException e = assertThrows(FallbackException.class, () -> ExecutorCase.apply(AF.map(g, Integer.class), Executor.ACCELERATOR, in));
                assertTrue(e.getMessage().contains("an internal error of the compiler"), e.getMessage());
            }
        } finally {
            System.clearProperty("jpai.test.failCompilerFor");
        }
    }
}
