package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** The pools' free-list keys: one boxed object per class size, equal to the size, for every size a pool rounds to. */
class SizeClassesTest {

    @Test
    void everyClassSizeHasOneKeyEqualToIt() {
        Random random = new Random(5);
        for (int i = 0; i < 100_000; i++) {
            long bytes = i < 5_000 ? i : random.nextLong(1L << (1 + random.nextInt(61)));
            long capacity = SizeClasses.classOf(bytes);
            Long key = SizeClasses.key(capacity);
            assertEquals(capacity, key.longValue(), "key of class " + capacity);
            assertSame(key, SizeClasses.key(capacity), "class " + capacity + " has one key");
        }
        assertEquals(1L << 62, SizeClasses.key(SizeClasses.classOf((1L << 62) - 1)).longValue());
    }

    @Test
    void otherSizesAreBoxedAsThemselves() {
        for (long size : new long[] {1, 255, 257, 1000, 1L << 62 | 1, Long.MAX_VALUE}) {
            assertEquals(size, SizeClasses.key(size).longValue());
        }
    }
}
