package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.TupleType;
import jpai.runtime.memory.PArrayStorage;

/**
 * Maps over 2-D and 3-D index spaces ({@code PArray.range(rows, columns)}, {@code PArray.range(d0,
 * d1, d2)}): on every executor the same elements as the lambda run by the JVM over the same
 * indices in row-major order; on the device a 2-D or 3-D NDRange that reads the indices from its
 * work-item ids (no division, no input buffer), also when the launch is split into slabs.
 */
class IndexSpaceTest {

    /** The two status ints every generated kernel zeroes and reads back. */
    private static final long STATUS_BYTES = 8;

    private static final int[][] SHAPES_2D = {{1, 1}, {1, 17}, {17, 1}, {17, 33}, {1025, 1023}, {0, 5}, {5, 0}};
    private static final int[][] SHAPES_3D = {{1, 1, 1}, {3, 5, 7}, {2, 1, 33}, {7, 9, 300}, {0, 3, 4}, {3, 0, 4}};

    /** Java's result: {@code f} applied by the JVM to each (i, j) in row-major order. */
    private static <R> Object[] java2D(Function<Tuple2<Integer, Integer>, R> f, int rows, int columns) {
        Object[] expected = new Object[rows * columns];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                expected[i * columns + j] = f.apply(new Tuple2<>(i, j));
            }
        }
        return expected;
    }

    private static <R> Object[] java3D(Function<Tuple3<Integer, Integer, Integer>, R> f, int[] shape) {
        Object[] expected = new Object[shape[0] * shape[1] * shape[2]];
        for (int i = 0; i < shape[0]; i++) {
            for (int j = 0; j < shape[1]; j++) {
                for (int k = 0; k < shape[2]; k++) {
                    expected[(i * shape[1] + j) * shape[2] + k] = f.apply(new Tuple3<>(i, j, k));
                }
            }
        }
        return expected;
    }

    /** {@code f} over every 2-D shape on every executor, against Java; on the device nothing is sent. */
    private static <R> void checkEvery2DShape(Function<Tuple2<Integer, Integer>, R> f, Class<R> type, String what) {
        ArrayFunction<Tuple2<Integer, Integer>, R> map = AF.map(f, type);
        for (int[] shape : SHAPES_2D) {
            try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(shape[0], shape[1])) {
                Object[] expected = java2D(f, shape[0], shape[1]);
                for (Executor executor : ExecutorCase.ALL) {
                    try (PArray<R> out = ExecutorCase.apply(map, executor, grid)) {
                        String where = what + " over " + shape[0] + "x" + shape[1] + " on " + executor;
                        ExecutorCase.assertSameAsJava(expected, out, where);
                        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected() && expected.length > 0) {
                            assertEquals(1, AF.lastProfile().kernelCount(), where + ": " + AF.lastProfile());
                            assertTrue(AF.lastProfile().hostToDeviceBytes() <= STATUS_BYTES, where + ": no index buffer was sent: " + AF.lastProfile());
                        }
                    }
                }
            }
        }
    }

    @Test
    void intResultsOverEvery2DShapeEqualJava() {
        checkEvery2DShape(ij -> ij._1() * 1_000_003 + ij._2() * 7 - (ij._1() ^ ij._2()), Integer.class, "int");
    }

    @Test
    void longFloatAndDoubleResultsEqualJava() {
        checkEvery2DShape(ij -> (long) ij._1() * 3_000_000_019L - ij._2(), Long.class, "long");
        checkEvery2DShape(ij -> 1.0f / (ij._1() + ij._2() + 1), Float.class, "float (Hilbert)");
        checkEvery2DShape(ij -> Math.sqrt(ij._1() * 0.5 + ij._2()) - ij._2() * 1e-3, Double.class, "double");
    }

    @Test
    void tupleResultsEqualJava() {
        Function<Tuple2<Integer, Integer>, Tuple2<Float, Integer>> f = ij -> new Tuple2<>(ij._1() * 0.25f - ij._2(), ij._2() - ij._1());
        ArrayFunction<Tuple2<Integer, Integer>, Tuple2<Float, Integer>> map = AF.map(f, TupleType.of(Float.class, Integer.class));
        for (int[] shape : SHAPES_2D) {
            try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(shape[0], shape[1])) {
                for (Executor executor : ExecutorCase.ALL) {
                    try (PArray<Tuple2<Float, Integer>> out = ExecutorCase.apply(map, executor, grid)) {
                        ExecutorCase.assertSameAsJava(java2D(f, shape[0], shape[1]), out, "tuple over " + shape[0] + "x" + shape[1] + " on " + executor);
                    }
                }
            }
        }
    }

    @Test
    void threeDimensionalShapesEqualJava() {
        Function<Tuple3<Integer, Integer, Integer>, Integer> f = ijk -> ijk._1() * 10_000 + ijk._2() * 100 + ijk._3();
        Function<Tuple3<Integer, Integer, Integer>, Double> g = ijk -> ijk._1() / (ijk._2() + 1.0) + ijk._3() * 0.125;
        ArrayFunction<Tuple3<Integer, Integer, Integer>, Integer> mapF = AF.map(f, Integer.class);
        ArrayFunction<Tuple3<Integer, Integer, Integer>, Double> mapG = AF.map(g, Double.class);
        for (int[] shape : SHAPES_3D) {
            try (PArray<Tuple3<Integer, Integer, Integer>> space = PArray.range(shape[0], shape[1], shape[2])) {
                for (Executor executor : ExecutorCase.ALL) {
                    String where = shape[0] + "x" + shape[1] + "x" + shape[2] + " on " + executor;
                    try (PArray<Integer> out = ExecutorCase.apply(mapF, executor, space)) {
                        ExecutorCase.assertSameAsJava(java3D(f, shape), out, "int over " + where);
                        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected() && out.length() > 0) {
                            assertTrue(AF.lastProfile().hostToDeviceBytes() <= STATUS_BYTES, where + ": no index buffer was sent: " + AF.lastProfile());
                        }
                    }
                    try (PArray<Double> out = ExecutorCase.apply(mapG, executor, space)) {
                        ExecutorCase.assertSameAsJava(java3D(g, shape), out, "double over " + where);
                    }
                }
            }
        }
    }

    @Test
    void composedWithMapsAndReducesEqualsJava() {
        Function<Tuple2<Integer, Integer>, Long> f = ij -> (long) ij._1() * ij._2() - ij._2();
        ArrayFunction<Tuple2<Integer, Integer>, Long> sum = AF.map(f, Long.class).reduce(Long::sum, 0L);
        ArrayFunction<Tuple2<Integer, Integer>, Long> twiceThenSum = AF.map(f, Long.class).map((Long x) -> 2 * x).reduce(Long::sum, 0L);
        ArrayFunction<Tuple3<Integer, Integer, Integer>, Integer> count3D = AF.map((Tuple3<Integer, Integer, Integer> t) -> t._1() + t._2() + t._3() > 5 ? 1 : 0, Integer.class)
                        .reduce(Integer::sum, 0);
        for (int[] shape : new int[][] {{1, 1}, {17, 33}, {1025, 1023}}) {
            long expected = 0;
            for (Object value : java2D(f, shape[0], shape[1])) {
                expected += (Long) value;
            }
            try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(shape[0], shape[1])) {
                for (Executor executor : ExecutorCase.ALL) {
                    try (PArray<Long> total = ExecutorCase.apply(sum, executor, grid); PArray<Long> twice = ExecutorCase.apply(twiceThenSum, executor, grid)) {
                        assertEquals(expected, total.get(0), "sum over " + shape[0] + "x" + shape[1] + " on " + executor);
                        assertEquals(2 * expected, twice.get(0), "map, map, sum over " + shape[0] + "x" + shape[1] + " on " + executor);
                    }
                }
            }
        }
        try (PArray<Tuple3<Integer, Integer, Integer>> space = PArray.range(3, 5, 7)) {
            for (Executor executor : ExecutorCase.ALL) {
                try (PArray<Integer> count = ExecutorCase.apply(count3D, executor, space)) {
                    int expected = 0;
                    for (Object value : java3D((Tuple3<Integer, Integer, Integer> t) -> t._1() + t._2() + t._3() > 5 ? 1 : 0, new int[] {3, 5, 7})) {
                        expected += (Integer) value;
                    }
                    assertEquals(expected, count.get(0), "count over 3x5x7 on " + executor);
                }
            }
        }
    }

    /** {@code AF.map2D((i, j) -> ...)} and {@code AF.map3D((i, j, k) -> ...)}: the same as the maps over tuples, naming the user's lambda. */
    @Test
    void theShorthandsMapFunctionsOfTheIndices() {
        java.util.function.BiFunction<Integer, Integer, Float> hilbert = (i, j) -> 1.0f / (i + j + 1);
        ArrayFunction<Tuple2<Integer, Integer>, Float> map2D = AF.map2D(hilbert);
        ArrayFunction<Tuple2<Integer, Integer>, Long> sum2D = AF.map2D((i, j) -> (long) i * j - j, Long.class).reduce(Long::sum, 0L);
        jpai.TriFunction<Integer, Integer, Integer, Integer> cell = (i, j, k) -> (i * 100 + j) * 100 - k;
        ArrayFunction<Tuple3<Integer, Integer, Integer>, Integer> map3D = AF.map3D(cell, Integer.class);
        for (int[] shape : new int[][] {{1, 1}, {17, 33}, {1025, 1023}}) {
            Object[] expected = java2D(ij -> hilbert.apply(ij._1(), ij._2()), shape[0], shape[1]);
            long expectedSum = 0;
            for (int i = 0; i < shape[0]; i++) {
                for (int j = 0; j < shape[1]; j++) {
                    expectedSum += (long) i * j - j;
                }
            }
            try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(shape[0], shape[1])) {
                for (Executor executor : ExecutorCase.ALL) {
                    String where = shape[0] + "x" + shape[1] + " on " + executor;
                    try (PArray<Float> out = ExecutorCase.apply(map2D, executor, grid)) {
                        ExecutorCase.assertSameAsJava(expected, out, "map2D over " + where);
                        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                            assertTrue(AF.lastProfile().kernelCount() == 1 && AF.lastProfile().hostToDeviceBytes() <= STATUS_BYTES, where + ": a 2-D kernel, nothing sent: " + AF.lastProfile());
                        }
                    }
                    try (PArray<Long> total = ExecutorCase.apply(sum2D, executor, grid)) {
                        assertEquals(expectedSum, total.get(0), "map2D then reduce over " + where);
                        if (executor == Executor.ACCELERATOR && ExecutorCase.openCLExpected()) {
                            assertTrue(AF.lastProfile().operation().startsWith("map then reduce of ") && !AF.lastProfile().fellBack(),
                                            where + ": one fused kernel: " + AF.lastProfile());
                        }
                    }
                }
            }
        }
        for (int[] shape : new int[][] {{1, 1, 1}, {3, 5, 7}, {0, 2, 2}}) {
            try (PArray<Tuple3<Integer, Integer, Integer>> space = PArray.range(shape[0], shape[1], shape[2])) {
                for (Executor executor : ExecutorCase.ALL) {
                    try (PArray<Integer> out = ExecutorCase.apply(map3D, executor, space)) {
                        ExecutorCase.assertSameAsJava(java3D(t -> cell.apply(t._1(), t._2(), t._3()), shape), out, "map3D over " + java.util.Arrays.toString(shape) + " on " + executor);
                    }
                }
            }
        }
        assertTrue(map2D.toString().contains("IndexSpaceTest.java:"), "messages name the user's lambda: " + map2D);
        assertTrue(map3D.toString().contains("IndexSpaceTest.java:"), "messages name the user's lambda: " + map3D);
    }

    /** Launches cut into slabs of a few rows (or planes): every element, each slab's edges included. */
    @Test
    void aLaunchSplitIntoSlabsCoversEveryElement() {
        String previous = System.getProperty("jpai.map.maxWorkItemsPerEnqueue");
        System.setProperty("jpai.map.maxWorkItemsPerEnqueue", "4096");
        try {
            Function<Tuple2<Integer, Integer>, Integer> f = ij -> ij._1() * 4099 + ij._2();
            try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(1025, 1023);
                            PArray<Integer> out = ExecutorCase.apply(AF.map(f), Executor.ACCELERATOR, grid)) {
                if (ExecutorCase.openCLExpected()) {
                    // slabs are whole groups tall: 32 rows, the tallest group a map allows (1024 work-items, 32 wide)
                    assertTrue(AF.lastProfile().kernelCount() >= 30, "1025 rows in slabs of a few rows: " + AF.lastProfile());
                }
                ExecutorCase.assertSameAsJava(java2D(f, 1025, 1023), out, "1025x1023 in slabs");
            }
            Function<Tuple3<Integer, Integer, Integer>, Integer> g = ijk -> (ijk._1() * 1000 + ijk._2()) * 1000 + ijk._3();
            int[] shape = {37, 19, 300};
            try (PArray<Tuple3<Integer, Integer, Integer>> space = PArray.range(shape[0], shape[1], shape[2]);
                            PArray<Integer> out = ExecutorCase.apply(AF.map(g), Executor.ACCELERATOR, space)) {
                if (ExecutorCase.openCLExpected()) {
                    assertTrue(AF.lastProfile().kernelCount() > 1, "37 planes in slabs: " + AF.lastProfile());
                }
                ExecutorCase.assertSameAsJava(java3D(g, shape), out, "37x19x300 in slabs");
            }
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.map.maxWorkItemsPerEnqueue");
            } else {
                System.setProperty("jpai.map.maxWorkItemsPerEnqueue", previous);
            }
        }
    }

    /** The kernel takes i and j from get_global_id(1) and get_global_id(0): no division or remainder per element. */
    @Test
    void theKernelReadsEachIndexFromItsOwnDimension(@TempDir Path dump) throws IOException {
        System.setProperty("jpai.dump.opencl", dump.toString());
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(9, 11);
                        PArray<Integer> out = ExecutorCase.apply(AF.map((Tuple2<Integer, Integer> ij) -> ij._1() * 100 + ij._2()), Executor.ACCELERATOR, grid);
                        PArray<Tuple3<Integer, Integer, Integer>> space = PArray.range(2, 3, 4);
                        PArray<Integer> out3 = ExecutorCase.apply(AF.map((Tuple3<Integer, Integer, Integer> t) -> t._1() - t._2() + t._3()), Executor.ACCELERATOR, space)) {
            assertEquals(8 * 100 + 10, out.get(98));
            assertEquals(1 - 2 + 3, out3.get(23));
        } finally {
            System.clearProperty("jpai.dump.opencl");
        }
        if (!ExecutorCase.openCLExpected()) {
            return;
        }
        List<String> kernels;
        try (Stream<Path> files = Files.list(dump)) {
            kernels = files.filter(f -> f.toString().endsWith(".jpai_map.cl")).map(IndexSpaceTest::read).toList();
        }
        assertEquals(2, kernels.size(), "one 2-D and one 3-D map kernel: " + kernels);
        for (String text : kernels) {
            String kernel = text.substring(text.indexOf("__kernel void jpai_map")).replaceAll("/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
            boolean threeD = kernel.contains("extent2");
            assertTrue(kernel.contains("get_global_id(0)") && kernel.contains("get_global_id(1)"), kernel);
            assertEquals(threeD, kernel.contains("get_global_id(2)"), kernel);
            assertFalse(kernel.contains("/") || kernel.contains("%"), "no division or remainder for the indices: " + kernel);
            assertFalse(kernel.contains("in0"), "no input buffer: " + kernel);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aWrittenRangeIsAnOrdinaryArrayOfPairs() {
        Function<Tuple2<Integer, Integer>, Integer> f = ij -> ij._1() * 1000 + ij._2();
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(40, 50)) {
            assertNotNull(PArrayStorage.rangeExtents(grid));
            assertEquals(new Tuple2<>(39, 49), grid.get(1999));
            assertEquals(new Tuple2<>(1, 0), grid.get(50));
            grid.put(77, new Tuple2<>(-3, 4));
            assertNull(PArrayStorage.rangeExtents(grid));
            try (PArray<Integer> out = ExecutorCase.apply(AF.map(f), Executor.ACCELERATOR, grid)) {
                if (ExecutorCase.openCLExpected()) {
                    assertTrue(AF.lastProfile().hostToDeviceBytes() >= 2000 * 8L, "the written pairs went to the device: " + AF.lastProfile());
                }
                assertEquals(-3000 + 4, out.get(77));
                assertEquals(1 * 1000 + 28, out.get(78));
            }
        }
    }

    /** A Java exception at one element: the same exception as the JVM's loop, after the kernel found it. */
    @Test
    void anExceptionAtOneIndexIsJavas() {
        int[] table = new int[17 * 33 - 1];
        Function<Tuple2<Integer, Integer>, Integer> f = ij -> table[ij._1() * 33 + ij._2()] + 1;
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(17, 33)) {
            DeviceRun.assertThrowsAsJava(ArrayIndexOutOfBoundsException.class, f, AF.map(f), grid, true, "the last element reads past the table");
        }
    }

    /**
     * 46,341 x 46,341 = 2,147,488,281 elements, past 2^31: byte results checked around the rows that
     * cross element 2^31 and at sampled elements everywhere. Needs about 18 GiB of host memory for
     * the indices (two ints per element) and 2 GiB on the device: runs on a GPU with room for it
     * (the H100) or anywhere with {@code JPAI_LARGE_TESTS=1}.
     */
    @Test
    void aGridPast2To31ElementsOnTheDevice() {
        org.junit.jupiter.api.Assumptions.assumeTrue("1".equals(System.getenv("JPAI_LARGE_TESTS")) || gpuWithMemory(14L << 30),
                        "needs a GPU with 14 GiB or JPAI_LARGE_TESTS=1");
        int side = 46_341;
        Function<Tuple2<Integer, Integer>, Byte> f = ij -> (byte) (ij._1() * 3 + ij._2() * 5);
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(side, side); PArray<Byte> out = ExecutorCase.apply(AF.map(f), Executor.ACCELERATOR, grid)) {
            assertEquals((long) side * side, out.length());
            long boundary = 1L << 31;
            for (long e = boundary - 3L * side; e < Math.min(out.length(), boundary + 3L * side); e++) {
                assertEquals(f.apply(new Tuple2<>((int) (e / side), (int) (e % side))), out.get(e), "element " + e);
            }
            for (long e = 0; e < out.length(); e += 1_000_003) {
                assertEquals(f.apply(new Tuple2<>((int) (e / side), (int) (e % side))), out.get(e), "element " + e);
            }
            assertEquals(f.apply(new Tuple2<>(side - 1, side - 1)), out.get(out.length() - 1), "the last element");
        }
    }

    private static boolean gpuWithMemory(long bytes) {
        return jpai.runtime.opencl.OpenCLRuntime.choice() instanceof jpai.runtime.device.DeviceChoice.OpenCL device
                        && device.device().kind() == jpai.runtime.device.DeviceKind.GPU && device.device().globalMemoryBytes() >= bytes;
    }

    /**
     * A kernel that leaves the device path at some element (a hoisted bounds check that fails where
     * Java's loop breaks first): Java's result, and the reason names the element and its indices.
     */
    @Test
    void aDeoptimizedElementIsNamedByItsIndices() {
        float[] a = {1f, 2f, 3f, 4f};
        int n = 100; // beyond a.length: the hoisted check exits, Java then runs the operation
        Function<Tuple2<Integer, Integer>, Float> f = ij -> {
            float sum = 0f;
            for (int k = 0; k < n; k++) {
                if (k == ((ij._1() + ij._2()) & 3)) {
                    break;
                }
                sum += a[k];
            }
            return sum;
        };
        int rows = 19;
        int columns = 23;
        try (PArray<Tuple2<Integer, Integer>> grid = PArray.range(rows, columns); PArray<Float> out = AF.map(f).on(Executor.ACCELERATOR).apply(grid)) {
            ExecutorCase.assertSameAsJava(java2D(f, rows, columns), out, "a loop that breaks early");
            if (ExecutorCase.openCLExpected()) {
                String reason = AF.lastProfile().fallbackReason();
                java.util.regex.Matcher element = java.util.regex.Pattern.compile("at element (\\d+) \\(index \\((\\d+), (\\d+)\\)\\)").matcher(String.valueOf(reason));
                assertTrue(AF.lastProfile().fellBack() && element.find(), "the reason names the element and its indices: " + reason);
                assertEquals(Long.parseLong(element.group(1)), Long.parseLong(element.group(2)) * columns + Long.parseLong(element.group(3)), reason);
            }
        }
    }

    @Test
    void badExtentsAreRefused() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> PArray.range(3, -1));
        assertTrue(negative.getMessage().contains("negative"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PArray.range(-2, 3, 4));
        IllegalArgumentException huge = assertThrows(IllegalArgumentException.class, () -> PArray.range(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE));
        assertTrue(huge.getMessage().contains("more elements"), huge.getMessage());
    }
}
