package jpai.runtime.opencl;

/**
 * Work-group sizes for an NDRange of 1 to 3 dimensions: powers of two whose product is at most the
 * group size asked for. Dimension 0 (along which consecutive work-items lie, and which a map over
 * an index space runs along consecutive elements) gets up to 32 first, a warp's width, so that a
 * warp's stores are contiguous; the further dimensions get what remains, and whatever a short
 * dimension leaves goes back to dimension 0. No dimension gets more than its work-item count
 * rounded up to a power of two, so a thin range (1 x 17) does not launch groups of mostly idle
 * work-items. The launcher may still halve them to what a device or kernel allows
 * ({@link KernelLaunch#localSizeMayShrink()}).
 */
public final class WorkGroupShape {

    /** Work-items first given to dimension 0: a warp on NVIDIA; a wavefront half on AMD. */
    private static final long FIRST_DIMENSION_WIDTH = 32;

    private WorkGroupShape() {
    }

    /**
     * Local sizes for {@code workItems} (per dimension, dimension 0 first, each at least 1) with at
     * most {@code maxGroup} work-items per group.
     */
    public static long[] localSizes(long[] workItems, long maxGroup) {
        if (workItems.length < 1 || workItems.length > KernelLaunch.MAX_DIMENSIONS) {
            throw new IllegalArgumentException("an NDRange has 1 to " + KernelLaunch.MAX_DIMENSIONS + " dimensions, not " + workItems.length);
        }
        long budget = Long.highestOneBit(Math.max(1, maxGroup));
        long[] local = new long[workItems.length];
        local[0] = Math.min(Math.min(FIRST_DIMENSION_WIDTH, budget), powerOfTwoAtLeast(workItems[0]));
        budget /= local[0];
        for (int d = 1; d < local.length; d++) {
            local[d] = Math.min(budget, powerOfTwoAtLeast(workItems[d]));
            budget /= local[d];
        }
        long widened = Math.min(local[0] * budget, powerOfTwoAtLeast(workItems[0]));
        local[0] = Math.max(local[0], widened);
        return local;
    }

    /**
     * Halves {@code local} (powers of two, in place) until its work-items number at most
     * {@code groupSize}: the outermost dimension first, down to 1, then the next one in, so that
     * dimension 0, along which neighbouring work-items lie, keeps its width longest. Each size stays
     * a divisor of what it was, and so of the global size and the slab size.
     */
    public static void shrinkTo(long[] local, long groupSize) {
        for (int d = local.length - 1; d >= 0; d--) {
            while (local[d] > 1 && product(local) > groupSize) {
                local[d] /= 2;
            }
        }
    }

    private static long product(long[] sizes) {
        long product = 1;
        for (long size : sizes) {
            product *= size;
        }
        return product;
    }

    /** {@code value} rounded up to a multiple of {@code multiple}. */
    public static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** The least power of two at or above {@code count} (1 for 0 or 1). */
    public static long powerOfTwoAtLeast(long count) {
        return count <= 1 ? 1 : Long.highestOneBit(count - 1) << 1;
    }
}
