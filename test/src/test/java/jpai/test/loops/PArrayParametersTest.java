package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

import jpai.PArray;
import jpai.runtime.opencl.KernelLaunches;

/**
 * {@code PArray} parameters of {@code @Accelerate} methods on the device (PoCL here): each result
 * compared with the method's original body run by the JVM on a copy of the same data; arrays kept
 * resident between calls (the host sees a kernel's writes when it reads, and a host write is sent to
 * the next call); and an iteration that meets a Java exception path: the call re-runs in Java on the
 * array's contents from before the call, so Java's exception comes with Java's writes only, whether
 * the array's newest copy was on the host or on the device.
 */
class PArrayParametersTest extends WithTheAgentExplaining {

    private static final int N = 3001; // not a multiple of the work-group size
    /** What a call printed on standard error, whether it launched a kernel, and what it threw. */
    private record Call(String said, boolean launched, Throwable thrown) {
    }

    private static Call run(Runnable call) {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        long launches = KernelLaunches.count();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        Throwable thrown = null;
        try {
            call.run();
        } catch (RuntimeException e) {
            thrown = e;
        } finally {
            System.setErr(err);
        }
        String text = said.toString(StandardCharsets.UTF_8);
        err.print(text);
        return new Call(text, KernelLaunches.count() > launches, thrown);
    }

    private static float[] floats(Random random, int n) {
        float[] values = new float[n];
        float[] edges = {Float.NaN, -0.0f, 0.0f, Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY, -Float.MIN_NORMAL};
        for (int k = 0; k < n; k++) {
            values[k] = k < edges.length ? edges[k] : (random.nextFloat() - 0.5f) * 1e4f;
        }
        return values;
    }

    @Test
    void saxpyOnResidentPArraysGivesJavasResultCallAfterCall() {
        Random random = new Random(5);
        float[] x = floats(random, N);
        float[] y = floats(random, N);
        try (PArray<Float> px = PArray.of(x); PArray<Float> py = PArray.of(y); PArray<Float> jx = PArray.of(x); PArray<Float> jy = PArray.of(y)) {
            for (int round = 0; round < 3; round++) {
                float alpha = 1.5f - round;
                Call call = run(() -> PArrayKernels.saxpy(alpha, px, py));
                assertTrue(call.launched(), "saxpy ran on the device: " + call.said());
                OriginalBodies.runOf(PArrayKernels.class, "saxpy", alpha, jx, jy);
            }
            assertArrayEquals(jy.toFloatArray(), py.toFloatArray(), "three calls, each on the previous one's device results");
            assertArrayEquals(x, px.toFloatArray(), "x is only read");

            // a host write between two calls reaches the next one
            py.put(17, 123.25f);
            jy.put(17, 123.25f);
            assertTrue(run(() -> PArrayKernels.saxpy(2f, px, py)).launched());
            OriginalBodies.runOf(PArrayKernels.class, "saxpy", 2f, jx, jy);
            assertArrayEquals(jy.toFloatArray(), py.toFloatArray());
        }
    }

