package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import jpai.runtime.opencl.KernelLaunches;

/**
 * Perfect nests of {@code @Parallel} loops as 2-D and 3-D NDRanges, each call compared with the
 * original body run by the JVM: sizes that are not multiples of the work-group, first indices other
 * than 0, the kernel's text (one index per NDRange dimension, no division), the triangular and the
 * imperfect nests (the outer loop alone is the kernel, explained), and Java's exception at Java's
 * element.
 */
class NestedParallelLoopsTest extends WithTheAgent {

    private static Path dumps;
    private static String explainBefore;

    @BeforeAll
    static void explainAndDump() throws IOException {
        explainBefore = System.setProperty("jpai.explain", "true");
        dumps = Files.createTempDirectory("jpai-nested-kernels");
        System.setProperty("jpai.dump.opencl", dumps.toString());
    }

    @AfterAll
    static void restore() {
        System.clearProperty("jpai.dump.opencl");
        if (explainBefore == null) {
            System.clearProperty("jpai.explain");
        } else {
            System.setProperty("jpai.explain", explainBefore);
        }
    }

    private record Call(String said, boolean launched) {
    }

    private static Call run(Runnable call) {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        long launches = KernelLaunches.count();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        try {
            call.run();
        } finally {
            System.setErr(err);
        }
        String text = said.toString(StandardCharsets.UTF_8);
        err.print(text);
        return new Call(text, KernelLaunches.count() > launches);
    }

