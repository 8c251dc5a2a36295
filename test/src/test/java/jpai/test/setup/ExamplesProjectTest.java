package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code examples/}, a user's own Maven project written with only the README's snippets, built
 * offline against this build's artifacts: its test runs with the README's Surefire argLine and
 * {@code -Djpai.fallback=error} (so it passes only if the device ran), and its main runs twice, with
 * the README's {@code mvn compile exec:exec} (exec-maven-plugin) and with the README's plain
 * {@code java} command line, and must report launched kernels each time. Maven's plugins, the
 * exec plugin included, come from the outer build's local repository, linked into a fresh one
 * ({@link LocalRepositoryOfThisBuild}); the exec plugin, which JPAI's build does not use, is
 * downloaded there by the test module's {@code dependency:get} (test/pom.xml).
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ExamplesProjectTest {

    @Test
    void theExamplesProjectBuildsTestsAndRunsOnTheDeviceWithTheReadmesSnippets(@TempDir Path dir) throws Exception {
        Path checkout = Path.of(System.getProperty("jpai.checkout"));
        Path repository = LocalRepositoryOfThisBuild.create(dir.resolve("repository"), checkout, Path.of(System.getProperty("jpai.maven.repo.local")));
        Path project = copy(checkout.resolve("examples"), dir.resolve("examples"));
        Path classPathFile = dir.resolve("classpath.txt");

        ChildJvm.Run build = ChildJvm.run(List.of("mvn", "-o", "-B", "-Dmaven.repo.local=" + repository, "verify", "dependency:build-classpath",
                        "-Dmdep.outputFile=" + classPathFile), project.toFile(), 480);
        assertEquals(0, build.exitCode(), build.toString());
        assertTrue(build.out().contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"), "the example's device test ran and passed: " + build);

        // The README's exec:exec: the main in a JVM of its own, with the flags of the README's snippet.
        ChildJvm.Run exec = ChildJvm.run(List.of("mvn", "-o", "-B", "-Dmaven.repo.local=" + repository, "compile", "exec:exec"), project.toFile(), 300);
        assertEquals(0, exec.exitCode(), exec.toString());
        assertRanOnTheDevice(exec);

        // The README's java command line: the agent and Graal from the local repository, the project's jar and dependencies.
        String version = LocalRepositoryOfThisBuild.VERSION;
        String agent = repository.resolve("dev/jpai/jpai-agent/" + version + "/jpai-agent-" + version + ".jar").toString();
        List<String> java = new ArrayList<>(List.of("-javaagent:" + agent, "-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI",
                        "--upgrade-module-path=" + JpaiJars.graalModulePath(), "--enable-native-access=ALL-UNNAMED"));
        java.addAll(List.of("-cp", project.resolve("target/jpai-example-1.0.jar") + ":" + Files.readString(classPathFile).strip(), "com.example.Saxpy"));
        ChildJvm.Run run = ChildJvm.java(java);
        assertEquals(0, run.exitCode(), run.toString());
        assertRanOnTheDevice(run);
    }

    /** The example's main printed that its result matches Java's and that it launched kernels, and JPAI said nothing. */
    private static void assertRanOnTheDevice(ChildJvm.Run run) {
        assertTrue(run.out().contains("matches Java"), run.toString());
        assertTrue(run.out().contains("kernels launched: ") && !run.out().contains("kernels launched: 0"), "the device ran: " + run);
        assertFalse(run.out().contains("Java threads"), run.toString());
        assertEquals(List.of(), run.jpaiLines(), run.toString());
        assertFalse(run.out().lines().anyMatch(line -> line.startsWith("jpai:")), "no jpai: line: " + run);
    }

    /** The project's pom and sources (not a target/ a developer may have left in the checkout). */
    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        Files.copy(from.resolve("pom.xml"), to.resolve("pom.xml"));
        try (Stream<Path> files = Files.walk(from.resolve("src"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        return to;
    }
}
