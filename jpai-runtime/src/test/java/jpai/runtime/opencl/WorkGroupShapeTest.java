package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkGroupShapeTest {

    @Test
    void dimensionZeroGetsAWarpFirstAndTheRestGoesOutward() {
        assertArrayEquals(new long[] {32, 8}, WorkGroupShape.localSizes(new long[] {1023, 1025}, 256));
        assertArrayEquals(new long[] {8, 8, 4}, WorkGroupShape.localSizes(new long[] {7, 5, 3}, 256));
        assertArrayEquals(new long[] {32, 2}, WorkGroupShape.localSizes(new long[] {1023, 1025}, 100), "a power of two below the limit");
        assertArrayEquals(new long[] {256}, WorkGroupShape.localSizes(new long[] {100_000}, 256), "1-D: the whole group");
    }

    @Test
    void thinShapesDoNotLaunchMostlyIdleGroups() {
        assertArrayEquals(new long[] {32, 1}, WorkGroupShape.localSizes(new long[] {17, 1}, 256), "one row of 17");
        assertArrayEquals(new long[] {1, 32}, WorkGroupShape.localSizes(new long[] {1, 17}, 256), "one column of 17");
        assertArrayEquals(new long[] {256, 1}, WorkGroupShape.localSizes(new long[] {5000, 1}, 256), "a wide single row takes the whole group along it");
        assertArrayEquals(new long[] {1, 1, 1}, WorkGroupShape.localSizes(new long[] {1, 1, 1}, 256));
    }

    @Test
    void neverMoreThanTheLimit() {
        for (long limit : new long[] {1, 2, 3, 64, 100, 256, 1024, 4096}) {
            for (long[] items : new long[][] {{1}, {1000}, {3, 5}, {1000, 1000}, {2, 3, 4}, {1000, 1000, 1000}}) {
                long product = 1;
                for (long size : WorkGroupShape.localSizes(items, limit)) {
                    assertTrue(Long.bitCount(size) == 1, "a power of two");
                    product *= size;
                }
                assertTrue(product <= limit, product + " <= " + limit);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> WorkGroupShape.localSizes(new long[4], 256));
    }
}
