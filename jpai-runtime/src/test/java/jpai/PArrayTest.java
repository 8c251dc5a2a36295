package jpai;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

import jpai.runtime.memory.PArrayStorage;

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

    /** {@code get}'s short path for scalar arrays keeps every check: a closed view, a view of a closed array, an index out of range. */
    @Test
    void elementReadsOfViewsAreCheckedToo() {
        PArray<Float> source = PArray.of(1f, 2f, 3f);
        PArray<Float> view = source.view();
        PArray<?> component = source.component(0);
        assertEquals(2f, view.get(1));
        assertEquals(3f, component.get(2));
        view.close();
        assertThrows(IllegalStateException.class, () -> view.get(1));
        assertEquals(2f, source.get(1), "closing a view releases nothing");
        assertThrows(IndexOutOfBoundsException.class, () -> component.get(3));
        assertThrows(IndexOutOfBoundsException.class, () -> component.get(-1));
        source.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> component.get(0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalStateException.class, () -> source.get(5), "a closed array says so before it checks the index");
    }

    @Test
    void toStringShowsTypeLengthAndFirstElements() {
        try (PArray<Integer> array = PArray.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)) {
            assertEquals("PArray<Integer>[10] {1, 2, 3, 4, 5, 6, 7, 8, ...}", array.toString());
        }
    }

    @Test
    void tuplesAreStoredOneArrayPerComponent() {
        try (PArray<Tuple3<Integer, Float, Boolean>> triples = PArray.allocateTuples(4, Integer.class, Float.class, Boolean.class)) {
            triples.put(1, new Tuple3<>(7, 2.5f, true));
            assertEquals(new Tuple3<>(7, 2.5f, true), triples.get(1));
            assertEquals(new Tuple3<>(0, 0f, false), triples.get(0));
            assertEquals(3, triples.componentCount());
            assertEquals(TupleType.of(Integer.class, Float.class, Boolean.class), triples.type());
            assertEquals(4 * 4L, PArrayStorage.buffer(triples, 1).byteSize());
            try (PArray<?> floats = triples.component(1)) {
                assertEquals(2.5f, floats.get(1));
                assertTrue(floats.isView());
            }
            assertThrows(ClassCastException.class, () -> triples.put(0, cast(new Tuple3<>(1, 2.0, true))));
            assertThrows(IllegalStateException.class, triples::elementType);
            assertEquals("PArray<Tuple3<Integer, Float, Boolean>>[4] {(0, 0.0, false), (7, 2.5, true), (0, 0.0, false), (0, 0.0, false)}", triples.toString());
        }
    }

    @Test
    void zipSharesStorageWithoutCopying() {
        try (PArray<Float> x = PArray.of(1f, 2f, 3f); PArray<Long> y = PArray.of(4L, 5L, 6L); PArray<Tuple2<Float, Long>> xy = PArray.zip(x, y)) {
            x.put(0, 10f);
            assertEquals(new Tuple2<>(10f, 4L), xy.get(0));
            xy.put(2, new Tuple2<>(-1f, -2L));
            assertEquals(-1f, x.get(2));
            assertEquals(-2L, y.get(2));
        }
    }

    @Test
    void bulkCopiesOfEveryTypeAndRange() {
        byte[] bytes = {1, -2, 3};
        short[] shorts = {-4, 5};
        char[] chars = {'a', '\uffff'};
        boolean[] booleans = {true, false, true};
        try (PArray<Byte> b = PArray.of(bytes); PArray<Short> s = PArray.of(shorts); PArray<Character> c = PArray.of(chars); PArray<Boolean> z = PArray.of(booleans)) {
            assertArrayEquals(bytes, b.toByteArray());
            assertArrayEquals(shorts, s.toShortArray());
            assertArrayEquals(chars, c.toCharArray());
            assertArrayEquals(booleans, z.toBooleanArray());
        }
        try (PArray<Integer> ints = PArray.allocate(Integer.class, 10)) {
            ints.copyFrom(new int[] {7, 8, 9}, 6);
            int[] window = new int[4];
            ints.copyTo(5, window);
            assertArrayEquals(new int[] {0, 7, 8, 9}, window);
            assertThrows(IndexOutOfBoundsException.class, () -> ints.copyFrom(new int[] {1, 2}, 9));
            assertThrows(IllegalArgumentException.class, () -> ints.copyFrom(new float[] {1f}, 0));
            try (PArray<Integer> copy = PArray.copyOf(Integer.class, ints.segment())) {
                assertArrayEquals(ints.toIntArray(), copy.toIntArray());
            }
        }
    }

    @Test
    void lengthsBeyondTwoToTheThirtyOne() {
        long length = (1L << 31) + 5;
        try (PArray<Byte> huge = PArray.allocate(Byte.class, length)) {
            huge.put(length - 1, (byte) 42);
            assertEquals((byte) 42, huge.get(length - 1));
            huge.copyFrom(new byte[] {1, 2, 3}, (1L << 31) - 1);
            byte[] back = new byte[3];
            huge.copyTo((1L << 31) - 1, back);
            assertArrayEquals(new byte[] {1, 2, 3}, back);
            assertThrows(IllegalStateException.class, huge::toByteArray);
        }
    }

    @Test
    void theCleanerReleasesUnreachableArrays() throws InterruptedException {
        jpai.runtime.memory.HostMemory previous = jpai.runtime.memory.HostMemory.current();
        jpai.runtime.memory.HostMemory.install(jpai.runtime.memory.PlainHostMemory.INSTANCE);
        long before = jpai.runtime.memory.PlainHostMemory.liveAllocations();
        try {
            for (int i = 0; i < 100; i++) {
                PArray.allocate(Double.class, 1000); // never closed
            }
            assertTrue(jpai.runtime.memory.PlainHostMemory.liveAllocations() >= before + 100);
        } finally {
            jpai.runtime.memory.HostMemory.install(previous);
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (jpai.runtime.memory.PlainHostMemory.liveAllocations() > before && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertTrue(jpai.runtime.memory.PlainHostMemory.liveAllocations() <= before, "the cleaner released the unreachable arrays");
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }
}
