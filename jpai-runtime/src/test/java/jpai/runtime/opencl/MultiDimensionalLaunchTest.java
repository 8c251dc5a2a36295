package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jdk.vm.ci.meta.JavaKind;
import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.memory.PArrayStorage;

/**
 * 2-D and 3-D launches of hand-written kernels: every work-item once, also when the launch is split
 * into slabs along its last dimension (with global offsets, or with a base index argument), and
 * work-group sizes larger than the device allows shrunk where the launch lets them.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class MultiDimensionalLaunchTest {

    /** {@code out[y * columns + x] = y * 1000 + x} for x from dimension 0, y from dimension 1 (global offset included). */
    private static final KernelSource GRID = new KernelSource("grid", """
            __kernel void grid(__global int *out, const long columns, const long rows) {
                long x = get_global_id(0);
                long y = get_global_id(1);
                if (x < columns && y < rows) {
                    out[y * columns + x] = (int) (y * 1000 + x);
                }
            }
            """, "", List.of());

    /** As {@link #GRID} in 3-D, the last dimension offset by the base argument instead of a global offset. */
    private static final KernelSource BOX = new KernelSource("box", """
            __kernel void box(__global int *out, const long base, const long d0, const long d1, const long d2) {
                long k = get_global_id(0);
                long j = get_global_id(1);
                long i = base + get_global_id(2);
                if (i < d0 && j < d1 && k < d2) {
                    out[(i * d1 + j) * d2 + k] = (int) ((i * 100 + j) * 100 + k);
                }
            }
            """, "", List.of());

    private static void assertGrid(PArray<Integer> out, int rows, int columns) {
        int[] values = out.toIntArray();
        for (int y = 0; y < rows; y++) {
            for (int x = 0; x < columns; x++) {
                assertEquals(y * 1000 + x, values[y * columns + x], "element (" + y + ", " + x + ")");
            }
        }
    }

    @Test
    void aTwoDimensionalLaunchSplitIntoSlabsCoversEveryWorkItemOnce() {
        DeviceContext context = OpenCLTestSupport.context();
        int rows = 37;
        int columns = 45;
        try (PArray<Integer> out = PArray.allocate(Integer.class, (long) rows * columns)) {
            // 48 x 40 work-items in groups of 16 x 4, 8 rows per enqueue: five slabs, with global offsets 8, 16, 24, 32
            long kernelsBefore = KernelLaunches.count();
            LaunchResult result = context.launch(GRID, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0)).scalar(1, JavaKind.Long, (long) columns)
                    .scalar(2, JavaKind.Long, (long) rows).globalSize(48, 40).localSize(16, 4).perEnqueue(8));
            assertEquals(5, KernelLaunches.count() - kernelsBefore, "five slabs");
            assertTrue(result.profile().kernelNanos() > 0);
            assertGrid(out, rows, columns);
        }
    }

    @Test
    void aThreeDimensionalLaunchSplitWithABaseArgumentCoversEveryWorkItemOnce() {
        DeviceContext context = OpenCLTestSupport.context();
        int[] d = {11, 3, 70};
        try (PArray<Integer> out = PArray.allocate(Integer.class, (long) d[0] * d[1] * d[2])) {
            long kernelsBefore = KernelLaunches.count();
            context.launch(BOX, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0)).scalar(1, JavaKind.Long, 0L).baseIndexArgument(1)
                    .scalar(2, JavaKind.Long, (long) d[0]).scalar(3, JavaKind.Long, (long) d[1]).scalar(4, JavaKind.Long, (long) d[2])
                    .globalSize(72, 4, 12).localSize(8, 4, 2).perEnqueue(4));
            assertEquals(3, KernelLaunches.count() - kernelsBefore, "three slabs of 4, 4 and 4 planes");
            int[] values = out.toIntArray();
            for (int i = 0; i < d[0]; i++) {
                for (int j = 0; j < d[1]; j++) {
                    for (int k = 0; k < d[2]; k++) {
                        assertEquals((i * 100 + j) * 100 + k, values[(i * d[1] + j) * d[2] + k], "element (" + i + ", " + j + ", " + k + ")");
                    }
                }
            }
        }
    }

    /** A group larger than the device's or kernel's limit: shrunk when allowed; otherwise the driver's refusal is an OpenCLRuntimeException. */
    @Test
    void aWorkGroupTooLargeForTheDeviceShrinksWhenAllowed() {
        DeviceContext context = OpenCLTestSupport.context();
        long tooLarge = Long.highestOneBit(context.device().maxWorkGroupSize()) * 2;
        int rows = 3;
        int columns = (int) tooLarge;
        try (PArray<Integer> out = PArray.allocate(Integer.class, (long) rows * columns)) {
            context.launch(GRID, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0)).scalar(1, JavaKind.Long, (long) columns)
                    .scalar(2, JavaKind.Long, (long) rows).globalSize(tooLarge, 4).localSize(tooLarge, 2).localSizeMayShrink());
            assertGrid(out, rows, columns);
            assertThrows(OpenCLRuntimeException.class, () -> context.launch(GRID, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0)).scalar(1, JavaKind.Long, (long) columns)
                    .scalar(2, JavaKind.Long, (long) rows).globalSize(tooLarge, 4).localSize(tooLarge, 2)));
        }
    }

    @Test
    void inconsistentSizesAreRefusedBeforeAnythingRuns() {
        DeviceContext context = OpenCLTestSupport.context();
        try (PArray<Integer> out = PArray.allocate(Integer.class, 64)) {
            IllegalArgumentException dimensions = assertThrows(IllegalArgumentException.class, () -> context.launch(GRID, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0))
                    .scalar(1, JavaKind.Long, 8L).scalar(2, JavaKind.Long, 8L).globalSize(8, 8).localSize(8)));
            assertTrue(dimensions.getMessage().contains("2 global sizes") && dimensions.getMessage().contains("1 local sizes"), dimensions.getMessage());
            IllegalArgumentException multiple = assertThrows(IllegalArgumentException.class, () -> context.launch(GRID, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0))
                    .scalar(1, JavaKind.Long, 8L).scalar(2, JavaKind.Long, 8L).globalSize(8, 6).localSize(4, 4)));
            assertTrue(multiple.getMessage().contains("dimension 1"), multiple.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().globalSize(1, 2, 3, 4));
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().globalSize(new long[0]));
            assertEquals(6, new KernelLaunch().globalSize(1, 2, 3).globalSize(), "the work-items of all dimensions");
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().localSize(4, 0));
        }
    }
}
