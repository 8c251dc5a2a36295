package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's shortest command line: the agent, JVMCI's two flags, Graal's module path, native
 * access for JOCL. No --add-exports: the agent exports what JPAI uses, and the kernel runs. An
 * application jar started with {@code java -jar} names the agent and native access in its manifest
 * instead, and needs three flags.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class AgentCommandLineTest {

    @Test
    void theAgentAndTheFlagsOnlyACommandLineGivesRunTheKernelOnTheDevice() throws Exception {
        List<String> flags = new ArrayList<>(JpaiJars.agentFlags());
        flags.add("--enable-native-access=ALL-UNNAMED");
        flags.add("-Djpai.fallback=error"); // a fallback would be an exception and a non-zero exit
        ChildJvm.Run run = UnconfiguredJvmTest.probe(flags);
        assertDeviceRanQuietly(run);
    }

    @Test
    void anApplicationJarNamesTheAgentInItsManifestAndNeedsThreeFlags(@TempDir Path dir) throws Exception {
        Path jar = applicationJar(dir.resolve("app.jar"));
        ChildJvm.Run run = ChildJvm.java(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "--upgrade-module-path=" + JpaiJars.graalModulePath(),
                        "-Djpai.fallback=error", "-jar", jar.toString()));
        assertDeviceRanQuietly(run);
    }

    private static void assertDeviceRanQuietly(ChildJvm.Run run) {
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false"), run.toString());
        assertFalse(run.out().contains("kernels=0"), "a kernel was launched: " + run);
        assertTrue(run.out().contains("kernels="), run.toString());
        assertEquals(List.of(), run.jpaiLines(), "nothing is missing: " + run);
        assertFalse(run.err().contains("WARNING"), "the JVM has nothing to warn about: " + run);
    }

    /** A jar that holds only a manifest: SetupProbe as its main class, JPAI's jars and the test classes on its Class-Path, the agent and native access. */
    private static Path applicationJar(Path jar) throws IOException {
        Manifest manifest = new Manifest();
        Attributes attributes = manifest.getMainAttributes();
        attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.put(Attributes.Name.MAIN_CLASS, SetupProbe.class.getName());
        attributes.put(new Attributes.Name("Launcher-Agent-Class"), "jpai.agent.JpaiAgent");
        attributes.put(new Attributes.Name("Enable-Native-Access"), "ALL-UNNAMED");
        List<String> classPath = new ArrayList<>();
        for (Path entry : JpaiJars.all()) {
            classPath.add(entry.toUri().toString());
        }
        classPath.add(UnconfiguredJvmTest.testClasses().toUri().toString()); // a directory's URI ends in '/', as Class-Path wants
        attributes.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream unused = new JarOutputStream(out, manifest)) {
            return jar;
        }
    }
}
