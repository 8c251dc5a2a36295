package jpai.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

import jpai.ElementType;
import jpai.PArray;
import jpai.Tuple2;
import jpai.TupleType;

/**
 * {@link StoredValues#asStored}: a value as an array of its type gives it back, the same boxes as
 * reading the stored element (the JVM's cache included), and a throw for what the array could not
 * hold, so that maps fused in Java pass values on as unfused maps' arrays would.
 */
class StoredValuesTest {

    @Test
    void boxesAreTheOnesAStoredElementReadsBackAs() {
        Integer big = 100_000; // outside Integer's cache: reading it back from an array makes a new box
        Object stored = StoredValues.asStored(big, ElementType.INT);
        assertEquals(big, stored);
        assertNotSame(big, stored);
        try (PArray<Integer> array = PArray.of(100_000, 7)) {
            assertNotSame(array.get(0), array.get(0), "as an array gives it back: a new box each time");
            assertSame(array.get(1), StoredValues.asStored(7, ElementType.INT), "the JVM's cached box, as the array gives it");
        }
        assertSame(Boolean.TRUE, StoredValues.asStored(Boolean.TRUE, ElementType.BOOLEAN));
        assertEquals(-0.0f, (Float) StoredValues.asStored(-0.0f, ElementType.FLOAT), 0f);
        assertEquals(Float.floatToRawIntBits(Float.intBitsToFloat(0x7fc00001)), Float.floatToRawIntBits((Float) StoredValues.asStored(Float.intBitsToFloat(0x7fc00001), ElementType.FLOAT)),
                        "a NaN's bits kept");
    }

    @Test
    void tuplesAreNewTuplesOfStoredComponents() {
        Tuple2<Integer, Float> tuple = new Tuple2<>(1_000_000, 2.5f);
        Object stored = StoredValues.asStored(tuple, TupleType.of(Integer.class, Float.class));
        assertEquals(tuple, stored);
        assertNotSame(tuple, stored);
    }

    @Test
    void whatAnArrayCouldNotHoldThrows() {
        assertThrows(NullPointerException.class, () -> StoredValues.asStored(null, ElementType.INT));
        assertThrows(ClassCastException.class, () -> StoredValues.asStored(1L, ElementType.INT));
        assertThrows(ClassCastException.class, () -> StoredValues.asStored(new Tuple2<>(1, 2), ElementType.INT));
        assertThrows(ClassCastException.class, () -> StoredValues.asStored(new Tuple2<>(1, 2f), TupleType.of(Integer.class, Integer.class)));
    }
}
