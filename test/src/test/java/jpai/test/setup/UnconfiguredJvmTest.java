package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * A user's JVM that lacks a flag JPAI needs computes Java's results on Java threads and says, once,
 * in one line and without a stack trace, exactly which flag to add: JVMCI, Graal's module path, the
 * agent. (The SIGFPE line for a JVM without libjsig: jpai-runtime's SignalChainingTest.) With no
 * OpenCL device there is nothing a flag would change, so these run where OpenCL exists.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class UnconfiguredJvmTest {

    @Test
    void withNoFlagsTheLineNamesJvmciAndGraalsModulePath() throws Exception {
        ChildJvm.Run run = probe(List.of());
        String line = onlyLine(run);
        assertTrue(line.contains("add -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="), run.toString());
        assertJavasResultsWithoutStackTrace(run);
    }

    @Test
    void withJvmciButNoGraalTheLineNamesGraalsModulePathAlone() throws Exception {
        ChildJvm.Run run = probe(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI"));
        String line = onlyLine(run);
        assertTrue(line.contains("has no Graal compiler") && line.contains("add --upgrade-module-path="), run.toString());
        assertFalse(line.contains("EnableJVMCI"), "JVMCI is there: " + run);
        assertJavasResultsWithoutStackTrace(run);
    }

    @Test
    void withGraalButNoAgentTheLineNamesTheAgentJar() throws Exception {
        ChildJvm.Run run = probe(List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+EnableJVMCI", "--upgrade-module-path=" + JpaiJars.graalModulePath()));
        String line = onlyLine(run);
        assertTrue(line.contains("are not exported to the class path") && line.contains("add -javaagent:" + JpaiJars.agent() + " "), run.toString());
        assertJavasResultsWithoutStackTrace(run);
    }

    /** SetupProbe on the class path of JPAI's jars, with {@code flags} and nothing else. */
    static ChildJvm.Run probe(List<String> flags) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(flags);
        arguments.addAll(List.of("-cp", JpaiJars.classPath(JpaiJars.all()) + java.io.File.pathSeparator + testClasses(), SetupProbe.class.getName()));
        return ChildJvm.java(arguments);
    }

    private static String onlyLine(ChildJvm.Run run) {
        assertEquals(1, run.jpaiLines().size(), "exactly one line from JPAI: " + run);
        return run.jpaiLines().get(0);
    }

    private static void assertJavasResultsWithoutStackTrace(ChildJvm.Run run) {
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true"), run.toString());
        assertTrue(run.out().contains("fellBack=true") && run.out().contains("kernels=0"), run.toString());
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), "no stack trace: " + run);
    }

    static Path testClasses() {
        try {
            return Path.of(SetupProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
