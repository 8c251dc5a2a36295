package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple2;

/** Bad input gets a clear exception before any work starts. */
class BadInputTest {

    /** A function that counts its calls: no work may start before the input is checked. */
    private static final class Counting implements Function<Float, Float> {
        int calls;

        @Override
        public Float apply(Float x) {
            calls++;
            return x;
        }
    }

    @Test
    void nullInput() {
        Counting counting = new Counting();
        NullPointerException e = assertThrows(NullPointerException.class, () -> AF.map(counting).apply(null));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
        assertThrows(NullPointerException.class, () -> AF.reduce((Float a, Float b) -> a + b, 0f).apply(null));
        assertThrows(NullPointerException.class, () -> AF.map(counting).andThen(AF.map(counting)).apply(null));
        assertEquals(0, counting.calls);
        assertThrows(NullPointerException.class, () -> AF.map(null));
        assertThrows(NullPointerException.class, () -> AF.reduce((Float a, Float b) -> a + b, null));
    }

    @Test
    void zipOfDifferentLengths() {
        try (PArray<Float> a = PArray.of(1f, 2f, 3f); PArray<Float> b = PArray.of(1f, 2f)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PArray.zip(a, b));
            assertTrue(e.getMessage().contains("same length"), e.getMessage());
        }
    }

    @Test
    void zipOfTheWrongArity() {
        try (PArray<Float> a = PArray.of(1f, 2f)) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            ArrayFunction<Object, Object> zip2 = (ArrayFunction) AF.zip2();
            @SuppressWarnings({"unchecked", "rawtypes"})
            PArray<Object> notTuples = (PArray) a;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> zip2.apply(notTuples));
            assertTrue(e.getMessage().contains("Tuple2"), e.getMessage());
        }
    }

    @Test
    void reduceIdentityOfAnotherType() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        ArrayFunction<Float, Float> sumOfDoubles = (ArrayFunction) AF.reduce((Double a, Double b) -> a + b, 0.0);
        try (PArray<Float> floats = PArray.of(1f, 2f)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sumOfDoubles.apply(floats));
            assertTrue(e.getMessage().contains("Double") && e.getMessage().contains("Float"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> AF.reduce((String a, String b) -> a + b, ""));
    }

    @Test
    void closedInput() {
        Counting counting = new Counting();
        PArray<Float> closed = PArray.of(1f, 2f);
        closed.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> AF.map(counting).apply(closed));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> AF.reduce((Float a, Float b) -> a + b, 0f).apply(closed));
        assertEquals(0, counting.calls);
    }

    @Test
    void closingTheSourcesClosesAZipView() {
        PArray<Float> a = PArray.of(1f, 2f);
        PArray<Integer> b = PArray.of(3, 4);
        PArray<Tuple2<Float, Integer>> zipped = PArray.zip(a, b);
        assertEquals(new Tuple2<>(2f, 4), zipped.get(1));
        zipped.close(); // a view: the sources stay usable
        assertEquals(2f, a.get(1));
        a.close();
        b.close();
        assertThrows(IllegalStateException.class, () -> PArray.zip(a, b));
    }

    @Test
    void outOfRangeAccesses() {
        try (PArray<Tuple2<Float, Integer>> pairs = PArray.allocateTuples(3, Float.class, Integer.class)) {
            assertThrows(IndexOutOfBoundsException.class, () -> pairs.get(3));
            assertThrows(IndexOutOfBoundsException.class, () -> pairs.put(-1, new Tuple2<>(1f, 1)));
            assertThrows(IndexOutOfBoundsException.class, () -> pairs.component(2));
            pairs.put(2, new Tuple2<>(1.5f, 7));
            assertEquals(new Tuple2<>(1.5f, 7), pairs.get(2));
        }
    }

    @Test
    void emptyInputNeedsAnOutputType() {
        try (PArray<Float> empty = PArray.allocate(Float.class, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AF.map((Float x) -> x + 1).apply(empty));
            assertTrue(e.getMessage().contains("AF.map(f, Float.class)"), e.getMessage());
            try (PArray<Float> out = AF.map((Float x) -> x + 1, Float.class).apply(empty)) {
                assertEquals(0, out.length());
            }
        }
    }

    /**
     * Issue 19: {@code PArray.allocate(Float.class, (1L << 62) + 1)} was accepted (its byte size
     * overflowed to 4) and the first apply then aborted the JVM. Lengths whose byte size does not fit
     * a long are refused; lengths that fit but that no memory can hold fail with a Java exception.
     */
    @Test
    void lengthsWhoseByteSizeOverflowsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Float.class, (1L << 62) + 1));
        assertTrue(e.getMessage().contains("Long.MAX_VALUE bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Double.class, Long.MAX_VALUE / 4));
        assertThrows(IllegalArgumentException.class, () -> PArray.allocateTuples(Long.MAX_VALUE / 2, Byte.class, Long.class));
        Throwable tooLarge = assertThrows(Throwable.class, () -> PArray.allocate(Byte.class, Long.MAX_VALUE / 2));
        assertTrue(tooLarge instanceof OutOfMemoryError || tooLarge instanceof IllegalArgumentException || tooLarge instanceof IllegalStateException, tooLarge.toString());
    }

    /** Issue 19: {@code PArray.of((float[]) null)} threw a NullPointerException with no message. */
    @Test
    void nullArraysGetAMessage() {
        for (Runnable call : new Runnable[] {() -> PArray.of((float[]) null), () -> PArray.of((int[]) null), () -> PArray.of((boolean[]) null), () -> PArray.of((char[]) null),
                        () -> PArray.of((double[]) null), () -> PArray.of((long[]) null), () -> PArray.of((short[]) null), () -> PArray.of((byte[]) null)}) {
            NullPointerException e = assertThrows(NullPointerException.class, call::run);
            assertTrue(e.getMessage() != null && e.getMessage().startsWith("PArray.of: the "), String.valueOf(e.getMessage()));
        }
    }
}
