package jpai.test.api;

import static jpai.test.api.DeviceRun.assertOnDeviceAsJava;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ElementType;
import jpai.PArray;

/**
 * Comparisons of ints widened to {@code long}, which the compiler makes comparisons of the ints
 * where that keeps every answer (NarrowWidenedComparisonsPhase: sign extensions for signed
 * comparisons, zero extensions for unsigned ones, a captured array's length being a zero-extended
 * int never negative) and leaves wide where it would not (a zero extension of an int that may be
 * negative, in a signed comparison; constants outside the int range): Java's answers on the device
 * for every int at the edges (0, ±1, the extremes, around 2^31 - length) and random ones.
 */
class WidenedComparisonsTest {

    private static final int[] EDGES = {0, 1, -1, 2, -2, 7, 8, 9, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1,
        Integer.MAX_VALUE - 8, -9, 1 << 30, -(1 << 30), 0x7fff_fff8, 0x8000_0008};

    private static PArray<Integer> inputs() {
        int random = 4096;
        int[] values = new int[EDGES.length + random];
        System.arraycopy(EDGES, 0, values, 0, EDGES.length);
        try (PArray<Integer> noise = MapTest.cast(RandomData.of(ElementType.INT, random, 41))) {
            for (int i = 0; i < random; i++) {
                values[EDGES.length + i] = noise.get(i);
            }
        }
        return PArray.of(values);
    }

    @Test
    void signedAndUnsignedComparisonsOfWidenedIntsGiveJavasAnswers() {
        float[] weights = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
        try (PArray<Float> captured = PArray.of(weights); PArray<Integer> input = inputs()) {
            List<Function<Integer, Integer>> functions = List.of(
                    // (long) x < length: a sign extension against a zero-extended length (narrowed)
                    x -> (long) x < captured.length() ? 1 : 0,
                    x -> (long) x == captured.length() - 1 ? 1 : 0,
                    // a zero extension of an int that may be negative, compared signed: not the ints' order (kept wide)
                    x -> Integer.toUnsignedLong(x) < captured.length() ? 1 : 0,
                    x -> Integer.toUnsignedLong(x) < 3_000_000_000L ? 1 : 0,
                    // a sign extension against a zero extension of an int that may be negative, signed and unsigned (kept wide)
                    x -> (long) x < Integer.toUnsignedLong(x * 31 + 7) ? 1 : 0,
                    x -> Long.compareUnsigned((long) x, Integer.toUnsignedLong(x * 31 + 7)) < 0 ? 1 : 0,
                    // unsigned comparisons of widened ints
                    x -> Long.compareUnsigned(Integer.toUnsignedLong(x), Integer.toUnsignedLong(x ^ 0x8000_0000)) < 0 ? 1 : 0,
                    x -> Long.compareUnsigned((long) x, 8L) < 0 ? 1 : 0,
                    // constants at and beyond the int range
                    x -> (long) x < 2_147_483_647L ? 1 : 0,
                    x -> (long) x < 2_147_483_648L ? 1 : 0,
                    x -> (long) x > -2_147_483_649L ? 1 : 0);
            for (int f = 0; f < functions.size(); f++) {
                assertOnDeviceAsJava(functions.get(f), AF.map(functions.get(f)), input, "widened comparison " + f);
            }
        }
    }

    @Test
    void loopsOverACapturedArraysLengthGiveJavasAnswers() {
        float[] centres = {3f, -1f, 8f, 0.5f, 2f, -7f, 5f};
        try (PArray<Float> captured = PArray.of(centres); PArray<Integer> input = inputs()) {
            Function<Integer, Integer> nearest = x -> {
                int best = -1;
                float distance = Float.POSITIVE_INFINITY;
                for (int c = 0; c < captured.length(); c++) {
                    float d = Math.abs(captured.get(c) - (x >> 24));
                    if (d < distance) {
                        distance = d;
                        best = c;
                    }
                }
                return best;
            };
            assertOnDeviceAsJava(nearest, AF.map(nearest), input, "nearest captured value");
            // a loop from a possibly negative start: the counter's order is the int's
            Function<Integer, Integer> countFrom = x -> {
                int count = 0;
                for (long c = x % 5; c < captured.length(); c++) {
                    count++;
                }
                return count;
            };
            assertOnDeviceAsJava(countFrom, AF.map(countFrom), input, "a loop from a negative start");
        }
    }
}
