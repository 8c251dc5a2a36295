package jpai.test.setup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * JPAI's first use of JVMCI on a thread whose context class loader does not delegate to the system
 * class loader (Spark SQL's task threads, some application servers): JVMCI looks Graal's compiler
 * factory up through that loader, found none, and kept a compiler-less stand-in for the JVM's life,
 * so every kernel fell back to Java. JPAI now starts JVMCI with the system loader as the context
 * loader ({@code GraalAccess}); the map runs on the device.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class ContextClassLoaderTest {

    @Test
    void aKernelCompilesWhenJvmciFirstStartsUnderAForeignContextClassLoader() throws Exception {
        List<String> arguments = new ArrayList<>(JpaiJars.agentFlags());
        arguments.addAll(List.of("-cp", JpaiJars.classPath(JpaiJars.all()) + java.io.File.pathSeparator + UnconfiguredJvmTest.testClasses(), SetupProbe.class.getName(),
                        "foreign-context-loader"));
        ChildJvm.Run run = ChildJvm.java(arguments);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("matches=true") && run.out().contains("fellBack=false") && !run.out().contains("kernels=0"), run.toString());
    }
}
