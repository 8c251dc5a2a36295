package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code @Accelerate} methods through the agent on the device (PoCL here), each compared with its
 * original body run by the JVM ({@link OriginalBodies}): results on every element type, loops inside
 * the parallel loop, reductions, Java's exceptions at Java's element with Java's partial writes, and
 * the refusals (explained with the source line, or warned about for a loop-carried dependence).
 */
class AcceleratedMethodsTest extends WithTheAgentExplaining {

    private static final int N = 3001; // not a multiple of the work-group size
    /** What a call printed on standard error, and whether it launched a kernel. */
    private record Call<T>(T result, String said, boolean launched) {
    }

    private static <T> Call<T> call(Supplier<T> call) {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        long launches = KernelLaunches.count();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        T result;
        try {
            result = call.get();
        } finally {
            System.setErr(err);
        }
        String text = said.toString(StandardCharsets.UTF_8);
        err.print(text);
        return new Call<>(result, text, KernelLaunches.count() > launches);
    }

    private static Call<Void> run(Runnable call) {
        return call(() -> {
            call.run();
            return null;
        });
    }

    // ------------------------------------------------------------ every element type

    @Test
    void everyPrimitiveElementTypeGivesJavasResultOnTheDevice() {
        Random random = new Random(13);
        byte[] b = new byte[N];
        random.nextBytes(b);
        byte[] bOut = new byte[N];
        byte[] bExpected = new byte[N];
        OriginalBodies.run("bytes", b, bExpected, (byte) -7);
        assertTrue(run(() -> LoopKernels.bytes(b, bOut, (byte) -7)).launched(), "bytes ran on the device");
        assertArrayEquals(bExpected, bOut);

        short[] s = new short[N];
        char[] c = new char[N];
        int[] i = new int[N];
        long[] l = new long[N];
        float[] f = new float[N];
        double[] d = new double[N];
        boolean[] z = new boolean[N];
        for (int k = 0; k < N; k++) {
            s[k] = (short) random.nextInt();
            c[k] = (char) random.nextInt();
            i[k] = k < 4 ? new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0}[k] : random.nextInt();
            l[k] = k < 2 ? (k == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong();
            f[k] = k < 3 ? new float[] {Float.NaN, -0.0f, Float.MIN_VALUE}[k] : (random.nextFloat() - 0.5f) * 1e6f;
            d[k] = k < 3 ? new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -0.0}[k] : random.nextGaussian() * 1e3;
            z[k] = random.nextBoolean();
        }
        short[] sOut = new short[N], sExpected = new short[N];
        OriginalBodies.run("shorts", s, sExpected, (short) 301);
        assertTrue(run(() -> LoopKernels.shorts(s, sOut, (short) 301)).launched(), "shorts ran on the device");
        assertArrayEquals(sExpected, sOut);

        char[] cOut = new char[N], cExpected = new char[N];
        OriginalBodies.run("chars", c, cExpected, (char) 40000);
        assertTrue(run(() -> LoopKernels.chars(c, cOut, (char) 40000)).launched(), "chars ran on the device");
        assertArrayEquals(cExpected, cOut);

        int[] iOut = new int[N], iExpected = new int[N];
        OriginalBodies.run("ints", i, iExpected, -3);
        assertTrue(run(() -> LoopKernels.ints(i, iOut, -3)).launched(), "ints ran on the device");
        assertArrayEquals(iExpected, iOut);

        long[] lOut = new long[N], lExpected = new long[N];
        OriginalBodies.run("longs", l, lExpected, 0x1234_5678_9abcL);
        assertTrue(run(() -> LoopKernels.longs(l, lOut, 0x1234_5678_9abcL)).launched(), "longs ran on the device");
        assertArrayEquals(lExpected, lOut);

        float[] fOut = new float[N], fExpected = new float[N];
        OriginalBodies.run("floats", f, fExpected, 3.3f);
        assertTrue(run(() -> LoopKernels.floats(f, fOut, 3.3f)).launched(), "floats ran on the device");
        assertArrayEquals(fExpected, fOut);

        double[] dOut = new double[N], dExpected = new double[N];
        OriginalBodies.run("doubles", d, dExpected, -1.25);
        assertTrue(run(() -> LoopKernels.doubles(d, dOut, -1.25)).launched(), "doubles ran on the device");
        assertArrayEquals(dExpected, dOut);

