package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The fma formulation's arithmetic, in Java ({@link ExactFloatDivSqrtSimulation}), against Java's
 * {@code /} and {@code sqrt} with the device's approximation as bad as OpenCL allows (8192 ulp either
 * way) and exact: the argument of the helpers' comments, checked without a device. A few seconds;
 * {@code ExactFloatDivSqrtSimulation.main} checks every float's root (2^32, minutes).
 */
class ExactFloatDivSqrtSimulationTest {

    private static final int[] ERRORS = {-8192, -8191, -4096, -1, 0, 1, 4096, 8191, 8192};

    @Test
    void squareRootAndItsReciprocalAreJavasForEveryExponentOnADenseSampleOfSignificands() {
        SplittableRandom random = new SplittableRandom(1);
        long mismatches = 0;
        for (int error : ERRORS) {
            for (int biased = 0; biased < 512; biased++) { // both signs, every exponent
                for (int k = 0; k < 1500; k++) {
                    int significand = k < 4 ? new int[] {0, 1, 0x7FFFFF, 0x7FFFFE}[k] : random.nextInt(1 << 23);
                    float x = Float.intBitsToFloat(biased << 23 | significand);
                    mismatches += Float.floatToIntBits(ExactFloatDivSqrtSimulation.sqrt(x, error)) != Float.floatToIntBits((float) Math.sqrt(x)) ? 1 : 0;
                    mismatches += Float.floatToIntBits(ExactFloatDivSqrtSimulation.reciprocalSqrt(x, error)) != Float.floatToIntBits(1.0f / (float) Math.sqrt(x)) ? 1 : 0;
                }
            }
            for (int k = 0; k < 20000; k++) { // squares of floats and their neighbours: roots on a float and just beside one
                float s = Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, random.nextInt(-74, 64));
                float x = Float.intBitsToFloat(Math.max(0, Float.floatToRawIntBits(s * s) + random.nextInt(-1, 2)));
                mismatches += Float.floatToIntBits(ExactFloatDivSqrtSimulation.sqrt(x, error)) != Float.floatToIntBits((float) Math.sqrt(x)) ? 1 : 0;
            }
        }
        assertEquals(0, mismatches);
    }

    @Test
    void divisionIsJavasOnRandomPairsAroundTheFastRangesBounds() {
        SplittableRandom random = new SplittableRandom(2);
        long mismatches = 0;
        for (int error : ERRORS) {
            for (int k = 0; k < 150_000; k++) {
                float a;
                float b;
                switch (k % 3) {
                    case 0 -> {
                        a = Float.intBitsToFloat(random.nextInt());
                        b = Float.intBitsToFloat(random.nextInt());
                    }
                    case 1 -> { // quotients and operands at the edges of the float path's range, on both sides
                        b = Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, random.nextInt(-128, 128));
                        a = Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, Math.max(-149, Math.min(127, Math.getExponent(b) + random.nextInt(-128, 128))));
                    }
                    default -> { // exact quotients and their neighbours
                        b = Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, random.nextInt(-60, 61));
                        float q = Math.scalb(1f + random.nextInt(1 << 23) * 0x1.0p-23f, random.nextInt(-60, 61));
                        a = Float.intBitsToFloat(Float.floatToRawIntBits(b * q) + random.nextInt(-1, 2));
                    }
                }
                a = random.nextBoolean() ? a : -a;
                b = random.nextBoolean() ? b : -b;
                mismatches += Float.floatToIntBits(ExactFloatDivSqrtSimulation.divide(a, b, error)) != Float.floatToIntBits(a / b) ? 1 : 0;
            }
        }
        assertEquals(0, mismatches);
    }
}
