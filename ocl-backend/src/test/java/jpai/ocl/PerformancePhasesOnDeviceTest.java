package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static jpai.ocl.KernelTestSupport.runMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.compiler.phases.FloatTranscendentalsPhase;

/**
 * The optimisations that keep results (float square root, hoisted bounds checks, the 32-bit map
 * loop) give Java's results bit for bit on the device; float transcendentals stay within the bound of
 * docs/java-semantics.md ("float, vs Java" column).
 */
@org.junit.jupiter.api.extension.ExtendWith(OpenCLBuiltInMath.class)
class PerformancePhasesOnDeviceTest {

    static final float[] FLOATS = {0f, -0f, 1e-45f, 1e-40f, 1.17549435e-38f, 0.1f, 0.5f, 0.75f, 1f, 2f, 3f, 10f, 100f, 12345.678f, 1e10f, 3.4028235e38f,
                    -1f, -0.5f, -10f, -1e10f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, (float) Math.PI, 87.5f, 88.8f, -87f, -104f};

    static final int[] INDICES = {0, 1, 2, 3, 4, 5, 6, 7};

    @Test
    void floatSquareRootIsJavasExactly() {
        // 10 000 elements: more than the test device's 4096 work-items per enqueue, so the map runs in
        // three enqueues with global offsets; below, 1000 elements: one enqueue.
        float[] values = new float[10_000];
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < values.length; i++) {
            values[i] = i < FLOATS.length ? FLOATS[i] : Float.intBitsToFloat(random.nextInt() & 0x7fffffff);
        }
        Function<Float, Float> f = x -> (float) Math.sqrt(x);
        assertFalse(KernelTestSupport.map(f, Float.class, Float.class).text().contains("convert_double"));
        assertMapEqualsJava(f, Float.class, Float.class, values);
        assertMapEqualsJava(f, Float.class, Float.class, java.util.Arrays.copyOf(values, 1000));
    }

    static long floatUlps(float a, float b) {
        if (Float.isNaN(a) || Float.isNaN(b)) {
            return Float.isNaN(a) && Float.isNaN(b) ? 0 : Long.MAX_VALUE;
        }
        return Math.abs(ordered(a) - ordered(b));
    }

    private static long ordered(float f) {
        int bits = Float.floatToRawIntBits(f);
        return bits >= 0 ? bits : (long) Integer.MIN_VALUE - bits - 1;
    }

    private static void assertWithinBound(String name, Function<Float, Float> f) {
        KernelSource source = KernelTestSupport.map(f, Float.class, Float.class);
        assertFalse(source.text().contains("convert_double"), name + " computed in float: " + source.text());
        float[] values = new float[FLOATS.length + 2000];
        System.arraycopy(FLOATS, 0, values, 0, FLOATS.length);
        java.util.Random random = new java.util.Random(name.hashCode());
        for (int i = FLOATS.length; i < values.length; i++) {
            values[i] = (float) ((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(8) - 3));
        }
        OpenCLTestDevice.Result result = runMap(f, Float.class, Float.class, values);
        assertEquals(DeoptReason.NONE, result.reason());
        int bound = FloatTranscendentalsPhase.FLOAT_ULPS_VS_JAVA.get(name);
        float[] actual = (float[]) result.outputs().get(0);
        long worst = 0;
        for (int i = 0; i < values.length; i++) {
            float expected = f.apply(values[i]);
            worst = Math.max(worst, floatUlps(expected, actual[i]));
            assertTrue(floatUlps(expected, actual[i]) <= bound, name + "(" + values[i] + "): Java " + expected + ", device " + actual[i] + ", bound " + bound + " ulp");
        }
        System.out.println("float " + name + ": at most " + worst + " ulp from Java (bound " + bound + ")");
    }

    @Test
    void floatTranscendentalsAreWithinTheDocumentedBound() {
        Map<String, Function<Float, Float>> functions = Map.ofEntries(
                        Map.entry("sin", x -> (float) Math.sin(x)), Map.entry("cos", x -> (float) Math.cos(x)), Map.entry("tan", x -> (float) Math.tan(x)),
                        Map.entry("exp", x -> (float) Math.exp(x)), Map.entry("log", x -> (float) Math.log(x)), Map.entry("log10", x -> (float) Math.log10(x)),
                        Map.entry("cbrt", x -> (float) Math.cbrt(x)), Map.entry("tanh", x -> (float) Math.tanh(x)), Map.entry("atan", x -> (float) Math.atan(x)),
                        Map.entry("asin", x -> (float) Math.asin(x)), Map.entry("sinh", x -> (float) Math.sinh(x)), Map.entry("expm1", x -> (float) Math.expm1(x)),
                        Map.entry("log1p", x -> (float) Math.log1p(x)), Map.entry("pow", x -> (float) Math.pow(x, 1.5)),
                        Map.entry("atan2", x -> (float) Math.atan2(x, 0.75f)), Map.entry("hypot", x -> (float) Math.hypot(x, 3f)));
        for (Map.Entry<String, Function<Float, Float>> entry : functions.entrySet()) {
            assertWithinBound(entry.getKey(), entry.getValue());
        }
    }

    @Test
    void hoistedBoundsChecksGiveJavasResults() {
        float[] a = {1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f, 9f};
        float[] b = {0.5f, -1f, 2f, 4f, 8f, 16f, 32f, 64f, 128f, 256f};
        int n = 3;
        assertMapEqualsJava((Integer k) -> {
            float sum = 0f;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * b[j];
            }
            return sum + k;
        }, Integer.class, Float.class, INDICES);
        assertMapEqualsJava((Integer k) -> {
            float sum = 0f;
            int row = k % n;
            for (int j = 1; j < n; j++) {
                sum += a[row * n + j] - b[j - 1];
            }
            return sum;
        }, Integer.class, Float.class, INDICES);
        // Strided: a column of a 3x3 matrix (b has one element more than needed), a constant stride.
        assertMapEqualsJava((Integer k) -> {
            float sum = 0f;
            int col = k % n;
            for (int j = 0; j < n; j++) {
                sum += a[j * n + col] * b[4 * j + 1];
            }
            return sum;
        }, Integer.class, Float.class, INDICES);
        // A negative stride: indices 8, 7, 6 (and below, 8, 5, 2, -1: out of bounds).
        int down = -1;
        assertMapEqualsJava((Integer k) -> {
            float sum = 0f;
            for (int j = 0; j < 3; j++) {
                sum += a[j * down + 8] * k;
            }
            return sum;
        }, Integer.class, Float.class, INDICES);
        int steeper = -3;
        assertEquals(DeoptReason.HOISTED_BOUNDS_CHECK, runMap((Integer k) -> {
            float sum = 0f;
            for (int j = 0; j < 4; j++) {
                sum += a[j * steeper + 8] * k;
            }
            return sum;
        }, Integer.class, Float.class, INDICES).reason());
        // An empty loop whose bound is beyond the array checks nothing.
        assertMapEqualsJava((Integer k) -> {
            float sum = 0f;
            for (int j = 20; j < 20 + k - k; j++) {
                sum += a[j];
            }
            return sum + k;
        }, Integer.class, Float.class, INDICES);
    }

    @Test
    void aLoopThatGoesOutOfBoundsStillExits() {
        float[] a = {1f, 2f, 3f};
        float[] b = {1f, 2f};
        OpenCLTestDevice.Result result = runMap((Integer k) -> {
            float sum = 0f;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * b[j];
            }
            return sum;
        }, Integer.class, Float.class, INDICES);
        assertEquals(DeoptReason.HOISTED_BOUNDS_CHECK, result.reason());
        int[] negative = {-1};
        OpenCLTestDevice.Result fromBelow = runMap((Integer k) -> {
            float sum = 0f;
            for (int j = k - 1; j < 2; j++) {
                sum += a[j];
            }
            return sum;
        }, Integer.class, Float.class, new int[] {0});
        assertEquals(DeoptReason.HOISTED_BOUNDS_CHECK, fromBelow.reason());
        int n = 3;
        OpenCLTestDevice.Result strided = runMap((Integer k) -> {
            float sum = 0f;
            for (int j = 0; j < n; j++) {
                sum += a[j * n + k + 1]; // a has 3 elements: j = 1 is past its end
            }
            return sum;
        }, Integer.class, Float.class, new int[] {0, 1, 2});
        assertEquals(DeoptReason.HOISTED_BOUNDS_CHECK, strided.reason());
        assertEquals(1, negative.length);
    }
}
