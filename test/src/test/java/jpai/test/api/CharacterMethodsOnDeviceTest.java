package jpai.test.api;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.Executor;
import jpai.PArray;

/**
 * Issue 19 item 9: {@code Character}'s classification, case and digit methods run on the device
 * with Java's results for every {@code char} and for code points of every plane (the JDK's own
 * tables, read-only). Each of these calls the table class that {@code CharacterData.of} picks for
 * the code point, a virtual call on one of several constants, which the compiler turns into a
 * switch over those constants.
 */
class CharacterMethodsOnDeviceTest {

    /** Every char, then code points of every plane and past the last (up to 0x10FFFF + a few, and negatives). */
    private static int[] codePoints() {
        int[] values = new int[65536 + 4096];
        for (int i = 0; i < 65536; i++) {
            values[i] = i;
        }
        java.util.Random random = new java.util.Random(2611);
        for (int i = 65536; i < values.length; i++) {
            values[i] = switch (i % 8) {
                case 0 -> 0x10000 + random.nextInt(0x10000); // plane 1
                case 1 -> 0x20000 + random.nextInt(0x10000); // plane 2
                case 2 -> 0x30000 + random.nextInt(0x10000); // plane 3
                case 3 -> 0xE0000 + random.nextInt(0x10000); // plane 14
                case 4 -> 0xF0000 + random.nextInt(0x20000); // private use, planes 15 and 16
                case 5 -> 0x110000 + random.nextInt(100); // past the last code point
                case 6 -> -1 - random.nextInt(100);
                default -> random.nextInt(0x110000);
            };
        }
        return values;
    }

    private static <R> void assertJavas(String what, Function<Integer, R> f, Class<R> type, List<String> failures) {
        try (PArray<Integer> in = PArray.of(codePoints()); PArray<R> out = ExecutorCase.apply(AF.map(f, type), Executor.ACCELERATOR, in)) {
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(f, in), out, what);
        } catch (RuntimeException | AssertionError e) {
            failures.add(what + ": " + e.getMessage());
        }
    }

    @Test
    void classification() {
        List<String> failures = new ArrayList<>();
        assertJavas("Character.isDigit", c -> Character.isDigit(c), Boolean.class, failures);
        assertJavas("Character.isLetter", c -> Character.isLetter(c), Boolean.class, failures);
        assertJavas("Character.isLetterOrDigit", c -> Character.isLetterOrDigit(c), Boolean.class, failures);
        assertJavas("Character.isWhitespace", c -> Character.isWhitespace(c), Boolean.class, failures);
        assertJavas("Character.isUpperCase", c -> Character.isUpperCase(c), Boolean.class, failures);
        assertJavas("Character.isLowerCase", c -> Character.isLowerCase(c), Boolean.class, failures);
        assertJavas("Character.isAlphabetic", c -> Character.isAlphabetic(c), Boolean.class, failures);
        assertJavas("Character.isSpaceChar", c -> Character.isSpaceChar(c), Boolean.class, failures);
        assertJavas("Character.getType", c -> Character.getType(c), Integer.class, failures);
        assertJavas("Character.isDigit(char)", c -> Character.isDigit((char) c.intValue()), Boolean.class, failures);
        report(failures);
    }

    @Test
    void caseAndDigits() {
        List<String> failures = new ArrayList<>();
        assertJavas("Character.toUpperCase", c -> Character.toUpperCase(c), Integer.class, failures);
        assertJavas("Character.toLowerCase", c -> Character.toLowerCase(c), Integer.class, failures);
        assertJavas("Character.toTitleCase", c -> Character.toTitleCase(c), Integer.class, failures);
        assertJavas("Character.toUpperCase(char)", c -> (int) Character.toUpperCase((char) c.intValue()), Integer.class, failures);
        assertJavas("Character.digit radix 16", c -> Character.digit(c, 16), Integer.class, failures);
        assertJavas("Character.digit radix 36", c -> Character.digit(c, 36), Integer.class, failures);
        assertJavas("Character.getNumericValue", c -> Character.getNumericValue(c), Integer.class, failures);
        report(failures);
    }

    private static void report(List<String> failures) {
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
    }
}
