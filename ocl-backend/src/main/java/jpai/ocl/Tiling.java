package jpai.ocl;

/**
 * Which map loops the generator may write through {@code __local} tiles (docs/backend.md, "Tiling");
 * the results are the same bits either way, only the speed differs, and by device: the runtime
 * chooses per device kind from measurements.
 */
public enum Tiling {
    /** No loop is tiled. */
    NONE,
    /**
     * Loops of maps over one index (or over buffers) only: N-Body's all-pairs loop, 1.28x faster
     * tiled on the H100 and the H200. Maps over a 2-D index space are written untiled.
     */
    ONE_DIMENSIONAL,
    /** Also maps over a 2-D index space (matmul's 16 x 16 tiles): 1.7x faster on PoCL, 5-10 % slower on NVIDIA. */
    ALL;

    /** Whether a map over {@code indexDimensions} indices (0: over buffers) may be tiled. */
    public boolean covers(int indexDimensions) {
        return switch (this) {
            case NONE -> false;
            case ONE_DIMENSIONAL -> indexDimensions <= 1;
            case ALL -> true;
        };
    }
}
