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

    private SizeClasses() {
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
