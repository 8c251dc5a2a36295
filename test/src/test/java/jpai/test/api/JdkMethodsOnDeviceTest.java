package jpai.test.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;

/**
 * Issue 19 item 9: JDK methods users call in element functions run on the device with Java's
 * results, on random and edge inputs: {@code Math.multiplyHigh}/{@code unsignedMultiplyHigh},
 * {@code Integer}/{@code Long.compress}/{@code expand}, the float16 conversions (NaN bits as this
 * JVM makes them) and boxed {@code equals}/{@code compareTo}. ({@code Character}'s methods:
 * {@code CharacterMethodsOnDeviceTest}.)
 */
class JdkMethodsOnDeviceTest {

    private static long[] longs() {
        Random random = new Random(1119);
        long[] values = new long[1500];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(200) - 100;
                case 2 -> random.nextInt();
                default -> Long.rotateLeft(random.nextLong() & 0xFFFF, random.nextInt(64));
            };
        }
        long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE, 0xFFFF, 0x10000, 'a', 'Z', '0', 0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001};
        System.arraycopy(edges, 0, values, 0, edges.length);
        return values;
    }

    private static <R> void assertJavas(String what, Function<Long, R> f, Class<R> type, List<String> failures) {
        try (PArray<Long> in = PArray.of(longs()); PArray<R> out = ExecutorCase.apply(AF.map(f, type), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, what);
        } catch (RuntimeException | AssertionError e) {
            failures.add(what + ": " + e.getMessage());
        }
    }

    @Test
    void multiplyHigh() {
        List<String> failures = new ArrayList<>();
        assertJavas("Math.multiplyHigh", x -> Math.multiplyHigh(x, x * 31 + 7), Long.class, failures);
        assertJavas("Math.unsignedMultiplyHigh", x -> Math.unsignedMultiplyHigh(x, ~x), Long.class, failures);
        report(failures);
    }

    @Test
    void compressAndExpand() {
        List<String> failures = new ArrayList<>();
        assertJavas("Long.compress", x -> Long.compress(x, x * 0x9E3779B97F4A7C15L), Long.class, failures);
        assertJavas("Long.expand", x -> Long.expand(x, ~x ^ 0x0F0F0F0F0F0F0F0FL), Long.class, failures);
        assertJavas("Integer.compress", x -> Integer.compress((int) x.longValue(), (int) (x >>> 32)), Integer.class, failures);
        assertJavas("Integer.expand", x -> Integer.expand((int) x.longValue(), (int) (x >>> 29)), Integer.class, failures);
        report(failures);
    }

    @Test
    void float16Conversions() {
        List<String> failures = new ArrayList<>();
        assertJavas("Float.float16ToFloat", x -> Float.float16ToFloat((short) x.longValue()), Float.class, failures);
        // a NaN's bits as the JVM makes them (a float's equals would hide them)
        assertJavas("Float.float16ToFloat, raw bits", x -> Float.floatToRawIntBits(Float.float16ToFloat((short) x.longValue())), Integer.class, failures);
        assertJavas("Float.floatToFloat16", x -> Float.floatToFloat16(Float.intBitsToFloat((int) x.longValue())), Short.class, failures);
        assertJavas("float16 round trip", x -> Float.floatToFloat16(Float.float16ToFloat((short) x.longValue())), Short.class, failures);
        report(failures);
    }

    /**
     * Every binary16 value converted to float (raw bits), and for every one of them the floats at,
     * just around and halfway to the next: each rounding case of the conversion back, ties included.
     */
    @Test
    void float16ConversionsExhaustively() {
        int[] halves = new int[65536];
        for (int i = 0; i < halves.length; i++) {
            halves[i] = i;
        }
        Function<Integer, Integer> toFloatBits = h -> Float.floatToRawIntBits(Float.float16ToFloat((short) h.intValue()));
        try (PArray<Integer> in = PArray.of(halves); PArray<Integer> out = ExecutorCase.apply(AF.map(toFloatBits, Integer.class), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(toFloatBits, in), out, "float16ToFloat of every half");
        }
        float[] floats = new float[65536 * 4];
        for (int i = 0; i < 65536; i++) {
            float f = Float.float16ToFloat((short) i);
            float next = Float.float16ToFloat((short) (i + 1));
            floats[4 * i] = f;
            floats[4 * i + 1] = Math.nextUp(f);
            floats[4 * i + 2] = Math.nextDown(f);
            floats[4 * i + 3] = (f + next) / 2; // the tie, exact in float where both are finite
        }
        Function<Float, Short> toHalf = f -> Float.floatToFloat16(f);
        try (PArray<Float> in = PArray.of(floats); PArray<Short> out = ExecutorCase.apply(AF.map(toHalf, Short.class), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(toHalf, in), out, "floatToFloat16 around every half");
        }
    }

    @Test
    void boxedEqualsAndCompareTo() {
        List<String> failures = new ArrayList<>();
        assertJavas("Long.equals", x -> Long.valueOf(x).equals(x * 3 / 3), Boolean.class, failures);
        assertJavas("Double.equals/compareTo", x -> Double.valueOf(x * 0.5).compareTo((double) (x >> 1)) + (Double.valueOf(Double.NaN).equals(Double.NaN) ? 10 : 0), Integer.class, failures);
        assertJavas("Integer.compareTo", x -> Integer.valueOf((int) x.longValue()).compareTo((int) (x >>> 32)), Integer.class, failures);
        assertJavas("Float.equals -0", x -> Float.valueOf(-0f * x).equals((float) (0 * x)), Boolean.class, failures);
        report(failures);
    }

    private static void report(List<String> failures) {
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
    }
}