    @Test
    void aKernelThatCannotExitForTheseLengthsSavesNoCopyOfTheArrayItWrites() {
        Random random = new Random(7);
        float[] x = floats(random, N);
        float[] y = floats(random, N);
        try (PArray<Float> px = PArray.of(x); PArray<Float> py = PArray.of(y); PArray<Float> shortX = PArray.of(java.util.Arrays.copyOf(x, N - 1));
                        PArray<Float> jy = PArray.of(y)) {
            PArrayKernels.saxpy(2f, px, py); // y's newest copy is now on the device
            OriginalBodies.runOf(PArrayKernels.class, "saxpy", 2f, px, jy);
            long[] before = jpai.runtime.opencl.DriverCalls.snapshot();
            assertTrue(run(() -> PArrayKernels.saxpy(2f, px, py)).launched());
            long transfers = jpai.runtime.opencl.DriverCalls.between(before, jpai.runtime.opencl.DriverCalls.snapshot(), jpai.runtime.opencl.DriverCalls.Call.ENQUEUE_TRANSFER);
            assertEquals(0, transfers, "x is as long as y: the kernel cannot exit, so nothing moves, not even its status words (" + transfers + " transfers)");
            OriginalBodies.runOf(PArrayKernels.class, "saxpy", 2f, px, jy);

            // x shorter than y: the kernel may exit (it does, at the last element), so y is saved first and restored
            Call call = run(() -> PArrayKernels.saxpy(2f, shortX, py));
            assertTrue(call.launched());
            assertNotNull(call.thrown(), "Java's IndexOutOfBoundsException at element " + (N - 1));
            Throwable java = OriginalBodies.runOf(PArrayKernels.class, "saxpy", 2f, shortX, jy).thrown();
            assertEquals(java.getClass(), call.thrown().getClass());
            assertArrayEquals(jy.toFloatArray(), py.toFloatArray(), "Java's writes on the pre-call contents");
        }
    }

    /**
     * A loop whose only exits are checks of its index against the arrays' lengths gets a second
     * kernel without them, run when the arrays are at least as long as the loop (the checks kept
     * PoCL from vectorising saxpy: twice the time); a shorter array gets the checked kernel, and
     * Java's exception.
     */
    @Test
    void longEnoughArraysRunTheKernelWithoutIndexChecks() throws java.io.IOException {
        Random random = new Random(11);
        float[] x = floats(random, N);
        float[] y = floats(random, N);
        java.nio.file.Path dump = java.nio.file.Files.createTempDirectory("jpai-unchecked");
        System.setProperty("jpai.dump.opencl", dump.toString());
        try (PArray<Float> px = PArray.of(x); PArray<Float> py = PArray.of(y); PArray<Float> shortX = PArray.of(java.util.Arrays.copyOf(x, N - 1));
                        PArray<Float> jy = PArray.of(y)) {
            Call call = run(() -> PArrayKernels.axpyForTheUncheckedKernel(2f, px, py));
            assertTrue(call.launched(), call.said());
            OriginalBodies.runOf(PArrayKernels.class, "axpyForTheUncheckedKernel", 2f, px, jy);
            assertArrayEquals(jy.toFloatArray(), py.toFloatArray(), "Java's results without the checks");

            Call shorter = run(() -> PArrayKernels.axpyForTheUncheckedKernel(2f, shortX, py));
            assertTrue(shorter.launched());
            Throwable java = OriginalBodies.runOf(PArrayKernels.class, "axpyForTheUncheckedKernel", 2f, shortX, jy).thrown();
            assertNotNull(java);
            assertNotNull(shorter.thrown(), "the checked kernel exits where Java throws");
            assertEquals(java.getClass(), shorter.thrown().getClass());
            assertArrayEquals(jy.toFloatArray(), py.toFloatArray(), "Java's writes before its exception");
        } finally {
            System.clearProperty("jpai.dump.opencl");
        }
        try (var files = java.nio.file.Files.list(dump)) {
            java.util.List<java.nio.file.Path> kernels = files.filter(f -> f.getFileName().toString().contains("axpyForTheUncheckedKernel")).sorted().toList();
            assertEquals(2, kernels.size(), "the checked and the unchecked kernel: " + kernels);
            String checked = java.nio.file.Files.readString(kernels.get(0));
            String unchecked = java.nio.file.Files.readString(kernels.get(1));
            assertTrue(kernels.get(1).getFileName().toString().endsWith(".unchecked.cl"), kernels.toString());
            assertTrue(checked.contains("BOUNDS_CHECK"), checked);
            assertFalse(unchecked.contains("BOUNDS_CHECK") || unchecked.contains("return 1"), "no check and no exit left: " + unchecked);
        }
    }

