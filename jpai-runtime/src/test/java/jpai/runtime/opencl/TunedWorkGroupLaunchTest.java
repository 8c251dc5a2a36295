package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jdk.vm.ci.meta.JavaKind;
import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.memory.PArrayStorage;

/**
 * Launches whose work-group size the runtime tunes ({@link KernelLaunch#localSizeTuned()}), on the
 * device: the sizes used are read back from the kernels themselves ({@code get_local_size}). A
 * kernel that allows only small groups never fails to launch; tuning tries a bounded handful of
 * sizes and then keeps one; and a map gives the same bits for every size.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class TunedWorkGroupLaunchTest {

    @AfterEach
    void restore() {
        FaultInjection.clear();
        System.clearProperty(WorkGroupTuning.FORCE_PROPERTY);
    }

    /** {@code y[i] = x[i] * 2 + 1}, and the group's size in {@code groups[i]}; {@code tag} makes a program of its own (its own tuning). */
    private static KernelSource sizes(String tag) {
        return new KernelSource("sizes", """
                // %s
                __kernel void sizes(__global const float *x, __global float *y, __global int *groups, const long n) {
                    long i = get_global_id(0);
                    if (i < n) {
                        y[i] = x[i] * 2.0f + 1.0f;
                        groups[i] = (int) (get_local_size(0) * 10000 + get_local_size(1));
                    }
                }
                """.formatted(tag), "", List.of());
    }

    /** One tuned launch of {@code kernel} over {@code n} elements as a map launches it, groups up to {@code largest}; returns the group size used. */
    private static long launch(KernelSource kernel, int n, long largest) {
        DeviceContext context = OpenCLTestSupport.context();
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * 0.75f - 3f;
        }
        try (PArray<Float> in = PArray.of(x); PArray<Float> out = PArray.allocate(Float.class, n); PArray<Integer> groups = PArray.allocate(Integer.class, n)) {
            context.launch(kernel, new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(1, PArrayStorage.buffer(out, 0))
                    .writeBuffer(2, PArrayStorage.buffer(groups, 0)).scalar(3, JavaKind.Long, (long) n)
                    .globalSize(WorkGroupShape.roundUp(n, largest)).localSize(largest).localSizeTuned());
            float[] y = out.toFloatArray();
            for (int i = 0; i < n; i++) {
                assertEquals(Float.floatToRawIntBits(x[i] * 2f + 1f), Float.floatToRawIntBits(y[i]), "element " + i);
            }
            int[] used = groups.toIntArray();
            for (int g : used) {
                assertEquals(used[0], g, "one group size per launch");
            }
            assertEquals(1, used[0] % 10000, "a 1-D launch: local size 1 in dimension 1");
            return used[0] / 10000;
        }
    }

    @Test
    void aKernelThatAllowsOnlySmallGroupsNeverFailsToLaunch() {
        long largest = Long.highestOneBit(Math.min(1024, OpenCLTestSupport.context().device().maxWorkGroupSize()));
        for (long limit : new long[] {1, 3, 8, 48}) {
            FaultInjection.limitKernelWorkGroupSize(limit); // as a kernel using many registers reports
            KernelSource kernel = sizes("limit " + limit);
            for (int launch = 0; launch < 2 * WorkGroupTuning.TRIALS * WorkGroupTuning.MAX_CANDIDATES; launch++) {
                long used = launch(kernel, 3000, largest);
                assertTrue(used <= limit, "a group of " + used + " work-items where the kernel allows " + limit);
            }
        }
    }

    @Test
    void tuningTriesAHandfulOfSizesThenKeepsOne() {
        long largest = Long.highestOneBit(Math.min(1024, OpenCLTestSupport.context().device().maxWorkGroupSize()));
        KernelSource kernel = sizes("tuning");
        List<Long> used = new ArrayList<>();
        for (int launch = 0; launch < 3 * WorkGroupTuning.TRIALS * WorkGroupTuning.MAX_CANDIDATES; launch++) {
            used.add(launch(kernel, 50_000, largest));
        }
        assertEquals(Math.min(WorkGroupTuning.DEFAULT_GROUP, largest), used.get(0), "the first launch uses the default: " + used);
        int tuning = WorkGroupTuning.TRIALS * WorkGroupTuning.MAX_CANDIDATES;
        Set<Long> tried = new LinkedHashSet<>(used.subList(0, tuning));
        assertTrue(tried.size() <= WorkGroupTuning.MAX_CANDIDATES, "a handful tried: " + used);
        long kept = used.get(used.size() - 1);
        assertTrue(tried.contains(kept), "the one kept was measured: " + used);
        for (long size : used.subList(tuning, used.size())) {
            assertEquals(kept, size, "after the trials every launch uses the size kept: " + used);
        }
        launch(kernel, 300, largest); // another size class measures on its own
        assertEquals(kept, launch(kernel, 50_000, largest), "the size kept is remembered with the program");
    }

    @Test
    void aForcedSizeIsUsedAndNeverExceedsWhatTheKernelAllows() {
        long largest = Long.highestOneBit(Math.min(1024, OpenCLTestSupport.context().device().maxWorkGroupSize()));
        KernelSource kernel = sizes("forced");
        System.setProperty(WorkGroupTuning.FORCE_PROPERTY, "64");
        assertEquals(Math.min(64, largest), launch(kernel, 10_000, largest));
        System.setProperty(WorkGroupTuning.FORCE_PROPERTY, Long.toString(1L << 40));
        FaultInjection.limitKernelWorkGroupSize(32);
        assertEquals(Math.min(32, largest), launch(kernel, 10_000, largest), "forced larger than the kernel allows: the most it allows");
    }

    @Test
    void aMapGivesTheSameBitsForEveryGroupSize() {
        Random random = new Random(12);
        int n = 70_001;
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = switch (i % 97) {
                case 0 -> Float.NaN;
                case 1 -> Float.NEGATIVE_INFINITY;
                case 2 -> -0.0f;
                case 3 -> Float.MIN_VALUE;
                default -> (random.nextFloat() - 0.5f) * 1e6f;
            };
        }
        Function<Float, Float> f = x -> (float) Math.sqrt(Math.abs(x)) * 3f - x / 7f + (x > 10f ? 1f : -1f);
        ArrayFunction<Float, Float> map = AF.map(f).on(Executor.ACCELERATOR);
        float[] java = new float[n];
        for (int i = 0; i < n; i++) {
            java[i] = f.apply(values[i]);
        }
        ArrayFunction<jpai.Tuple2<Integer, Integer>, Float> grid = AF.map2D((Integer i, Integer j) -> i * 0.01f * j - i / (j + 1f));
        float[] gridAtDefault = null;
        System.setProperty("jpai.fallback", "error");
        try (PArray<Float> input = PArray.of(values); PArray<jpai.Tuple2<Integer, Integer>> indices = PArray.range(123, 457)) {
            for (long size = 1; size <= 1024; size *= 2) {
                System.setProperty(WorkGroupTuning.FORCE_PROPERTY, Long.toString(size));
                long launches = KernelLaunches.count();
                try (PArray<Float> out = map.apply(input); PArray<Float> gridOut = grid.on(Executor.ACCELERATOR).apply(indices)) {
                    assertEquals(2, KernelLaunches.count() - launches, "both ran on the device");
                    float[] device = out.toFloatArray();
                    for (int i = 0; i < n; i++) {
                        assertEquals(Float.floatToRawIntBits(java[i]), Float.floatToRawIntBits(device[i]), "groups of " + size + ", element " + i);
                    }
                    float[] gridValues = gridOut.toFloatArray();
                    if (gridAtDefault == null) {
                        gridAtDefault = gridValues;
                        for (int i = 0; i < 123; i++) {
                            for (int j = 0; j < 457; j++) {
                                float expected = i * 0.01f * j - i / (j + 1f);
                                assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(gridValues[i * 457 + j]), "grid (" + i + ", " + j + ")");
                            }
                        }
                    } else {
                        for (int k = 0; k < gridValues.length; k++) {
                            assertEquals(Float.floatToRawIntBits(gridAtDefault[k]), Float.floatToRawIntBits(gridValues[k]), "grid, groups of " + size + ", element " + k);
                        }
                    }
                }
            }
        } finally {
            System.clearProperty("jpai.fallback");
        }
    }
}
