package jpai.runtime;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import jpai.agent.JpaiAgent;
import jpai.agent.RequiredExports;

/**
 * What this JVM lacks for JPAI to compile kernels, found from its modules alone (no JVMCI is
 * started): JVMCI, the Graal compiler on the upgrade module path, and the JVMCI and Graal packages
 * exported to JPAI's modules (the agent's work). The answer is one sentence that names the exact
 * flags to add, or null when nothing is missing. A user who forgot a flag gets Java's results, on
 * Java threads; this sentence is how they learn why, once, without a stack trace.
 */
final class JvmSetup {

    private static final String JVMCI_MODULE = "jdk.internal.vm.ci";
    private static final String GRAAL_MODULE = "jdk.graal.compiler";
    /** A package only the real Graal has: JDK 25's own jdk.graal.compiler module is an empty placeholder. */
    private static final String GRAAL_PACKAGE = "jdk.graal.compiler.hotspot";
    private static final List<String> GRAAL_ARTIFACTS = List.of("org.graalvm.compiler:compiler", "org.graalvm.sdk:collections", "org.graalvm.sdk:word",
                    "org.graalvm.truffle:truffle-compiler");
    private static final String SEE = " (README, \"Use JPAI in your project\")";

    private JvmSetup() {
    }

    /** This JVM's problem, found once. */
    static String problem() {
        return Found.PROBLEM;
    }

    private static final class Found {
        static final String PROBLEM = find(ModuleLayer.boot(), jpaiModules());
    }

    /** The modules of JPAI's code that use JVMCI and Graal: the compiler's, the backend's and the runtime's. */
    private static Set<Module> jpaiModules() {
        Set<Module> modules = new LinkedHashSet<>();
        modules.add(jpai.compiler.KernelGraph.class.getModule());
        modules.add(jpai.ocl.KernelSource.class.getModule());
        modules.add(JvmSetup.class.getModule());
        return modules;
    }

    /** The problem of a JVM whose boot layer is {@code layer}, for JPAI's code in {@code jpaiModules}; null when there is none. */
    static String find(ModuleLayer layer, Set<Module> jpaiModules) {
        boolean jvmci = layer.findModule(JVMCI_MODULE).isPresent();
        boolean graal = layer.findModule(GRAAL_MODULE).map(m -> m.getPackages().contains(GRAAL_PACKAGE)).orElse(false);
        if (!jvmci || !graal) {
            List<String> flags = new ArrayList<>();
            if (!jvmci) {
                flags.add("-XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI");
            }
            flags.add(upgradeModulePathFlag());
            String lacks = !jvmci ? "has no JVMCI and no Graal compiler" : "has no Graal compiler (JDK 25's jdk.graal.compiler module is empty)";
            return "this JVM " + lacks + ", so JPAI cannot compile kernels and every operation runs on Java threads: add "
                            + String.join(" ", flags) + " to the java command line" + SEE + ".";
        }
        List<RequiredExports.PackageExport> missing = new ArrayList<>();
        Module notReached = null;
        for (RequiredExports.PackageExport export : RequiredExports.all()) {
            Optional<Module> owner = layer.findModule(export.module());
            for (Module module : jpaiModules) {
                if (owner.isEmpty() || !owner.get().isExported(export.packageName(), module)) {
                    missing.add(export);
                    notReached = module;
                    break;
                }
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        String packages = missing.size() + " of the JVMCI and Graal packages JPAI uses (" + missing.get(0).module() + "/" + missing.get(0).packageName()
                        + (missing.size() > 1 ? " and " + (missing.size() - 1) + " more" : "") + ") are not exported to " + describe(notReached);
        if (Boolean.getBoolean(JpaiAgent.INSTALLED_PROPERTY)) {
            // The agent ran but exported to the class path's and JPAI's named modules only.
            return packages + ", which JPAI's agent does not reach (JPAI was loaded by " + notReached.getClassLoader()
                            + "), so every operation runs on Java threads: put JPAI's jars on the application class path or module path, or add "
                            + missing.get(0).flag() + " and the other flags in jpai-agent's jpai/agent/exports.txt" + SEE + ".";
        }
        return packages + ", so every operation runs on Java threads: add " + agentFlag() + " to the java command line (the agent exports them)" + SEE + ".";
    }

    private static String describe(Module module) {
        return module.isNamed() ? "JPAI's module " + module.getName() : "the class path";
    }

    /** {@code -javaagent:} and the agent jar JPAI was loaded with, when it is a jar. */
    private static String agentFlag() {
        return "-javaagent:" + jarOf(JpaiAgent.class).orElse("<path to jpai-agent.jar>");
    }

    /**
     * {@code --upgrade-module-path=} and Graal's jars: those on the class path (a Maven project that
     * depends on jpai-runtime has them there), else the artifacts to fetch.
     */
    private static String upgradeModulePathFlag() {
        String version = graalVersion();
        List<String> found = new ArrayList<>();
        for (String artifact : GRAAL_ARTIFACTS) {
            String fileName = artifact.substring(artifact.indexOf(':') + 1) + "-" + version + ".jar";
            for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                if (!entry.isEmpty() && Path.of(entry).getFileName() != null && Path.of(entry).getFileName().toString().equals(fileName)) {
                    found.add(entry);
                    break;
                }
            }
        }
        if (found.size() == GRAAL_ARTIFACTS.size()) {
            return "--upgrade-module-path=" + String.join(File.pathSeparator, found);
        }
        List<String> jars = new ArrayList<>();
        for (String artifact : GRAAL_ARTIFACTS) {
            jars.add("<" + artifact + ":" + version + " jar>");
        }
        return "--upgrade-module-path=" + String.join(File.pathSeparator, jars);
    }

    private static Optional<String> jarOf(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(source.getLocation().toURI());
            return path.toString().endsWith(".jar") ? Optional.of(path.toString()) : Optional.empty();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String graalVersion() {
        try (InputStream in = JvmSetup.class.getResourceAsStream("graal.properties")) {
            if (in == null) {
                throw new IllegalStateException("jpai-runtime is built wrongly: its resource jpai/runtime/graal.properties is missing");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("graal.version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