    @Test
    void everyScalarElementTypeGivesJavasResultOnTheDevice() {
        Random random = new Random(17);
        int[] ints = new int[N];
        long[] longs = new long[N];
        double[] doubles = new double[N];
        byte[] bytes = new byte[N];
        for (int k = 0; k < N; k++) {
            ints[k] = k < 4 ? new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0}[k] : random.nextInt();
            longs[k] = k < 2 ? (k == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong();
            doubles[k] = k < 4 ? new double[] {Double.NaN, Double.NEGATIVE_INFINITY, -0.0, 0.0}[k] : random.nextGaussian() * 1e3;
        }
        random.nextBytes(bytes);
        try (PArray<Integer> a = PArray.of(ints); PArray<Integer> out = PArray.allocate(Integer.class, N); PArray<Integer> expected = PArray.allocate(Integer.class, N)) {
            assertTrue(run(() -> PArrayKernels.ints(a, out, -7)).launched(), "ints ran on the device");
            OriginalBodies.runOf(PArrayKernels.class, "ints", a, expected, -7);
            assertArrayEquals(expected.toIntArray(), out.toIntArray());
        }
        try (PArray<Long> a = PArray.of(longs); PArray<Long> out = PArray.allocate(Long.class, N); PArray<Long> expected = PArray.allocate(Long.class, N)) {
            assertTrue(run(() -> PArrayKernels.longs(a, out)).launched(), "longs ran on the device");
            OriginalBodies.runOf(PArrayKernels.class, "longs", a, expected);
            assertArrayEquals(expected.toLongArray(), out.toLongArray());
        }
        try (PArray<Double> a = PArray.of(doubles); PArray<Double> out = PArray.allocate(Double.class, N); PArray<Double> expected = PArray.allocate(Double.class, N)) {
            assertTrue(run(() -> PArrayKernels.doubles(a, out, -2.5)).launched(), "doubles ran on the device");
            OriginalBodies.runOf(PArrayKernels.class, "doubles", a, expected, -2.5);
            assertArrayEquals(expected.toDoubleArray(), out.toDoubleArray());
        }
        try (PArray<Byte> a = PArray.of(bytes); PArray<Boolean> negative = PArray.allocate(Boolean.class, N); PArray<Short> widened = PArray.allocate(Short.class, N);
                        PArray<Boolean> negativeExpected = PArray.allocate(Boolean.class, N); PArray<Short> widenedExpected = PArray.allocate(Short.class, N)) {
            assertTrue(run(() -> PArrayKernels.bytesAndBooleans(a, negative, widened)).launched(), "bytes and booleans ran on the device");
            OriginalBodies.runOf(PArrayKernels.class, "bytesAndBooleans", a, negativeExpected, widenedExpected);
            assertArrayEquals(negativeExpected.toBooleanArray(), negative.toBooleanArray());
            assertArrayEquals(widenedExpected.toShortArray(), widened.toShortArray());
        }
    }

    @Test
    void aReductionAndAJavaArrayBesideAPArray() {
        Random random = new Random(23);
        long[] values = new long[N];
        for (int k = 0; k < N; k++) {
            values[k] = random.nextLong();
        }
        try (PArray<Long> a = PArray.of(values)) {
            long[] sum = new long[1];
            assertTrue(run(() -> sum[0] = PArrayKernels.sum(a)).launched(), "the reduction ran on the device");
            assertEquals(OriginalBodies.runOf(PArrayKernels.class, "sum", a).result(), sum[0]);
        }
        float[] weights = floats(random, N);
        float[] values2 = floats(random, N);
        try (PArray<Float> p = PArray.of(values2); PArray<Float> expected = PArray.of(values2)) {
            for (int round = 0; round < 2; round++) {
                assertTrue(run(() -> PArrayKernels.mixed(weights, p)).launched(), "mixed ran on the device");
                OriginalBodies.runOf(PArrayKernels.class, "mixed", weights, expected);
            }
            assertArrayEquals(expected.toFloatArray(), p.toFloatArray());
        }
    }

