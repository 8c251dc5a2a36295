package jpai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class PArrayTest {

    @Test
    void bulkCopiesRoundTrip() {
        Random random = new Random(1);
        float[] floats = new float[1000];
        for (int i = 0; i < floats.length; i++) {
            floats[i] = random.nextFloat() * 100 - 50;
        }
        double[] doubles = random.doubles(777).toArray();
        int[] ints = random.ints(555).toArray();
        long[] longs = random.longs(333).toArray();
        try (PArray<Float> f = PArray.of(floats); PArray<Double> d = PArray.of(doubles); PArray<Integer> i = PArray.of(ints); PArray<Long> l = PArray.of(longs)) {
            assertArrayEquals(floats, f.toFloatArray());
            assertArrayEquals(doubles, d.toDoubleArray());
            assertArrayEquals(ints, i.toIntArray());
            assertArrayEquals(longs, l.toLongArray());
            assertEquals(floats[17], f.get(17));
            assertEquals(longs.length * 8L, l.segment().byteSize());
        }
    }

    @Test
    void everyElementTypeStoresWhatItIsGiven() {
        Object[][] samples = {
            {Byte.class, (byte) -7}, {Short.class, (short) -300}, {Character.class, '\uffff'}, {Integer.class, Integer.MIN_VALUE},
            {Long.class, Long.MAX_VALUE}, {Float.class, -0.0f}, {Double.class, Double.NaN}, {Boolean.class, true}};
        for (Object[] sample : samples) {
            @SuppressWarnings("unchecked")
            Class<Object> type = (Class<Object>) sample[0];
            try (PArray<Object> array = PArray.allocate(type, 3)) {
                array.put(2, sample[1]);
                assertEquals(sample[1], array.get(2), type.getSimpleName());
                assertEquals(ElementType.of(type), array.elementType());
            }
        }
    }

    @Test
    void badAccessesAreClearErrors() {
        PArray<Integer> array = PArray.of(1, 2, 3);
        assertThrows(IndexOutOfBoundsException.class, () -> array.get(3));
        assertThrows(IndexOutOfBoundsException.class, () -> array.put(-1, 5));
        assertThrows(NullPointerException.class, () -> array.put(0, null));
        assertThrows(ClassCastException.class, array::toFloatArray);
        array.close();
        array.close(); // idempotent
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> array.get(0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertEquals("PArray<Integer>[3] (closed)", array.toString());
        assertThrows(IllegalArgumentException.class, () -> PArray.allocate(String.class, 4));
        assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Float.class, -1));
    }

    @Test
    void toStringShowsTypeLengthAndFirstElements() {
        try (PArray<Integer> array = PArray.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)) {
            assertEquals("PArray<Integer>[10] {1, 2, 3, 4, 5, 6, 7, 8, ...}", array.toString());
        }
    }
}
