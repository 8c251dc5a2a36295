package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The sentence for each thing a JVM can lack, found from a module layer and the modules JPAI's code
 * is in. The tests run with build/jpai.argfile, which exports every package to the class path.
 */
class JvmSetupTest {

    private static final Module CLASS_PATH = JvmSetupTest.class.getModule();

    @Test
    void thisJvmLacksNothing() {
        assertNull(JvmSetup.find(ModuleLayer.boot(), Set.of(CLASS_PATH)));
        assertNull(JvmSetup.problem());
    }

    @Test
    void aLayerWithoutJvmciNamesJvmciAndGraalsFlags() {
        String problem = JvmSetup.find(ModuleLayer.empty(), Set.of(CLASS_PATH));
        assertTrue(problem.startsWith("this JVM has no JVMCI and no Graal compiler"), problem);
        assertTrue(problem.contains("add -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI --upgrade-module-path="), problem);
    }

    @Test
    void packagesNotExportedToANamedModuleNameThatModuleAndTheAgent() {
        // java.logging stands for a JPAI module on the module path that nothing exported Graal's packages to.
        Module named = ModuleLayer.boot().findModule("java.logging").orElseThrow();
        String problem = JvmSetup.find(ModuleLayer.boot(), Set.of(CLASS_PATH, named));
        assertTrue(problem.contains("are not exported to JPAI's module java.logging"), problem);
        assertTrue(problem.contains("add -javaagent:"), problem);
    }
}
