package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import jpai.compiler.math.FloatArgumentTrig;
import jpai.compiler.math.FloatArgumentExpLog;
import jpai.compiler.MathFunctions;
import jpai.compiler.phases.FloatArgumentMathPhase;

/**
 * {@code (float) Math.sin/cos/exp/log((double) f)} are computed from the {@code float}
 * ({@link FloatArgumentMathPhase}, {@link FloatArgumentTrig}, {@link FloatArgumentExpLog}): the kernel inlines that Java code, so
 * the device must give exactly the bits the JVM computes with it (its fast path, its rounding test
 * and its FdLibm fallback alike), for every kind of argument. {@code FloatArgumentTrigTest},
 * {@code FloatArgumentExpLogTest} and the two proofs show those results are ones Java allows. {@code StrictMath}'s
 * functions, whose bits are fixed, and {@code Math.sin} whose {@code double} value is used are
 * left to FdLibm.
 */
class FloatArgumentMathOnDeviceTest {

    /**
     * The runtime chooses {@code java-float} for a GPU only; these compilers read {@code -Djpai.math}
     * ({@link MathFunctions#fromSystemProperty()}), so the tests name it.
     */
    @BeforeAll
    static void floatArgumentMathOn() {
        System.setProperty(MathFunctions.PROPERTY, MathFunctions.JAVA_FLOAT_ARGUMENTS.optionValue());
    }

    @AfterAll
    static void floatArgumentMathAsBefore() {
        System.clearProperty(MathFunctions.PROPERTY);
    }

    /** 1/15! as the kernel prints it: the float path's sine polynomial has it, FdLibm's (2/pi and pi/2's parts are the same in both) does not. */
    private static final String FLOAT_PATH_MARK = "0x1.ae7f3e733b81fp-41";

    /** Every 7,919th float of the fast range (both signs), random floats, and the edges. */
    static float[] arguments() {
        int limitBits = Float.floatToRawIntBits(FloatArgumentTrig.FAST_LIMIT);
        Random random = new Random(20261127);
        float[] values = new float[2 * (limitBits / 7919 + 1) + 20_000 + 16];
        int n = 0;
        for (int bits = 0; bits <= limitBits; bits += 7919) {
            values[n++] = Float.intBitsToFloat(bits);
            values[n++] = -Float.intBitsToFloat(bits);
        }
        for (int i = 0; i < 20_000; i++) {
            values[n++] = i % 4 == 0 ? Float.intBitsToFloat(random.nextInt()) : (random.nextFloat() * 2 - 1) * (i % 2 == 0 ? 7f : 1.2e6f);
        }
        float[] edges = {0f, -0f, Float.MIN_VALUE, 0x1p20f, Math.nextUp(0x1p20f), 1.5707964f, 3.1415927f, 4.712389f, 6.2831855f, 1e30f, Float.MAX_VALUE,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, 0x1p-12f, -0x1p-126f};
        System.arraycopy(edges, 0, values, n, edges.length);
        n += edges.length;
        return java.util.Arrays.copyOf(values, n);
    }

    private static float[] below(float[] values, float limit) {
        float[] kept = new float[values.length];
        int n = 0;
        for (float v : values) {
            if (!(Math.abs(v) >= limit && Float.isFinite(v))) {
                kept[n++] = v;
            }
        }
        return java.util.Arrays.copyOf(kept, n);
    }

