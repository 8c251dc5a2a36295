package jpai.test.exactness;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Operands for proving float division and square root bit-exact against Java: every edge class of
 * the formulations in {@code jpai.ocl.codegen.Helper} (zeros, subnormals, MIN/MAX, infinities, NaN,
 * powers of two, all-ones significands, the bounds of the {@code fma} formulation's range) and random
 * operands drawn so that quotients land near overflow and underflow, reciprocals turn subnormal and
 * results fall on exact values and their neighbours.
 */
public final class FloatDivSqrtCases {

    private FloatDivSqrtCases() {
    }

    /** The edge values, each with its negation: about 90 floats. */
    public static float[] edges() {
        List<Float> values = new ArrayList<>();
        float[] positive = {0f, Float.MIN_VALUE, 2 * Float.MIN_VALUE, 3 * Float.MIN_VALUE, 0x1.8p-140f, Math.nextDown(Float.MIN_NORMAL), Float.MIN_NORMAL, Math.nextUp(Float.MIN_NORMAL),
                        0x1.0p-125f, 0x1.fffffep-126f, 0x1.0p-104f, 0x1.fffffep-103f, 0x1.0p-102f, 0x1.0p-101f, 0x1.0p-100f, Math.nextDown(0x1.0p-100f), 0x1.0p-75f, 0x1.0p-50f,
                        0.5f, 1f, Math.nextUp(1f), Math.nextDown(1f), 1.5f, 2f, 3f, 7f, 10f, 0x1.fffffep0f, 0x1.000002p0f, 16777215f, 16777216f, 0x1.0p24f, 0x1.0p100f,
                        0x1.0p125f, 0x1.fffffep125f, 0x1.0p126f, 0x1.fffffep126f, 0x1.0p127f, Math.nextDown(Float.MAX_VALUE), Float.MAX_VALUE, Float.POSITIVE_INFINITY};
        for (float v : positive) {
            values.add(v);
            values.add(-v);
        }
        values.add(Float.NaN);
        values.add(Float.intBitsToFloat(0x7fc00001));
        values.add(Float.intBitsToFloat(0xff800001));
        float[] result = new float[values.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = values.get(i);
        }
        return result;
    }

    /** Every pair of edge values, as two arrays of dividends and divisors. */
    public static float[][] edgePairs() {
        float[] e = edges();
        float[][] pairs = new float[2][e.length * e.length];
        for (int i = 0; i < e.length; i++) {
            for (int j = 0; j < e.length; j++) {
                pairs[0][i * e.length + j] = e[i];
                pairs[1][i * e.length + j] = e[j];
            }
        }
        return pairs;
    }

    /**
     * {@code count} random pairs into {@code a} and {@code b} from {@code offset}: a quarter with
     * random bits (every class, NaN and infinities included), a quarter of ordinary magnitudes, a
     * quarter whose quotient's exponent lies near the overflow (about 128) or underflow (-126 to
     * -150) bounds or whose divisor makes the reciprocal subnormal, and a quarter of exact quotients
     * {@code b * q} and their neighbours (remainders zero or one ulp off).
     */
    public static void randomPairs(SplittableRandom random, float[] a, float[] b, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            float x;
            float y;
            switch (random.nextInt(4)) {
                case 0 -> {
                    x = Float.intBitsToFloat(random.nextInt());
                    y = Float.intBitsToFloat(random.nextInt());
                }
                case 1 -> {
                    x = scaled(random, random.nextInt(-30, 31));
                    y = scaled(random, random.nextInt(-30, 31));
                }
                case 2 -> {
                    int quotientExponent = random.nextBoolean() ? random.nextInt(120, 131) : random.nextInt(-152, -118);
                    int divisorExponent = random.nextInt(3) == 0 ? random.nextInt(124, 128) : random.nextInt(-149, 128);
                    y = scaled(random, divisorExponent);
                    x = scaled(random, Math.max(-149, Math.min(127, quotientExponent + divisorExponent)));
                }
                default -> {
                    y = scaled(random, random.nextInt(-60, 61));
                    float q = scaled(random, random.nextInt(-60, 61));
                    x = Float.intBitsToFloat(Float.floatToRawIntBits(y * q) + random.nextInt(-1, 2));
                }
            }
            a[i] = random.nextBoolean() ? x : -x;
            b[i] = random.nextBoolean() ? y : -y;
        }
    }

    /**
     * {@code count} random square-root arguments into {@code x} from {@code offset}: random bits,
     * squares of random floats and their neighbours (roots exactly a float or just beside one),
     * and subnormals.
     */
    public static void randomRoots(SplittableRandom random, float[] x, int offset, int count) {
        for (int i = offset; i < offset + count; i++) {
            x[i] = switch (random.nextInt(3)) {
                case 0 -> Float.intBitsToFloat(random.nextInt());
                case 1 -> {
                    float s = scaled(random, random.nextInt(-74, 64));
                    yield Float.intBitsToFloat(Math.max(0, Float.floatToRawIntBits(s * s) + random.nextInt(-1, 2)));
                }
                default -> Float.intBitsToFloat(random.nextInt(1, 0x00800000));
            };
        }
    }

    /** A float in [2^exponent, 2^(exponent+1)) with a random significand (subnormal or 0 below 2^-126, infinite past 2^127). */
    private static float scaled(SplittableRandom random, int exponent) {
        return Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, exponent);
    }
}
