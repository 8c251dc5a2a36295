package jpai.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

/** {@link ClaimedChunks}: every element once, by Java or by the takeover, and the sequential loop's failure. */
class ClaimedChunksTest {

    /** A takeover that wants the rest after {@code afterCalls} questions and runs it up to {@code ranUpTo} (or all, when negative). */
    private static final class CountingTakeover implements ClaimedChunks.Takeover {
        final int afterCalls;
        final long ranUpTo;
        final AtomicIntegerArray runs;
        int calls;
        long first = -1;

        CountingTakeover(int afterCalls, long ranUpTo, AtomicIntegerArray runs) {
            this.afterCalls = afterCalls;
            this.ranUpTo = ranUpTo;
            this.runs = runs;
        }

        @Override
        public boolean wants(long elapsedNanos, long claimed, long length) {
            return ++calls > afterCalls;
        }

        @Override
        public long run(long from, long length) {
            first = from;
            long to = ranUpTo < 0 ? length : Math.max(from, Math.min(length, ranUpTo));
            for (long i = from; i < to; i++) {
                runs.incrementAndGet((int) i);
            }
            return to;
        }
    }

    @Test
    void everyElementRunsOnceWhereverTheTakeoverBegins() {
        int length = 300_000;
        for (int afterCalls : new int[] {0, 1, Integer.MAX_VALUE}) {
            AtomicIntegerArray runs = new AtomicIntegerArray(length);
            CountingTakeover takeover = new CountingTakeover(afterCalls, -1, runs);
            ClaimedChunks.Outcome outcome = ClaimedChunks.forEach(length, 1, (from, to) -> {
                for (long i = from; i < to; i++) {
                    runs.incrementAndGet((int) i);
                    spin(); // a few hundred nanoseconds: many chunks, so the caller asks more than once
                }
            }, takeover);
            for (int i = 0; i < length; i++) {
                assertEquals(1, runs.get(i), "element " + i + ", takeover after " + afterCalls + " questions");
            }
            assertEquals(afterCalls != Integer.MAX_VALUE, outcome.tookOver(), "took over: " + outcome);
            if (outcome.tookOver()) {
                assertEquals(takeover.first, outcome.takenOverFrom());
            }
        }
    }

    @Test
    void aTakeoverStartsAtAMultipleOfTheGranule() {
        int length = 1000 * 997;
        AtomicIntegerArray runs = new AtomicIntegerArray(length);
        CountingTakeover takeover = new CountingTakeover(2, -1, runs);
        ClaimedChunks.forEach(length, 997, (from, to) -> {
            assertEquals(0, from % 997, "chunks start at a row");
            for (long i = from; i < to; i++) {
                runs.incrementAndGet((int) i);
            }
        }, takeover);
        assertTrue(takeover.first >= 0 && takeover.first % 997 == 0, "the takeover begins at a row: " + takeover.first);
    }

    /** Chunks are sized by time: 64 elements of a millisecond each spread over the pool's threads. */
    @Test
    void fewExpensiveElementsSpreadOverThreads() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() > 0, "a pool with workers");
        java.util.Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        ClaimedChunks.forEach(128, 1, (from, to) -> {
            for (long i = from; i < to; i++) {
                threads.add(Thread.currentThread());
                sleep(1);
            }
        }, ClaimedChunks.Takeover.NONE);
        assertTrue(threads.size() > 1, "more threads than the caller: " + threads);
    }

    /** What the takeover left (a kernel exit's element) runs in Java after it. */
    @Test
    void elementsTheTakeoverLeftRunInJava() {
        int length = 300_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(length);
        CountingTakeover takeover = new CountingTakeover(0, 200_000, runs);
        ClaimedChunks.Outcome outcome = ClaimedChunks.forEach(length, 1, (from, to) -> {
            for (long i = from; i < to; i++) {
                runs.incrementAndGet((int) i);
                spin(); // slow enough that the workers cannot claim every element before the caller's first question
            }
        }, takeover);
        for (int i = 0; i < length; i++) {
            assertEquals(1, runs.get(i), "element " + i);
        }
        assertEquals(200_000, outcome.takeoverRanUpTo());
    }

    /** A failure of Java's part wins, and is the lowest failing element's, whichever fails first in time. */
    @Test
    void theFirstFailingElementsExceptionIsThrown() {
        int length = 300_000;
        IllegalStateException low = new IllegalStateException("element 2000");
        AtomicIntegerArray runs = new AtomicIntegerArray(length);
        CountingTakeover takeover = new CountingTakeover(Integer.MAX_VALUE, -1, runs);
        Throwable thrown = assertThrows(Throwable.class, () -> ClaimedChunks.forEach(length, 1, (from, to) -> {
            for (long i = from; i < to; i++) {
                if (i == 2000) {
                    sleep(30); // fails last in time
                    throw low;
                }
                if (i == 250_000) {
                    throw new IllegalArgumentException("element 250000");
                }
            }
        }, takeover));
        assertSame(low, thrown);
        assertFalse(takeover.first >= 0, "no takeover was asked for");
    }

    private static volatile double sink;

    private static void spin() {
        double s = 1;
        for (int k = 0; k < 100; k++) {
            s = s * 1.0000001 + 1e-9;
        }
        sink = s;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
