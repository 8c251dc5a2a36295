package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The README's shortest command line: the agent, JVMCI's two flags, Graal's module path, native
 * access for JOCL. No --add-exports: the agent exports what JPAI uses, and the kernel runs.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class AgentCommandLineTest {

    @Test
    void theAgentAndTheFlagsOnlyACommandLineGivesRunTheKernelOnTheDevice() throws Exception {
        List<String> flags = new ArrayList<>(JpaiJars.agentFlags());
        flags.add("--enable-native-access=ALL-UNNAMED");
        flags.add("-Djpai.fallback=error"); // a fallback would be an exception and a non-zero exit
        ChildJvm.Run run = UnconfiguredJvmTest.probe(flags);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false"), run.toString());
        assertFalse(run.out().contains("kernels=0"), "a kernel was launched: " + run);
        assertTrue(run.out().contains("kernels="), run.toString());
        assertEquals(List.of(), run.jpaiLines(), "nothing is missing: " + run);
        assertFalse(run.err().contains("WARNING"), "the JVM has nothing to warn about: " + run);
    }
}