    private static float[] floats(Random random, int n) {
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = random.nextFloat() * 2 - 1;
        }
        return values;
    }

    private static void checkMatmul(int rows, int inner, int cols) {
        Random random = new Random(rows * 31L + cols);
        float[] a = floats(random, rows * inner);
        float[] b = floats(random, inner * cols);
        float[] expected = new float[rows * cols];
        OriginalBodies.runOf(NestedLoopKernels.class, "matmul", a, b, expected, rows, inner, cols);
        float[] c = new float[rows * cols];
        assertTrue(run(() -> NestedLoopKernels.matmul(a, b, c, rows, inner, cols)).launched(), "matmul " + rows + "x" + cols + " ran on the device");
        assertArrayEquals(expected, c, "matmul " + rows + "x" + inner + " times " + inner + "x" + cols);
    }

    /** With 2-D tiles asked for ({@code -Djpai.tiling=all}): a GPU's default writes 2-D index spaces untiled (docs/backend.md, "Tiling"). */
    @Test
    void matmulAsATwoDimensionalNestGivesJavasResult() throws IOException {
        String previous = System.getProperty("jpai.tiling");
        System.setProperty("jpai.tiling", "all");
        try {
            checkMatmul(1, 1, 1);
            checkMatmul(17, 33, 5);
            checkMatmul(1025, 9, 1023);
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.tiling");
            } else {
                System.setProperty("jpai.tiling", previous);
            }
        }

        String kernel = kernelText("matmul");
        assertTrue(kernel.contains("get_global_id(1)") && kernel.contains("get_global_id(0)"), kernel);
        assertFalse(kernel.contains("get_global_id(2)"), kernel);
        assertFalse(kernel.contains("/") || kernel.contains("%"), "no division or remainder for the indices:\n" + kernel);
        assertTrue(kernel.contains("reqd_work_group_size(16, 16, 1)") && kernel.contains("__local float jpai_tile1[256]"), "the k loop reads 16 x 16 tiles of a and b:\n" + kernel);
    }

    @Test
    void aThreeDimensionalStencilFromIndexOneGivesJavasResult() throws IOException {
        int x = 19, y = 13, z = 70; // interior 18 x 12 x 69, none a multiple of a work-group side
        Random random = new Random(3);
        double[] in = new double[(x + 1) * (y + 1) * (z + 1)];
        for (int k = 0; k < in.length; k++) {
            in[k] = random.nextGaussian();
        }
        double[] expected = new double[in.length];
        OriginalBodies.runOf(NestedLoopKernels.class, "stencil", in, expected, x, y, z);
        double[] out = new double[in.length];
        assertTrue(run(() -> NestedLoopKernels.stencil(in, out, x, y, z)).launched(), "the stencil ran on the device");
        assertArrayEquals(expected, out, "interior points written, the boundary untouched");
        assertTrue(kernelText("stencil").contains("get_global_id(2)"), "a 3-D NDRange");
    }

    @Test
    void aTriangularNestRunsItsOuterLoopAsTheKernelAndSaysWhy() {
        int n = 300;
        int[] expected = new int[n * n];
        OriginalBodies.runOf(NestedLoopKernels.class, "lowerTriangle", expected, n);
        int[] m = new int[n * n];
        Call call = run(() -> NestedLoopKernels.lowerTriangle(m, n));
        assertTrue(call.launched(), "the outer loop ran on the device");
        assertArrayEquals(expected, m);
        assertTrue(call.said().contains("triangular") && call.said().contains("sequential"), call.said());
    }

    @Test
    void anImperfectNestRunsItsInnerLoopInEachWorkItem() {
        int n = 257;
        int[] expected = new int[n * (n + 1)];
        OriginalBodies.runOf(NestedLoopKernels.class, "rowsWithHeader", expected, n);
        int[] m = new int[n * (n + 1)];
        Call call = run(() -> NestedLoopKernels.rowsWithHeader(m, n));
        assertTrue(call.launched(), "the outer loop ran on the device");
        assertArrayEquals(expected, m);
        assertTrue(call.said().contains("not perfect") || call.said().contains("not that loop alone"), call.said());
    }

    @Test
    void anInnerLoopAccumulatingIntoOneElementStaysSequential() {
        int rows = 300, cols = 129;
        Random random = new Random(5);
        float[] m = floats(random, rows * cols);
        float[] expected = floats(random, rows);
        float[] sums = expected.clone();
        OriginalBodies.runOf(NestedLoopKernels.class, "rowSums", m, expected, rows, cols);
        Call call = run(() -> NestedLoopKernels.rowSums(m, sums, rows, cols));
        assertTrue(call.launched(), "the outer loop ran on the device");
        assertArrayEquals(expected, sums, "each row summed in order, as Java does");
        assertTrue(call.said().contains("does not depend on its variable"), call.said());
    }

    @Test
    void anExceptionInANestReachesTheCallerAtJavasElement() {
        int rows = 40, cols = 37;
        int[] d = new int[rows * cols];
        for (int k = 0; k < d.length; k++) {
            d[k] = k % 11 + 1;
        }
        d[23 * cols + 5] = 0;
        d[31 * cols + 2] = 0;
        int[] expected = new int[rows * cols];
        Throwable javas = OriginalBodies.runOf(NestedLoopKernels.class, "divide", expected, d, rows, cols).thrown();
        assertNotNull(javas);
        int[] m = new int[rows * cols];
        Throwable[] thrown = new Throwable[1];
        Call call = run(() -> {
            try {
                NestedLoopKernels.divide(m, d, rows, cols);
            } catch (ArithmeticException e) {
                thrown[0] = e;
            }
        });
        assertTrue(call.launched(), "the kernel ran first");
        assertNotNull(thrown[0]);
        assertSame(javas.getClass(), thrown[0].getClass());
        assertEquals(javas.getMessage(), thrown[0].getMessage());
        assertArrayEquals(expected, m, "Java's writes before the exception, none after");
        assertTrue(call.said().contains("at iteration (") && call.said().contains("re-ran in Java"), call.said());
    }

    /** The {@code jpai_map} kernel of {@code method} from the dump, comments removed. */
    private static String kernelText(String method) throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.list(dumps)) {
            files = all.filter(p -> p.getFileName().toString().contains(method) && p.getFileName().toString().endsWith(".cl")).toList();
        }
        assertEquals(1, files.size(), "one kernel of " + method + " in " + dumps + ": " + files);
        String text = Files.readString(files.get(0));
        String kernel = text.substring(text.lastIndexOf("__kernel")); // also "__kernel __attribute__((reqd_work_group_size(...))) void jpai_map"
        return kernel.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
    }
}
