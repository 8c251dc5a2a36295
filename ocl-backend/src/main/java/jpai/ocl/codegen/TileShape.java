package jpai.ocl.codegen;

import java.util.Arrays;

import jpai.ocl.MapKernelSpec;

/**
 * The work-group a tiled kernel requires and what its element function's arguments are, for
 * {@link LoopTiling}: the local size per NDRange dimension (dimension 0 first; the kernel declares
 * it with {@code reqd_work_group_size} and the runtime launches exactly it), the tile width along
 * the tiled loop's counter, and for each argument component the NDRange dimension whose global id
 * it is ({@code -1}: a value read from a buffer, not an index).
 *
 * <p>1-D maps: groups of 256, tiles of 256 counter values (the SDK's N-Body). 2-D maps over an index
 * space: square 16 x 16 groups and tiles of 16 (the SDK's matrix multiply). A 3-D index space is not
 * tiled.
 */
public record TileShape(long[] localSize, int tileWidth, int[] dimensionOfArgument) {

    /** The work-items of a tiled 1-D group, and its tile width. */
    public static final int GROUP_1D = 256;
    /** The side of a tiled 2-D group (square), and its tile width. */
    public static final int SIDE_2D = 16;

    /** The shape for a map kernel of {@code spec}, or null when its kernels are not tiled. */
    public static TileShape forMap(MapKernelSpec spec) {
        int components = spec.inputComponents().size();
        switch (spec.indexDimensions()) {
            case 0 -> {
                int[] none = new int[components];
                Arrays.fill(none, -1);
                return new TileShape(new long[] {GROUP_1D}, GROUP_1D, none);
            }
            case 1 -> {
                return new TileShape(new long[] {GROUP_1D}, GROUP_1D, new int[] {0});
            }
            case 2 -> {
                // NDRange dimension 0 runs along the last index (docs/backend.md, "Kernels")
                return new TileShape(new long[] {SIDE_2D, SIDE_2D}, SIDE_2D, new int[] {1, 0});
            }
            default -> {
                return null;
            }
        }
    }

    /** The work-items of one group. */
    public long groupSize() {
        long size = 1;
        for (long l : localSize) {
            size *= l;
        }
        return size;
    }

    /** The local size along NDRange dimension {@code d} (1 past the shape's dimensions). */
    public long localSize(int d) {
        return d < localSize.length ? localSize[d] : 1;
    }
}
