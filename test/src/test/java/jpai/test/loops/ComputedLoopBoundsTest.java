package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import jpai.runtime.opencl.KernelLaunches;

/**
 * Loop bounds computed from the arguments ({@code a.length - 1}, {@code n / 2}, values computed
 * before the loop, first indices other than 0), each call compared with the original body; a bound
 * read from memory is refused and explained; a bound dividing by zero throws Java's exception.
 */
class ComputedLoopBoundsTest extends WithTheAgentExplaining {

    private static final int N = 2049;
    private record Call(String said, boolean launched) {
    }

    private static Call run(Runnable call) {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        long launches = KernelLaunches.count();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            call.run();
        } finally {
            System.setErr(err);
        }
        String text = said.toString(StandardCharsets.UTF_8);
        err.print(text);
        return new Call(text, KernelLaunches.count() > launches);
    }

    private static Object original(String name, Object... arguments) {
        OriginalBodies.Outcome outcome = OriginalBodies.runOf(LoopBoundKernels.class, name, arguments);
        assertTrue(outcome.thrown() == null, () -> name + " threw " + outcome.thrown());
        return outcome.result();
    }

    @Test
    void anInteriorFromOneToLengthMinusOne() {
        Random random = new Random(1);
        float[] a = new float[N];
        for (int k = 0; k < N; k++) {
            a[k] = random.nextFloat();
        }
        float[] expected = new float[N], out = new float[N];
        original("smooth", a, expected);
        assertTrue(run(() -> LoopBoundKernels.smooth(a, out)).launched(), "smooth ran on the device");
        assertArrayEquals(expected, out);
    }

    @Test
    void aLimitHalfAParameter() {
        int[] a = new int[N];
        for (int k = 0; k < N; k++) {
            a[k] = k * k - 7;
        }
        for (int n : new int[] {N, N - 1, 2, 3}) {
            int[] expected = new int[N], out = new int[N];
            original("pairSums", a, expected, n);
            assertTrue(run(() -> LoopBoundKernels.pairSums(a, out, n)).launched(), "pairSums ran on the device for n = " + n);
            assertArrayEquals(expected, out, "n = " + n);
        }
    }

    @Test
    void boundsComputedBeforeTheLoop() {
        long[] a = new long[N], expected = new long[N];
        for (int k = 0; k < N; k++) {
            a[k] = expected[k] = 5L * k - 100;
        }
        original("upperHalf", expected, N);
        assertTrue(run(() -> LoopBoundKernels.upperHalf(a, N)).launched(), "upperHalf ran on the device");
        assertArrayEquals(expected, a);
    }

    @Test
    void aLimitDividedByAParameterAndByZero() {
        int[] a = new int[N];
        for (int k = 0; k < N; k++) {
            a[k] = k ^ 0x55;
        }
        int[] expected = new int[N], out = new int[N];
        original("everyKth", a, expected, 3);
        assertTrue(run(() -> LoopBoundKernels.everyKth(a, out, 3)).launched(), "everyKth ran on the device");
        assertArrayEquals(expected, out);

        Throwable javas = OriginalBodies.runOf(LoopBoundKernels.class, "everyKth", a, new int[N], 0).thrown();
        assertNotNull(javas);
        Throwable[] thrown = new Throwable[1];
        Call call = run(() -> {
            try {
                LoopBoundKernels.everyKth(a, new int[N], 0);
            } catch (ArithmeticException e) {
                thrown[0] = e;
            }
        });
        assertNotNull(thrown[0], "the caller got Java's exception");
        assertSame(javas.getClass(), thrown[0].getClass());
        assertFalse(call.launched(), "no launch for a bound Java throws at");
    }

    @Test
    void aTwoDimensionalInteriorNest() {
        int rows = 67, cols = 130;
        Random random = new Random(2);
        double[] in = new double[rows * cols];
        for (int k = 0; k < in.length; k++) {
            in[k] = random.nextGaussian();
        }
        double[] expected = new double[in.length], out = new double[in.length];
        original("laplace", in, expected, rows, cols);
        assertTrue(run(() -> LoopBoundKernels.laplace(in, out, rows, cols)).launched(), "laplace ran on the device");
        assertArrayEquals(expected, out);
    }

    @Test
    void aLimitReadFromAnArrayRunsInJavaAndSaysWhy() {
        int[] a = new int[N];
        a[0] = 100;
        for (int k = 1; k < N; k++) {
            a[k] = k;
        }
        int[] expected = new int[N], out = new int[N];
        original("upToFirst", a, expected);
        Call call = run(() -> LoopBoundKernels.upToFirst(a, out));
        assertFalse(call.launched(), "no kernel for a bound read from memory");
        assertArrayEquals(expected, out);
        assertTrue(call.said().contains("which no iteration changes") && call.said().matches("(?s).*LoopBoundKernels\\.java:\\d+.*"), call.said());
    }
}
