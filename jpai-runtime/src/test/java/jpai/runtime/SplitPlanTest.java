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

    /** The first part runs on the calling thread, the others each on a thread of its own; results in the parts' order. */
    @Test
    void runAllGivesThePartsResultsInOrderAndRunsTheFirstOnTheCallingThread() {
        Thread caller = Thread.currentThread();
        java.util.List<java.util.concurrent.Callable<String>> parts = java.util.List.of(() -> Thread.currentThread() == caller ? "first here" : "first elsewhere",
                        () -> Thread.currentThread() == caller ? "second here" : "second elsewhere", () -> "third");
        SplitPlan.Parts<String> outcome = SplitPlan.runAll(parts);
        assertEquals(java.util.List.of("first here", "second elsewhere", "third"), outcome.done());
        assertEquals(null, outcome.failed());
    }

    /**
     * A part that throws does not end the wait early: the caller's leases must outlive every part,
     * so runAll returns (here: rethrows) only after the slow part has finished. A driver failure is
     * collected, not thrown: the apply then runs in Java.
     */
    @Test
    void runAllWaitsForEveryPartWhateverOneThrows() {
        java.util.concurrent.atomic.AtomicBoolean slowFinished = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.List<java.util.concurrent.Callable<String>> parts = java.util.List.of(() -> {
            throw new IllegalStateException("the first part failed");
        }, () -> {
            Thread.sleep(300);
            slowFinished.set(true);
            return "slow";
        });
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> SplitPlan.runAll(parts));
        assertEquals("the first part failed", e.getMessage());
        org.junit.jupiter.api.Assertions.assertTrue(slowFinished.get(), "rethrown only after the other part ended");

        jpai.runtime.opencl.OpenCLRuntimeException driver = new jpai.runtime.opencl.OpenCLRuntimeException("a driver error");
        SplitPlan.Parts<String> outcome = SplitPlan.runAll(java.util.List.of(() -> "fine", () -> {
            throw driver;
        }));
        assertEquals(java.util.List.of("fine"), outcome.done());
        org.junit.jupiter.api.Assertions.assertSame(driver, outcome.failed());
    }
}