    /** The device's sin and cos of floats are FloatArgumentTrig's bits; no OpenCL built-in, no FdLibm table on the fast path. */
    @Test
    void sinAndCosOfFloatsAreTheJvmsBitsOfTheFloatPath() {
        // huge angles' FdLibm reduction is left to Java (the kernel exits): below 2^19 pi/2 everything runs on the device
        float[] values = below(arguments(), (float) StrictMathOnDeviceTest.HUGE_ANGLE);
        Function<Float, Float> sin = x -> (float) Math.sin(x);
        Function<Float, Float> cos = x -> (float) Math.cos(x);
        String text = KernelTestSupport.map(sin, Float.class, Float.class).text();
        assertFalse(text.matches("(?s).*\\b(sin|cos)\\(.*"), "no OpenCL built-in: " + text);
        assertTrue(text.contains(FLOAT_PATH_MARK), "the float path's polynomial (1/15!, which FdLibm's minimax polynomials do not have): " + text);
        assertMapEqualsJava(x -> FloatArgumentTrig.sin(x), Float.class, Float.class, values);
        OpenCLTestDevice.Result device = KernelTestSupport.runMap(sin, Float.class, Float.class, values);
        assertEquals(DeoptReason.NONE, device.reason());
        float[] sines = (float[]) device.outputs().get(0);
        float[] cosines = (float[]) KernelTestSupport.runMap(cos, Float.class, Float.class, values).outputs().get(0);
        for (int i = 0; i < values.length; i++) {
            KernelTestSupport.assertSameValue(FloatArgumentTrig.sin(values[i]), sines[i], "sin(" + Float.toHexString(values[i]) + ")");
            KernelTestSupport.assertSameValue(FloatArgumentTrig.cos(values[i]), cosines[i], "cos(" + Float.toHexString(values[i]) + ")");
        }
    }

    /** The device's exp and log of floats are FloatArgumentExpLog's bits (its fast paths and FdLibm's fallbacks alike). */
    @Test
    void expAndLogOfFloatsAreTheJvmsBitsOfTheFloatPath() {
        float[] values = arguments();
        float[] positive = new float[values.length + 8];
        for (int i = 0; i < values.length; i++) {
            positive[i] = Math.abs(values[i]) * (i % 3 == 0 ? 1e-30f : 1f);
        }
        float[] moreEdges = {Float.MIN_VALUE, Float.MIN_NORMAL, 1f, Math.nextDown(1f), Math.nextUp(1f), Float.MAX_VALUE, 88.72283f, -103.97f};
        System.arraycopy(moreEdges, 0, positive, values.length, moreEdges.length);
        Function<Float, Float> exp = x -> (float) Math.exp(x);
        Function<Float, Float> log = x -> (float) Math.log(x);
        assertFalse(KernelTestSupport.map(exp, Float.class, Float.class).text().matches("(?s).*\\b(exp|log)\\(.*"), "no OpenCL built-in");
        float[] exps = (float[]) KernelTestSupport.runMap(exp, Float.class, Float.class, values).outputs().get(0);
        float[] logs = (float[]) KernelTestSupport.runMap(log, Float.class, Float.class, positive).outputs().get(0);
        float[] logsOfAll = (float[]) KernelTestSupport.runMap(log, Float.class, Float.class, values).outputs().get(0);
        for (int i = 0; i < values.length; i++) {
            KernelTestSupport.assertSameValue(FloatArgumentExpLog.exp(values[i]), exps[i], "exp(" + Float.toHexString(values[i]) + ")");
            KernelTestSupport.assertSameValue(FloatArgumentExpLog.log(values[i]), logsOfAll[i], "log(" + Float.toHexString(values[i]) + ")");
        }
        for (int i = 0; i < positive.length; i++) {
            KernelTestSupport.assertSameValue(FloatArgumentExpLog.log(positive[i]), logs[i], "log(" + Float.toHexString(positive[i]) + ")");
        }
    }

