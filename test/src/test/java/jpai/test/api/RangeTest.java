package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.memory.PArrayStorage;

/**
 * {@code PArray.range(n)}: the indices 0..n-1, which a map on the device does not read from memory
 * (nothing is sent; the work-item's own index is the element), while every other use sees an
 * ordinary array of ints, and a written range becomes one.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class RangeTest {

    /** The two status ints every generated kernel zeroes and reads back. */
    private static final long STATUS_BYTES = 8;
    private static final int SIZE = 100_003;

    @Test
    void aMapOverARangeSendsNothingAndEqualsJava() {
        int columns = 317;
        ArrayFunction<Integer, Float> hilbert = AF.map((Integer i) -> 1.0f / (i / columns + i % columns + 1));
        try (PArray<Integer> indices = PArray.range(SIZE)) {
            assertNotNull(PArrayStorage.rangeExtents(indices));
            for (int run = 0; run < 2; run++) {
                try (PArray<Float> result = ExecutorCase.apply(hilbert, Executor.ACCELERATOR, indices)) {
                    assertEquals(1, AF.lastProfile().kernelCount(), AF.lastProfile().toString());
                    assertTrue(AF.lastProfile().hostToDeviceBytes() <= STATUS_BYTES, "no index buffer was sent: " + AF.lastProfile());
                    float[] expected = new float[SIZE];
                    for (int i = 0; i < SIZE; i++) {
                        expected[i] = 1.0f / (i / columns + i % columns + 1);
                    }
                    assertArrayEquals(expected, result.toFloatArray());
                }
            }
        }
    }

    @Test
    void theHostAndJavaExecutorsSeeTheIndices() {
        try (PArray<Integer> indices = PArray.range(1000)) {
            assertEquals(1000, indices.length());
            assertEquals(0, indices.get(0));
            assertEquals(999, indices.get(999));
            for (Executor executor : new Executor[] {Executor.SEQUENTIAL, Executor.THREADS, Executor.ACCELERATOR}) {
                try (PArray<Integer> sum = ExecutorCase.apply(AF.<Integer> reduce((a, b) -> a + b, 0), executor, indices)) {
                    assertEquals(999 * 1000 / 2, sum.get(0), executor.toString());
                }
            }
        }
    }

    @Test
    void aWrittenRangeIsAnOrdinaryArrayAndIsSent() {
        try (PArray<Integer> indices = PArray.range(SIZE)) {
            try (PArray<Integer> doubled = ExecutorCase.apply(AF.map((Integer i) -> 2 * i), Executor.ACCELERATOR, indices)) {
                assertEquals(2 * 77, doubled.get(77));
            }
            indices.put(77, -5);
            assertNull(PArrayStorage.rangeExtents(indices));
            try (PArray<Integer> doubled = ExecutorCase.apply(AF.map((Integer i) -> 2 * i), Executor.ACCELERATOR, indices)) {
                assertTrue(AF.lastProfile().hostToDeviceBytes() >= SIZE * 4L, "the written array went to the device: " + AF.lastProfile());
                assertEquals(-10, doubled.get(77));
                assertEquals(2 * 78, doubled.get(78));
            }
        }
    }

    @Test
    void aRangeZippedWithDataIsReadLikeAnyComponent() {
        float[] values = new float[SIZE];
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < SIZE; i++) {
            values[i] = random.nextFloat() * 100 - 50;
        }
        try (PArray<Integer> indices = PArray.range(SIZE); PArray<Float> data = PArray.of(values)) {
            PArray<Tuple2<Integer, Float>> pairs = PArray.zip(indices, data);
            try (PArray<Float> result = ExecutorCase.apply(AF.<Integer, Float> zip2().map(t -> t._1() * t._2()), Executor.ACCELERATOR, pairs)) {
                for (int i = 0; i < SIZE; i += 997) {
                    assertEquals(i * values[i], result.get(i), "element " + i);
                }
            }
        }
    }

    @Test
    void aNegativeLengthIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PArray.range(-1));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }
}
