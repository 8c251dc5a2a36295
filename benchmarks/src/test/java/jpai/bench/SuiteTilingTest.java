package jpai.bench;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

import jpai.runtime.opencl.KernelLaunches;

/**
 * The suite's own JPAI N-Body and MatMul, which capture their data as {@code PArray}s (resident on
 * the device), are tiled (docs/backend.md, "Tiling"): on a device, a run of each enqueues a tiled
 * kernel, and its output validates against the sequential version. Their kernel times on a GPU:
 * {@code bin/gpu-check tiling}.
 */
class SuiteTilingTest {

    private static <D> void assertTiled(Program<D> program, int n) {
        D data = program.createData(n, new Random(7));
        try (Run sequential = program.sequential(data); Run jpai = program.jpai(data)) {
            sequential.run();
            long tiled = KernelLaunches.tiledCount();
            jpai.run();
            if ("1".equals(System.getenv("JPAI_EXPECT_OPENCL"))) {
                assertTrue(KernelLaunches.tiledCount() > tiled, program.name() + " at n = " + n + ": a tiled kernel ran on " + jpai.ranOn());
            }
            assertNull(program.validate(data, n, sequential.output(), jpai.output()), program.name() + " at n = " + n);
        }
    }

    @Test
    void theSuitesNBodyIsTiled() {
        assertTiled(new NBody(), 300); // not a multiple of the tile of 256
    }

    /** With 2-D tiles asked for: a GPU's default leaves them out (slower on NVIDIA; docs/backend.md, "Tiling"). */
    @Test
    void theSuitesMatMulIsTiled() {
        System.setProperty("jpai.tiling", "all");
        try {
            assertTiled(new MatMul(), 70); // not a multiple of the tile of 16
        } finally {
            System.clearProperty("jpai.tiling");
        }
    }
}