    /**
     * {@code java-float-device}: exp and log read the device's {@code double} built-ins (the kernel
     * calls them) behind the same rounding test, and give {@code (float) StrictMath}'s bits.
     */
    @Test
    void expAndLogFromTheDevicesBuiltinsAreStrictMathsBits() {
        System.setProperty(MathFunctions.PROPERTY, MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG.optionValue());
        try {
            float[] values = arguments();
            float[] positive = new float[values.length];
            for (int i = 0; i < values.length; i++) {
                positive[i] = Math.abs(values[i]) * (i % 3 == 0 ? 1e-30f : 1f);
            }
            Function<Float, Float> exp = x -> (float) Math.exp(x);
            Function<Float, Float> log = x -> (float) Math.log(x);
            assertTrue(KernelTestSupport.map(exp, Float.class, Float.class).text().matches("(?s).*\\bexp\\(.*"), "the device's exp");
            assertTrue(KernelTestSupport.map(log, Float.class, Float.class).text().matches("(?s).*\\blog\\(.*"), "the device's log");
            float[] exps = (float[]) KernelTestSupport.runMap(exp, Float.class, Float.class, values).outputs().get(0);
            float[] logs = (float[]) KernelTestSupport.runMap(log, Float.class, Float.class, positive).outputs().get(0);
            for (int i = 0; i < values.length; i++) {
                KernelTestSupport.assertSameValue((float) StrictMath.exp(values[i]), exps[i], "exp(" + Float.toHexString(values[i]) + ")");
                KernelTestSupport.assertSameValue((float) StrictMath.log(positive[i]), logs[i], "log(" + Float.toHexString(positive[i]) + ")");
            }
        } finally {
            System.setProperty(MathFunctions.PROPERTY, MathFunctions.JAVA_FLOAT_ARGUMENTS.optionValue());
        }
    }

    /** sin and cos of one angle share the reduction and stay right; a captured scale as in a DFT. */
    @Test
    void sinAndCosOfOneAngle() {
        float scale = 0.0015339808f;
        Function<Integer, Float> twiddle = k -> (float) Math.cos(scale * (k % 4096)) * 3f + (float) Math.sin(scale * (k % 4096));
        int[] ks = new int[10_000];
        for (int i = 0; i < ks.length; i++) {
            ks[i] = i * 37;
        }
        float[] device = (float[]) KernelTestSupport.runMap(twiddle, Integer.class, Float.class, ks).outputs().get(0);
        for (int i = 0; i < ks.length; i++) {
            float angle = scale * (ks[i] % 4096);
            KernelTestSupport.assertSameValue(FloatArgumentTrig.cos(angle) * 3f + FloatArgumentTrig.sin(angle), device[i], "k = " + ks[i]);
        }
    }

    /** {@code -Djpai.math=java} (a CPU device's default): FdLibm computes them. */
    @Test
    void javaKeepsFdLibm() {
        Function<Float, Float> sin = x -> (float) Math.sin(x);
        assertTrue(KernelTestSupport.map(sin, Float.class, Float.class).text().contains(FLOAT_PATH_MARK), "the float path's polynomial");
        KernelTestSupport.withMath(MathFunctions.JAVA,
                        () -> assertFalse(KernelTestSupport.map(sin, Float.class, Float.class).text().contains(FLOAT_PATH_MARK), "FdLibm's polynomial"));
    }

    /** StrictMath's bits are fixed: its float-argument calls keep FdLibm, and the device gives exactly Java's. */
    @Test
    void strictMathOfFloatsKeepsFdLibm() {
        float[] values = below(arguments(), (float) StrictMathOnDeviceTest.HUGE_ANGLE);
        Function<Float, Float> sin = x -> (float) StrictMath.sin(x);
        assertFalse(KernelTestSupport.map(sin, Float.class, Float.class).text().contains(FLOAT_PATH_MARK), "not the float path");
        assertMapEqualsJava(sin, Float.class, Float.class, values);
        assertMapEqualsJava(x -> (float) StrictMath.cos(x), Float.class, Float.class, values);
    }

    /** Math.sin of a float whose double value is used stays FdLibm's (StrictMath's bits): the float path's value is not within 1 ulp of it. */
    @Test
    void aDoubleValueUsedAsDoubleKeepsFdLibm() {
        float[] values = below(arguments(), (float) StrictMathOnDeviceTest.HUGE_ANGLE);
        Function<Float, Double> sin = x -> Math.sin(x) * 3.0;
        OpenCLTestDevice.Result device = KernelTestSupport.runMap(sin, Float.class, Double.class, values);
        double[] got = (double[]) device.outputs().get(0);
        for (int i = 0; i < values.length; i++) {
            KernelTestSupport.assertSameValue(StrictMath.sin(values[i]) * 3.0, got[i], "sin(" + values[i] + ") * 3");
        }
    }
}