        boolean[] zOut = new boolean[N], zExpected = new boolean[N];
        OriginalBodies.run("booleans", z, zExpected, true);
        assertTrue(run(() -> LoopKernels.booleans(z, zOut, true)).launched(), "booleans ran on the device");
        assertArrayEquals(zExpected, zOut);
    }

    // ------------------------------------------------------------ loops inside, bounds from parameters

    @Test
    void matmulOverRowsGivesJavasResult() {
        int n = 67;
        Random random = new Random(7);
        float[] a = new float[n * n], b = new float[n * n];
        for (int k = 0; k < n * n; k++) {
            a[k] = random.nextFloat() - 0.5f;
            b[k] = random.nextFloat() * 2;
        }
        float[] c = new float[n * n], expected = new float[n * n];
        OriginalBodies.run("matmul", a, b, expected, n);
        Call<Void> call = run(() -> LoopKernels.matmul(a, b, c, n));
        assertTrue(call.launched(), "matmul ran on the device");
        assertTrue(call.said().contains("LoopKernels::matmul at LoopKernels.java:") && call.said().contains("ran on the OpenCL device"), call.said());
        assertArrayEquals(expected, c);
    }

    @Test
    void aLoopFromAParameterToALengthWritesOnlyItsIterations() {
        double[] y = new double[N], expected = new double[N];
        for (int k = 0; k < N; k++) {
            y[k] = expected[k] = k * 0.25;
        }
        OriginalBodies.run("scaleFrom", expected, 1000, -2.0);
        assertTrue(run(() -> LoopKernels.scaleFrom(y, 1000, -2.0)).launched(), "the device ran");
        assertArrayEquals(expected, y);
    }

    // ------------------------------------------------------------ reductions

    @Test
    void integerReductionsGiveTheLoopsResult() {
        Random random = new Random(11);
        int[] a = random.ints(100_003).toArray(); // the sum of squares overflows, as in Java
        Call<Integer> sum = call(() -> LoopKernels.sumOfSquares(a));
        assertTrue(sum.launched(), "the reduction ran on the device");
        assertEquals(OriginalBodies.run("sumOfSquares", a).result(), sum.result());

        long[] l = random.longs(5003, -1_000_000, 1_000_000).toArray();
        Call<Long> max = call(() -> LoopKernels.maximum(l, Long.MIN_VALUE));
        assertTrue(max.launched(), "the reduction ran on the device");
        assertEquals(OriginalBodies.run("maximum", l, Long.MIN_VALUE).result(), max.result());
        assertEquals(OriginalBodies.run("maximum", l, 5_000_000L).result(), LoopKernels.maximum(l, 5_000_000L), "the initial value takes part");
    }

    @Test
    void aFloatSumRunsInJavaAsWrittenAndSaysWhy() {
        float[] a = new float[N];
        for (int k = 0; k < N; k++) {
            a[k] = 1.0f / (k + 1);
        }
        Call<Float> sum = call(() -> LoopKernels.floatSum(a));
        assertEquals(OriginalBodies.run("floatSum", a).result(), sum.result(), "the sequential loop's bits");
        assertTrue(!sum.launched(), "no kernel");
        assertTrue(sum.said().contains("LoopKernels::floatSum at LoopKernels.java:") && sum.said().contains("runs in Java, as written")
                        && sum.said().contains("bits depend on the order") && sum.said().matches("(?s).*\\(at LoopKernels\\.java:\\d+\\).*"), sum.said());
    }

    // ------------------------------------------------------------ Java exceptions inside the loop

    @Test
    void anIndexOutOfBoundsReachesTheCallerAtJavasElementWithJavasWrites() {
        int[] a = new int[N];
        for (int k = 0; k < N; k++) {
            a[k] = k * 7 + 1;
        }
        int[] expected = new int[N];
        Throwable javas = OriginalBodies.run("shifted", a, expected, 5).thrown();
        assertNotNull(javas);
        int[] out = new int[N];
        Throwable[] thrown = new Throwable[1];
        Call<Void> call = run(() -> {
            try {
                LoopKernels.shifted(a, out, 5);
            } catch (ArrayIndexOutOfBoundsException e) {
                thrown[0] = e;
            }
        });
        assertTrue(call.launched(), "the kernel ran first");
        assertNotNull(thrown[0], "the caller got Java's exception");
        assertSame(javas.getClass(), thrown[0].getClass());
        assertEquals(javas.getMessage(), thrown[0].getMessage(), "at the element a sequential loop throws at");
        assertArrayEquals(expected, out, "with the writes before it, and none after");
        assertTrue(call.said().contains("at iteration i = ") && call.said().contains("re-ran in Java"), call.said());
    }

    @Test
    void anEarlyBreakingInnerLoopExitsOnceIsRecompiledAndStaysOnTheDevice() {
        int[] table = {5, 7, 11, 13};
        Random random = new Random(17);
        for (int call = 0; call < 4; call++) {
            int[] keys = new int[N];
            for (int k = 0; k < N; k++) {
                keys[k] = random.nextInt();
            }
            int[] expected = new int[N];
            assertNull(OriginalBodies.run("earlyBreakingSums", keys, table, 100, expected).thrown());
            int[] out = new int[N];
            Call<Void> result = run(() -> LoopKernels.earlyBreakingSums(keys, table, 100, out));
            ApplyProfile profile = AF.lastProfile();
            assertTrue(result.launched(), "call " + call + " launched a kernel");
            assertArrayEquals(expected, out, "call " + call + ": Java's sums");
            if (call == 0) {
                assertTrue(profile.kernelExits() == 1 && profile.failedSpeculations() == 1 && profile.fellBack(), "the hoisted check failed once: " + profile);
                assertTrue(result.said().contains("recompiled without it (recompile 1 of at most"), result.said());
            } else {
                assertTrue(profile.kernelExits() == 0 && !profile.fellBack() && profile.recompiles() == (call == 1 ? 1 : 0), "call " + call + " on the device: " + profile);
            }
        }
    }

    @Test
    void aDivisionByZeroReachesTheCallerAsJavas() {
        int[] a = new int[N], d = new int[N];
        for (int k = 0; k < N; k++) {
            a[k] = k - 1500;
            d[k] = k == 2024 ? 0 : (k % 5) - 2 == 0 ? 3 : (k % 5) - 2;
        }
        int[] expected = new int[N];
        Throwable javas = OriginalBodies.run("quotients", a, d, expected).thrown();
        int[] out = new int[N];
        ArithmeticException[] thrown = new ArithmeticException[1];
        assertTrue(run(() -> {
            try {
                LoopKernels.quotients(a, d, out);
            } catch (ArithmeticException e) {
                thrown[0] = e;
            }
        }).launched(), "the kernel ran first");
        assertNotNull(thrown[0]);
        assertEquals(javas.getMessage(), thrown[0].getMessage());
        assertArrayEquals(expected, out);

        d[2024] = 7; // no zero: the device's result
        int[] again = new int[N], expectedAgain = new int[N];
        OriginalBodies.run("quotients", a, d, expectedAgain);
        assertTrue(run(() -> LoopKernels.quotients(a, d, again)).launched());
        assertArrayEquals(expectedAgain, again);
    }

    @Test
    void nullAndAliasedArraysRunTheOriginalBody() {
        float[] y = {1, 2, 3};
        Throwable javas = OriginalBodies.run("saxpy", 2f, null, y.clone()).thrown();
        NullPointerException[] thrown = new NullPointerException[1];
        Call<Void> nullCall = run(() -> {
            try {
                LoopKernels.saxpy(2f, null, y);
            } catch (NullPointerException e) {
                thrown[0] = e;
            }
        });
        assertNotNull(thrown[0]);
        assertEquals(javas.getMessage(), thrown[0].getMessage());
        assertTrue(nullCall.said().contains("its argument 2 (a float[]) is null"), nullCall.said());

        float[] x = {1, 2, 3, 4};
        float[] expected = x.clone();
        OriginalBodies.run("saxpy", 3f, expected, expected);
        Call<Void> aliased = run(() -> LoopKernels.saxpy(3f, x, x));
        assertArrayEquals(expected, x);
        assertTrue(aliased.said().contains("are the same array"), aliased.said());
    }

    // ------------------------------------------------------------ refused

    @Test
    void anUnsupportedConstructRunsTheOriginalBodyAndExplainSaysWhyWithTheLine() {
        int[] a = {1, 2, 3, -4, 5};
        int[] expected = a.clone();
        OriginalBodies.run("untilNegative", expected);
        Call<Void> call = run(() -> LoopKernels.untilNegative(a));
        assertArrayEquals(expected, a);
        assertTrue(!call.launched(), "no kernel");
        assertTrue(call.said().contains("accelerated method LoopKernels::untilNegative at LoopKernels.java:") && call.said().contains("runs in Java, as written")
                        && call.said().contains("break") && call.said().matches("(?s).*\\(at LoopKernels\\.java:\\d+\\).*"), call.said());
    }

    @Test
    void aLoopCarriedDependenceRunsSequentiallyAndWarnsOnce() {
        int[] a = new int[100];
        int[] expected = new int[100];
        OriginalBodies.run("runningDoubling", expected);
        String property = System.clearProperty("jpai.explain"); // the warning does not need explain
        try {
            Call<Void> first = run(() -> LoopKernels.runningDoubling(a));
            assertArrayEquals(expected, a);
            assertTrue(!first.launched(), "no kernel");
            assertTrue(first.said().contains("WARNING: accelerated method LoopKernels::runningDoubling at LoopKernels.java:") && first.said().contains("runs sequentially in Java")
                            && first.said().contains("loop-carried dependence") && first.said().matches("(?s).*\\(at LoopKernels\\.java:\\d+\\).*"), first.said());
            Call<Void> second = run(() -> LoopKernels.runningDoubling(new int[10]));
            assertEquals("", second.said(), "warned once");
        } finally {
            System.setProperty("jpai.explain", property);
        }
        assertNull(null);
    }
}
