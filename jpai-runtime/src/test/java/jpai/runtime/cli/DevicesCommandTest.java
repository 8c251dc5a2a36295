package jpai.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jocl.CL;

import jpai.runtime.device.Discovery;
import jpai.runtime.device.FloatingPointSupport;
import jpai.runtime.device.TestDevices;
import org.junit.jupiter.api.Test;

class DevicesCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Discovery discovery, String spec) {
        return DevicesCommand.run(discovery, spec, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void listsPlatformsAndMarksTheDefaultDevice() {
        Discovery discovery = Discovery.found(List.of(TestDevices.h100(0, 0, 0), TestDevices.poclCpu(1, 1, 0)),
                List.of(Discovery.Skipped.platform(2, "Broken", "clGetDeviceIDs failed with CL_OUT_OF_HOST_MEMORY")));
        assertEquals(0, run(discovery, null));
        String expected = """
                Platform 0: NVIDIA CUDA (NVIDIA Corporation, OpenCL 3.0)
                  * [0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA, OpenCL C 1.2, 132 CUs, 79.1 GiB, fp64)
                Platform 1: Portable Computing Language (The pocl project, OpenCL 3.0)
                    [1] pthread-haswell-AMD EPYC (CPU, Portable Computing Language, OpenCL C 1.2, 16 CUs, 64.0 GiB, fp64)
                Platform 2: Broken
                    skipped: clGetDeviceIDs failed with CL_OUT_OF_HOST_MEMORY

                Default (*): [0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA, OpenCL C 1.2, 132 CUs, 79.1 GiB, fp64) -- default: first GPU
                -Djpai.device is not set; it takes: default, gpu, accelerator, cpu, java, N, P:D, or part of a device or platform name.
                """;
        assertEquals(expected, out().replace(System.lineSeparator(), "\n"));
        assertEquals("", err());
    }

    /** A device whose arithmetic is not Java's says so under its line (issue 11: capabilities read, not assumed). */
    @Test
    void aDeviceWithoutJavasArithmeticSaysWhatItLacks() {
        var flushing = TestDevices.withFpConfig(TestDevices.poclCpu(0, 0, 0), FloatingPointSupport.JAVA_FLOAT & ~CL.CL_FP_DENORM, 0);
        assertEquals(0, run(Discovery.found(List.of(flushing), List.of()), null));
        String listing = out();
        assertTrue(listing.contains("flushes float subnormal numbers to zero (no CL_FP_DENORM) and has no double arithmetic"), listing);
        assertTrue(listing.contains("operations using those types run in Java there"), listing);
    }

    @Test
    void showsWhatTheSpecPicks() {
        assertEquals(0, run(TestDevices.gpuAndCpu(), "cpu"));
        assertTrue(out().contains("-Djpai.device=cpu picks: [1] pthread-haswell-AMD EPYC"), out());
        assertTrue(out().contains("-- jpai.device=cpu: first CPU"), out());
    }

    @Test
    void withoutDevicesSaysWhyAndThatJavaThreadsRun() {
        assertEquals(0, run(TestDevices.empty(), null));
        assertTrue(out().startsWith("No OpenCL device found: no OpenCL platform: the ICD loader found no driver"), out());
        assertTrue(out().contains("JPAI will run on Java threads."), out());
    }

    @Test
    void aSpecThatMatchesNothingExitsWithTwoAndOneLineOnStderr() {
        assertEquals(2, run(TestDevices.cpuOnly(), "foo"));
        assertEquals("jpai.device=foo matches no device; available: [0] pthread-haswell-AMD EPYC (CPU, Portable Computing Language), java",
                err().strip());
        assertEquals(1, err().strip().lines().count());
    }
}
