package jpai.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The agent exports exactly the packages the argfile exports: both come from the root pom's jpai.graal.exports. */
class RequiredExportsTest {

    @Test
    void theAgentsListIsTheArgfilesList() throws Exception {
        Path argfile = Path.of(System.getProperty("jpai.argfile"));
        List<String> argfileExports = Files.readAllLines(argfile).stream().map(String::strip).filter(line -> line.startsWith("--add-exports=")).toList();
        List<String> agentExports = RequiredExports.all().stream().map(RequiredExports.PackageExport::flag).toList();
        assertTrue(agentExports.size() > 1, agentExports.toString());
        assertEquals(argfileExports, agentExports);
    }

    @Test
    void everyPackageIsInTheModuleTheListNames() {
        for (RequiredExports.PackageExport export : RequiredExports.all()) {
            Module module = ModuleLayer.boot().findModule(export.module()).orElseThrow(() -> new AssertionError("no module " + export.module()));
            assertTrue(module.getPackages().contains(export.packageName()), export.flag());
        }
    }
}
