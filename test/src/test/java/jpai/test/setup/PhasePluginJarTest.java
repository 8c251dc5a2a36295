package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import jpai.compiler.plugin.PhasePluginLoader;
import jpai.test.plugins.PluginProbe;
import jpai.test.plugins.PowerOfTwoRemaindersPlugin;

/**
 * A researcher's path, in a JVM of its own started as the README says (the agent and three flags):
 * a jar whose service file names a phase plugin is put on the class path, and with no property set
 * the plugin runs on every kernel; the kernel dump names it, and Graal's {@code .bgv} dump has the
 * graph before it ("JPAI after Graal high tier") and after it ("JPAI after phase plugin ...").
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class PhasePluginJarTest {

    private static final String NAME = new PowerOfTwoRemaindersPlugin().name();

    @Test
    void aPluginJarOnTheClassPathRunsAndItsEffectIsInTheKernelAndGraalDumps(@TempDir Path dir) throws Exception {
        Path jar = serviceJar(dir.resolve("remainders-plugin.jar"));
        Path kernels = dir.resolve("kernels");
        Path graphs = dir.resolve("graphs");
        List<String> arguments = new ArrayList<>(JpaiJars.agentFlags());
        arguments.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-Djpai.fallback=error", "-Djpai.dump.opencl=" + kernels, "-Djdk.graal.Dump=:1",
                        "-Djdk.graal.PrintGraph=File", "-Djdk.graal.DumpPath=" + graphs, "-cp"));
        List<Path> classPath = new ArrayList<>(JpaiJars.all());
        classPath.add(UnconfiguredJvmTest.testClasses());
        classPath.add(jar);
        arguments.add(JpaiJars.classPath(classPath));
        arguments.add(PluginProbe.class.getName());

        ChildJvm.Run run = ChildJvm.java(arguments);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false") && !run.out().contains("kernels=0"), run.toString());

        List<Path> programs = files(kernels, ".cl");
        assertEquals(1, programs.size(), programs.toString());
        String program = Files.readString(programs.get(0));
        assertTrue(program.contains("// With the phase plugins " + NAME + " (after Graal high tier)\n") && !program.contains("% -32") && !program.contains("% 32"), program);

        List<Path> dumps = files(graphs, ".bgv");
        assertEquals(1, dumps.size(), "one Graal dump, of the probe's lambda: " + dumps);
        String strings = new String(Files.readAllBytes(dumps.get(0)), StandardCharsets.ISO_8859_1);
        int before = strings.indexOf("JPAI after Graal high tier");
        int after = strings.indexOf("JPAI after phase plugin " + NAME);
        assertTrue(before >= 0 && after > before, "the graph before the plugin, then after it, in " + dumps.get(0));
    }

    /** A jar holding only the service file that names the example plugin (its classes come from the test classes). */
    private static Path serviceJar(Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream entries = new JarOutputStream(out)) {
            entries.putNextEntry(new JarEntry(PhasePluginLoader.SERVICE_FILE));
            entries.write((PowerOfTwoRemaindersPlugin.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            entries.closeEntry();
        }
        return jar;
    }

    private static List<Path> files(Path directory, String suffix) throws IOException {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> file.toString().endsWith(suffix)).toList();
        }
    }
}
