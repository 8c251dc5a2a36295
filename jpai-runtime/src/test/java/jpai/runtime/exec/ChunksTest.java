package jpai.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicIntegerArray;

import org.junit.jupiter.api.Test;

class ChunksTest {

    @Test
    void everyIndexIsRunExactlyOnce() {
        for (int length : new int[] {0, 1, 4095, 4096, 4097, 100_003}) {
            AtomicIntegerArray runs = new AtomicIntegerArray(Math.max(1, length));
            Chunks.forEach(length, (from, to) -> {
                assertEquals(0, from % Chunks.chunkSize(length), "chunks start at multiples of the chunk size");
                for (long i = from; i < to; i++) {
                    runs.incrementAndGet((int) i);
                }
            });
            for (int i = 0; i < length; i++) {
                assertEquals(1, runs.get(i), "index " + i + " of " + length);
            }
        }
    }

    @Test
    void theFirstFailedChunksExceptionIsThrownAsItIsWhicheverFailsFirstInTime() {
        long length = 40 * 4096;
        long chunk = Chunks.chunkSize(length);
        IllegalStateException first = new IllegalStateException("chunk 1");
        Throwable thrown = assertThrows(Throwable.class, () -> Chunks.forEach(length, (from, to) -> {
            long c = from / chunk;
            if (c == 1) {
                sleep(50); // fails last in time
                throw first;
            }
            if (c >= 2) {
                throw new AssertionError("chunk " + c);
            }
        }));
        assertSame(first, thrown);
    }

    @Test
    void checkedExceptionsGoThroughUnwrapped() {
        Exception checked = new java.io.IOException("thrown sneakily by a lambda");
        Throwable thrown = assertThrows(Throwable.class, () -> Chunks.forEach(3 * 4096, (from, to) -> {
            if (from > 0) {
                throw ChunksTest.<RuntimeException>sneaky(checked);
            }
        }));
        assertSame(checked, thrown);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable e) throws E {
        throw (E) e;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