    @Test
    void anExceptionReRunsInJavaOnThePreCallContentsWhetherTheNewestCopyWasOnTheHostOrOnTheDevice() {
        int zeroAt = 2000;
        int[] start = new int[N];
        int[] divisors = new int[N];
        for (int k = 0; k < N; k++) {
            start[k] = 1_000_000 + 7 * k;
            divisors[k] = k == zeroAt ? 0 : 1 + k % 5;
        }
        int[] ones = new int[N];
        java.util.Arrays.fill(ones, 1);
        // host copy current: the device copy is forgotten after the exit
        try (PArray<Integer> a = PArray.of(start); PArray<Integer> b = PArray.of(divisors); PArray<Integer> expected = PArray.of(start)) {
            Call call = run(() -> PArrayKernels.divideInPlace(a, b));
            assertTrue(call.launched(), "the kernel ran first");
            assertNotNull(call.thrown());
            assertEquals(ArithmeticException.class, call.thrown().getClass());
            assertTrue(call.said().contains("re-ran in Java"), call.said());
            Throwable java = OriginalBodies.runOf(PArrayKernels.class, "divideInPlace", expected, b).thrown();
            assertEquals(java.getClass(), call.thrown().getClass());
            assertArrayEquals(expected.toIntArray(), a.toIntArray(), "Java's writes up to element " + zeroAt + " only");
        }
        // device copy newer (a previous call wrote it and the host has not read it): it is restored from the device's saved copy
        try (PArray<Integer> a = PArray.of(start); PArray<Integer> one = PArray.of(ones); PArray<Integer> b = PArray.of(divisors);
                        PArray<Integer> expected = PArray.of(start)) {
            assertTrue(run(() -> PArrayKernels.divideInPlace(a, one)).launched(), "a first call leaves a's newest copy on the device");
            Call call = run(() -> PArrayKernels.divideInPlace(a, b));
            assertTrue(call.launched());
            assertEquals(ArithmeticException.class, call.thrown() == null ? null : call.thrown().getClass());
            OriginalBodies.runOf(PArrayKernels.class, "divideInPlace", expected, one);
            OriginalBodies.runOf(PArrayKernels.class, "divideInPlace", expected, b);
            assertArrayEquals(expected.toIntArray(), a.toIntArray(), "Java's writes up to element " + zeroAt + " only, on the first call's results");
        }
    }

    @Test
    void anIndexOutsideAPArrayThrowsJavasExceptionWithTheOutputUntouchedPastIt() {
        Random random = new Random(29);
        float[] source = floats(random, 100);
        int[] indices = new int[N];
        for (int k = 0; k < N; k++) {
            indices[k] = k == 1500 ? 100 : random.nextInt(100);
        }
        float[] out = floats(random, N);
        try (PArray<Float> s = PArray.of(source); PArray<Integer> i = PArray.of(indices); PArray<Float> o = PArray.of(out); PArray<Float> expected = PArray.of(out)) {
            Call call = run(() -> PArrayKernels.gather(s, i, o));
            assertTrue(call.launched());
            Throwable java = OriginalBodies.runOf(PArrayKernels.class, "gather", s, i, expected).thrown();
            assertNotNull(java);
            assertNotNull(call.thrown());
            assertEquals(java.getClass(), call.thrown().getClass());
            assertEquals(java.getMessage(), call.thrown().getMessage());
            assertArrayEquals(expected.toFloatArray(), o.toFloatArray());
        }
    }

    @Test
    void twoViewsOfOneArrayRunInJavaAndSayWhy() {
        float[] values = floats(new Random(31), N);
        try (PArray<Float> p = PArray.of(values); PArray<Float> expected = PArray.of(values)) {
            Call call = run(() -> PArrayKernels.saxpy(3f, p, p.view()));
            assertFalse(call.launched(), "the same storage twice runs in Java");
            assertTrue(call.said().contains("are the same array"), call.said());
            OriginalBodies.runOf(PArrayKernels.class, "saxpy", 3f, expected, expected);
            assertArrayEquals(expected.toFloatArray(), p.toFloatArray());
        }
    }
}
