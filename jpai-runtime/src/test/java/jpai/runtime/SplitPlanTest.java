package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A split map's parts: whole rows, every row once, by shares that follow the parts' measured times. */
class SplitPlanTest {

    @Test
    void boundsFollowTheShares() {
        assertArrayEquals(new long[] {0, 500, 1000}, SplitPlan.boundsOf(1000, new double[] {0.5, 0.5}));
        assertArrayEquals(new long[] {0, 333, 667, 1000}, SplitPlan.boundsOf(1000, new double[] {1, 1, 1}));
        assertArrayEquals(new long[] {0, 800, 1000}, SplitPlan.boundsOf(1000, new double[] {0.8, 0.2}));
        assertArrayEquals(new long[] {0, 1, 1}, SplitPlan.boundsOf(1, new double[] {0.5, 0.5}));
        assertArrayEquals(new long[] {0, 0, 0}, SplitPlan.boundsOf(0, new double[] {0.5, 0.5}));
    }

    /** Parts whose time is proportional to their rows: the shares converge to the devices' speeds (here 4:1). */
    @Test
    void sharesConvergeToTheSpeedsWhereTimeFollowsRows() {
        double[] shares = {0.5, 0.5};
        double[] nanosPerRow = {1, 4};
        for (int apply = 0; apply < 30; apply++) {
            shares = SplitPlan.rebalanced(shares, new double[] {shares[0] * nanosPerRow[0], shares[1] * nanosPerRow[1]});
        }
        assertEquals(0.8, shares[0], 1e-3);
        assertEquals(0.2, shares[1], 1e-3);
    }

    /** Parts that take the same time whatever their rows (a kernel too small to fill a device): the split stays. */
    @Test
    void sharesStayWhereTimeDoesNotFollowRows() {
        double[] shares = {0.6, 0.4};
        for (int apply = 0; apply < 30; apply++) {
            shares = SplitPlan.rebalanced(shares, new double[] {1_000_000, 1_000_000});
        }
        assertArrayEquals(new double[] {0.6, 0.4}, shares, 1e-12);
    }

    @Test
    void aPartWithNoRowsKeepsItsShareAndNoShareFallsBelowTheFloor() {
        assertArrayEquals(new double[] {0.5, 0.5}, SplitPlan.rebalanced(new double[] {0.5, 0.5}, new double[] {5, 0}), 1e-12);
        double[] shares = {0.5, 0.5};
        for (int apply = 0; apply < 60; apply++) {
            shares = SplitPlan.rebalanced(shares, new double[] {1, 1e9});
        }
        assertEquals(SplitPlan.SMALLEST_SHARE, shares[1], 1e-3);
    }
}
