package jpai.test.plugins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * The runtime's kernel cache keys on the phase plugins: one function applied with a plugin, then
 * without, then with it again compiles twice and serves the first kernel the third time; the
 * kernel dump has both programs, the plugin's named in its header.
 */
class PhasePluginCacheTest {

    @AfterEach
    void clear() {
        System.clearProperty("jpai.phases");
        System.clearProperty("jpai.dump.opencl");
        System.clearProperty("jpai.fallback");
    }

    private static ApplyProfile apply(ArrayFunction<Integer, Integer> function, int[] data, int[] expected) {
        System.setProperty("jpai.fallback", "error");
        try (PArray<Integer> in = PArray.of(data); PArray<Integer> out = function.on(Executor.ACCELERATOR).apply(in)) {
            assertArrayEquals(expected, out.toIntArray());
            ApplyProfile profile = AF.lastProfile();
            assertTrue(!profile.fellBack() && profile.kernelCount() > 0, profile.toString());
            return profile;
        } finally {
            System.clearProperty("jpai.fallback");
        }
    }

    @Test
    void aKernelCompiledWithAPluginIsNeverServedWithoutIt(@TempDir Path dumps) throws IOException {
        assumeTrue(PhasePluginExampleTest.openCLExpected(), "the kernel cache is used when a device runs kernels");
        System.setProperty("jpai.dump.opencl", dumps.toString());
        ArrayFunction<Integer, Integer> remainder = AF.map((Integer x) -> x % 16, Integer.class);
        int[] data = {-33, -16, -1, 0, 1, 15, 16, 17, Integer.MIN_VALUE, Integer.MAX_VALUE};
        int[] expected = {-1, 0, -1, 0, 1, 15, 0, 1, 0, 15};

        System.setProperty("jpai.phases", PhasePluginExampleTest.EXAMPLE);
        assertTrue(apply(remainder, data, expected).graalNanos() > 0, "compiled with the plugin");
        System.clearProperty("jpai.phases");
        assertTrue(apply(remainder, data, expected).graalNanos() > 0, "compiled again without it, not served the plugin's kernel");
        System.setProperty("jpai.phases", PhasePluginExampleTest.EXAMPLE);
        assertEquals(0, apply(remainder, data, expected).graalNanos(), "the plugin's kernel, served from the cache");

        List<String> programs;
        try (Stream<Path> files = Files.list(dumps)) {
            programs = files.sorted().map(file -> {
                try {
                    return Files.readString(file);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        assertEquals(2, programs.size(), "one program with the plugin, one without: " + programs);
        String withPlugin = programs.get(0).contains("phase plugins") ? programs.get(0) : programs.get(1);
        String without = withPlugin == programs.get(0) ? programs.get(1) : programs.get(0);
        assertTrue(withPlugin.contains("// With the phase plugins " + PowerOfTwoRemaindersAsMasksPhase.class.getName()) && !PhasePluginExampleTest.elementFunction(withPlugin).contains("%"),
                        withPlugin);
        assertTrue(PhasePluginExampleTest.elementFunction(without).contains("% 16") && !without.contains("phase plugins"), without);
    }
}
