package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** A split map's parts: in proportion to the devices' measured speeds, whole rows, every row once. */
class SplitMapBoundsTest {

    @Test
    void equalBeforeAnyMeasure() {
        assertArrayEquals(new long[] {0, 500, 1000}, SplitMap.proportionalBounds(1000, new double[2]));
        assertArrayEquals(new long[] {0, 333, 667, 1000}, SplitMap.proportionalBounds(1000, new double[3]));
    }

    @Test
    void inProportionToSpeed() {
        // the second device takes four times as long per element: a fifth of the rows
        assertArrayEquals(new long[] {0, 800, 1000}, SplitMap.proportionalBounds(1000, new double[] {1, 4}));
        assertArrayEquals(new long[] {0, 250, 500, 750, 1000}, SplitMap.proportionalBounds(1000, new double[] {2, 2, 2, 2}));
    }

    @Test
    void anUnmeasuredDeviceCountsAsTheMeanOfTheOthers() {
        assertArrayEquals(new long[] {0, 500, 1000}, SplitMap.proportionalBounds(1000, new double[] {3, 0}));
    }

    @Test
    void fewerRowsThanDevicesLeaveSomePartsEmpty() {
        assertArrayEquals(new long[] {0, 1, 1}, SplitMap.proportionalBounds(1, new double[2]));
        assertArrayEquals(new long[] {0, 0, 0}, SplitMap.proportionalBounds(0, new double[2]));
    }
}
