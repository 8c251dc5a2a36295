package jpai.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's check of the suite: every program, every version, on tiny sizes, one timed run each; every
 * version that runs must validate against the sequential one (the suite's exit code says so), and
 * the reports must be written. Where the machine has no OpenCL device, the device versions are
 * reported "not run", which is not a failure.
 */
class BenchmarkSuiteTest {

    @Test
    void everyVersionOfEveryProgramValidatesOnTinySizes(@TempDir Path out) throws IOException {
        int exit = BenchmarkMain.run(new String[] {"--size", "tiny", "--runs", "1", "--warmup", "0", "--budget", "0", "--out", out.toString()});
        List<Measurement> rows = ResultsCsv.read(out.resolve(ResultsCsv.FILE));
        String failed = rows.stream().filter(m -> m.validated().equals("FAILED")).map(m -> m.program() + " " + m.version().id() + ": " + m.note())
                .collect(Collectors.joining("\n"));
        assertEquals(0, exit, "validation failures:\n" + failed);
        assertEquals("", failed);
        Set<String> programs = rows.stream().filter(m -> m.version() == VersionKind.SEQUENTIAL && m.timed()).map(Measurement::program).collect(Collectors.toSet());
        assertEquals(Set.copyOf(Programs.names()), programs, "every program has a timed sequential baseline");
        for (Program<?> each : Programs.all()) {
            String program = each.name();
            boolean exactVersion = each.hasExactOpenCL();
            for (VersionKind version : VersionKind.values()) {
                boolean expected = version != VersionKind.OPENCL_EXACT || exactVersion;
                assertEquals(expected, rows.stream().anyMatch(m -> m.program().equals(program) && m.version() == version && m.figure().equals(Measurement.END_TO_END)),
                        program + (expected ? " has" : " has no") + " end-to-end row for " + version.id());
            }
        }
        if ("1".equals(System.getenv("JPAI_EXPECT_OPENCL"))) {
            // N-Body's exact hand-written kernel needs only correctly rounded / and sqrt and Java's order: Java's bits exactly
            Measurement exactNBody = rows.stream().filter(m -> m.program().equals("nbody") && m.version() == VersionKind.OPENCL_EXACT && m.figure().equals(Measurement.END_TO_END))
                    .findFirst().orElseThrow();
            assertTrue(exactNBody.note().contains("outputs have Java's bits"), "nbody opencl-exact: " + exactNBody.note());
        }
        assertTrue(Files.size(out.resolve(MarkdownReport.FILE)) > 0);
        assertTrue(Files.exists(out.resolve("run.log")));
        if ("1".equals(System.getenv("JPAI_EXPECT_OPENCL"))) {
            // the apply-overhead microbenchmark ran (a validation failure there fails the exit code above): a header and 4 rows
            assertEquals(5, Files.readAllLines(out.resolve(ApplyOverhead.CSV)).size(), "apply-overhead.csv: 1 and 1024 elements, back to back and after System.gc()");
        }
    }

    @Test
    void toleranceChecksFloatsAndCountsIntegerMismatches() {
        Output reference = Output.of("f", new float[] {1f, 100f}, "i", new int[] {1, 2, 3, 4});
        assertNull(Tolerance.floats(1e-6, 0).check(reference, Output.of("f", new float[] {1f, 100.00005f}, "i", new int[] {1, 2, 3, 4})));
        assertNotEquals(null, Tolerance.floats(1e-7, 0).check(reference, Output.of("f", new float[] {1f, 100.01f}, "i", new int[] {1, 2, 3, 4})));
        assertNotEquals(null, Tolerance.EXACT.check(reference, Output.of("f", new float[] {1f, 100f}, "i", new int[] {1, 2, 3, 5})));
        assertNull(new Tolerance(0, 0, 0.25).check(reference, Output.of("f", new float[] {1f, 100f}, "i", new int[] {1, 2, 3, 5})));
        // the fast-math version: floats at least 1e-4 relative, integers as exact as the program says
        Output fused = Output.of("f", new float[] {1f, 100.005f}, "i", new int[] {1, 2, 3, 4});
        assertNotEquals(null, Tolerance.floats(1e-6, 0).check(reference, fused));
        assertNull(Tolerance.floats(1e-6, 0).relaxedForFastMath().check(reference, fused));
        assertNotEquals(null, Tolerance.EXACT.relaxedForFastMath().check(reference, Output.of("f", new float[] {1f, 100f}, "i", new int[] {1, 2, 3, 5})));
    }

    @Test
    void statsTakeMedianAndQuartilesOfTheSortedSeries() {
        Stats stats = Stats.of(new long[] {5, 1, 4, 2, 3});
        assertEquals(3, stats.median());
        assertEquals(1, stats.min());
        assertEquals(5, stats.max());
        assertEquals(2, stats.q1());
        assertEquals(4, stats.q3());
        assertEquals(2.5, Stats.of(new long[] {3, 2}).median());
    }

    @Test
    void csvRoundTripsQuotedFields(@TempDir Path dir) throws IOException {
        Measurement row = new Measurement("saxpy", SizeClass.SMALL, 1 << 20, "2^20 floats", "float", VersionKind.JPAI_OPENCL, Measurement.END_TO_END,
                1.5, 1.0, 2.0, 1.25, 1.75, 100, "yes", "Java threads (fallback)", "|x-ref| <= 1e-06 + 1e-06*|ref|", "a note, with \"quotes\"");
        Path file = dir.resolve(ResultsCsv.FILE);
        try (ResultsCsv csv = new ResultsCsv(file)) {
            csv.append(row);
        }
        assertEquals(List.of(row), ResultsCsv.read(file));
    }

    @Test
    void resultFoldersAreNamedAfterTheDevice() {
        assertEquals("java-threads", BenchmarkMain.slug(null));
    }
}
