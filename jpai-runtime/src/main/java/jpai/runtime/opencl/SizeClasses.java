package jpai.runtime.opencl;

/**
 * The sizes pooled memory is allocated in: four classes per power of two (so a block wastes at most
 * a quarter of what it holds), at least {@link #MIN_BYTES}. Rounding lets a block freed by one array
 * serve the next array of a similar, not only the same, size.
 *
 * <p>Stateless and thread-safe.
 */
final class SizeClasses {

    /** The smallest block: small arguments (status words, short captured arrays) share one class. */
    static final long MIN_BYTES = 256;

    /**
     * Every class size boxed once, by {@link #indexOf}: the pools key their free lists by class, and
     * a {@code Long} made per lookup would be garbage on every apply.
     */
    private static final Long[] KEYS = new Long[1 + 4 * (61 - 8 + 1)];

    static {
        KEYS[0] = MIN_BYTES;
        for (int octave = 8; octave <= 61; octave++) {
            for (int quarter = 1; quarter <= 4; quarter++) {
                long size = (1L << octave) + quarter * (1L << (octave - 2));
                KEYS[indexOf(size)] = size;
            }
        }
    }

    private SizeClasses() {
    }

    /** {@code capacity} boxed, the same object each time for a class size (any other size is boxed anew). */
    static Long key(long capacity) {
        int index = indexOf(capacity);
        return index >= 0 ? KEYS[index] : Long.valueOf(capacity);
    }

    /** The index of class size {@code capacity} in {@link #KEYS}, or -1 if it is no class size. */
    private static int indexOf(long capacity) {
        if (capacity == MIN_BYTES) {
            return 0;
        }
        if (capacity <= MIN_BYTES || capacity > 1L << 62) {
            return -1;
        }
        int octave = 63 - Long.numberOfLeadingZeros(capacity - 1);
        long step = 1L << (octave - 2);
        if (capacity % step != 0) {
            return -1;
        }
        int quarter = (int) (capacity / step) - 4; // 1 to 4: the class is 2^octave plus that many quarters
        return 1 + 4 * (octave - 8) + quarter - 1;
    }

    /** The size of the class that holds {@code bytes}: {@code bytes} rounded up to the class boundary. */
    static long classOf(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
        if (bytes <= MIN_BYTES) {
            return MIN_BYTES;
        }
        int octave = 63 - Long.numberOfLeadingZeros(bytes - 1);
        long step = 1L << (octave - 2);
        return (bytes + step - 1) / step * step;
    }
}
