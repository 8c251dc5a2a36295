package jpai.agent;

import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * JPAI's java agent: {@code java -javaagent:jpai-agent.jar ...}. Before {@code main}, it exports the
 * JVMCI and Graal packages JPAI uses ({@link RequiredExports}) to JPAI's modules, which replaces the
 * {@code --add-exports} flags. Native access for JOCL stays a flag ({@code --enable-native-access}):
 * no public API grants it to a module of the boot layer, and the JVM's own warning names the flag.
 * What only a command line can give (JVMCI, Graal on the upgrade module path) it cannot: a module
 * missing from the JVM is skipped here, and JPAI's runtime names the missing flag on the first
 * apply, so the agent itself never prints and never fails the JVM's start.
 *
 * <p>It also rewrites, as their classes load, the methods marked {@code @Accelerate}
 * ({@link AcceleratedMethodsTransformer}), and lets their modules call the runtime's entry point
 * when JPAI is the named module {@code jpai} ({@link RuntimeEntryAccess}); other classes load
 * unchanged.
 */
public final class JpaiAgent {

    /** Set once the agent ran, so that the runtime can tell "no agent" from "the agent could not reach JPAI's class loader". */
    public static final String INSTALLED_PROPERTY = "jpai.agent.installed";

    private JpaiAgent() {
    }

    /** {@code -javaagent:jpai-agent.jar}. */
    public static void premain(String arguments, Instrumentation instrumentation) {
        install(instrumentation);
    }

    /** {@code Launcher-Agent-Class: jpai.agent.JpaiAgent} in an application jar started with {@code java -jar}. */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        install(instrumentation);
    }

    static void install(Instrumentation instrumentation) {
        Set<Module> targets = JpaiModules.inThisJvm();
        exportRequiredPackages(instrumentation, RequiredExports.all(), targets);
        instrumentation.addTransformer(new AcceleratedMethodsTransformer(new RuntimeEntryAccess(instrumentation)));
        System.setProperty(INSTALLED_PROPERTY, "true");
    }

    /** Exports each package whose module is in this JVM to every one of {@code targets}, one redefinition per module. */
    static void exportRequiredPackages(Instrumentation instrumentation, List<RequiredExports.PackageExport> exports, Set<Module> targets) {
        Map<Module, Map<String, Set<Module>>> byModule = new HashMap<>();
        for (RequiredExports.PackageExport export : exports) {
            Optional<Module> module = ModuleLayer.boot().findModule(export.module());
            if (module.isEmpty() || !module.get().getPackages().contains(export.packageName())) {
                continue; // no JVMCI or no Graal: the runtime says which flag is missing
            }
            byModule.computeIfAbsent(module.get(), m -> new HashMap<>()).put(export.packageName(), new HashSet<>(targets));
        }
        byModule.forEach((module, packages) -> instrumentation.redefineModule(module, Set.of(), packages, Map.of(), Set.of(), Map.of()));
    }
}
