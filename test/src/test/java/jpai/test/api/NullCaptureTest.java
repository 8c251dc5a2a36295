package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;

/**
 * Issue 19 item 5: a null captured value behaves as in Java. A null array reaches the kernel as
 * null; elements that never touch it get their results on the device, and the first element that
 * dereferences it makes the operation run in Java, which throws Java's own
 * {@code NullPointerException}, with its message. Before, JPAI threw its own exception
 * ("readArray: the array is null") before any element, also where Java returns a value.
 */
class NullCaptureTest {

    @Test
    void aNullArrayNeverDereferencedRunsOnTheDevice() {
        int[] nul = null;
        Function<Integer, Integer> f = i -> i < 100_000 ? i * 2 : nul[i];
        try (PArray<Integer> in = PArray.range(3000); PArray<Integer> out = ExecutorCase.apply(AF.map(f, Integer.class), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "a null array on a branch never taken");
        }
    }

    @Test
    void aNullArrayDereferencedThrowsJavasException() {
        int[] nul = null;
        Function<Integer, Integer> f = i -> i < 100 ? i : nul[i];
        NullPointerException java = assertThrows(NullPointerException.class, () -> {
            for (int i = 0; i < 3000; i++) {
                f.apply(i);
            }
        });
        for (Executor executor : ExecutorCase.ALL) {
            try (PArray<Integer> in = PArray.range(3000)) {
                NullPointerException e = assertThrows(NullPointerException.class, () -> AF.map(f, Integer.class).on(executor).apply(in).close(), executor.toString());
                assertEquals(java.getMessage(), e.getMessage(), executor + ": Java's message");
            }
        }
    }

    @Test
    void aNullArraysLengthThrowsToo() {
        float[] nul = null;
        Function<Integer, Integer> f = i -> i == 2999 ? nul.length : -i;
        try (PArray<Integer> in = PArray.range(3000)) {
            assertThrows(NullPointerException.class, () -> AF.map(f, Integer.class).on(Executor.ACCELERATOR).apply(in).close());
        }
        try (PArray<Integer> in = PArray.range(2999); PArray<Integer> out = ExecutorCase.apply(AF.map(f, Integer.class), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "never reaching the null array's length");
        }
    }

    /**
     * A null captured box reaches the kernel too (its value 0, its length argument -1): elements that
     * never unbox it run on the device, and the first that does makes Java throw its own exception.
     */
    @Test
    void aNullBoxThrowsJavasExceptionOnlyWhereUnboxed() {
        Integer nul = null;
        Function<Integer, Integer> f = i -> i < 100_000 ? i + 1 : i + nul;
        try (PArray<Integer> in = PArray.range(3000); PArray<Integer> out = ExecutorCase.apply(AF.map(f, Integer.class), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, "a null box never unboxed, on the device");
        }
        Function<Integer, Integer> g = i -> i < 100 ? i + 1 : i + nul;
        try (PArray<Integer> in = PArray.range(3000)) {
            assertThrows(NullPointerException.class, () -> AF.map(g, Integer.class).on(Executor.ACCELERATOR).apply(in).close());
        }
    }
}
