package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example of accelerated methods, {@code jpai.examples.AnnotatedLoops}, started by a
 * plain {@code java -javaagent:jpai-agent.jar ... -cp ...} command line, as a user starts it: every
 * method's result is Java's and every method ran on the device ({@code -Djpai.explain=true} says
 * so). The example lives in the benchmarks module, which the reactor builds after this one: the test
 * compiles its source, against JPAI's runtime jar, as the user's build would.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class AnnotatedLoopsCommandLineTest {

    /** The example's source: from the test module's directory (Surefire's), or from the checkout's root. */
    private static final Path SOURCE = Files.isRegularFile(Path.of("..", "benchmarks", "src", "main", "java", "jpai", "examples", "AnnotatedLoops.java"))
                    ? Path.of("..", "benchmarks", "src", "main", "java", "jpai", "examples", "AnnotatedLoops.java")
                    : Path.of("benchmarks", "src", "main", "java", "jpai", "examples", "AnnotatedLoops.java");
    private static final List<String> METHODS = List.of("saxpy", "saxpyResident", "matmul", "matmul2D", "countAbove");

    @Test
    void everyAnnotatedMethodRunsOnTheDeviceWithJavasResult(@TempDir Path classes) throws Exception {
        assertTrue(Files.isRegularFile(SOURCE), "the example's source is at " + SOURCE.toAbsolutePath());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(null, null, null, "-g", "-d", classes.toString(), "-cp", JpaiJars.classPath(JpaiJars.all()), SOURCE.toString());
        assertEquals(0, compiled, "javac compiled the example");

        List<String> command = new ArrayList<>(JpaiJars.agentFlags());
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-Djpai.explain=true");
        List<Path> classPath = new ArrayList<>(JpaiJars.all());
        classPath.add(classes);
        command.add("-cp");
        command.add(JpaiJars.classPath(classPath));
        command.add("jpai.examples.AnnotatedLoops");
        command.add("20000"); // elements
        command.add("48"); // matrix side
        ChildJvm.Run run = ChildJvm.java(command);

        assertEquals(0, run.exitCode(), run.toString());
        assertFalse(run.out().contains("DIFFERENT"), run.toString());
        assertEquals(METHODS.size(), run.out().lines().filter(line -> line.endsWith("same as Java")).count(), run.toString());
        for (String method : METHODS) {
            assertTrue(run.err().contains("AnnotatedLoops::" + method + " at AnnotatedLoops.java:") && run.err().lines()
                            .anyMatch(line -> line.contains("AnnotatedLoops::" + method + " at") && line.contains("ran on the OpenCL device")), method + " ran on the device: " + run);
        }
    }
}
