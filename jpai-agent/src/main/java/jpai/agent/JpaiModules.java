package jpai.agent;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The modules JPAI's classes live in, in this JVM: its named modules when its jars are on the module
 * path ({@code jpai} and the {@code Automatic-Module-Name}s), and the class path's unnamed module: the modules the
 * JVMCI and Graal packages are exported to.
 */
public final class JpaiModules {

    /** The module name of each JPAI artifact that uses JVMCI or Graal: jpai-runtime's module-info's, the others' Automatic-Module-Name (set in the poms). */
    public static final List<String> NAMES = List.of("jpai.compiler", "jpai.ocl", "jpai", "jpai.bench", "jpai.test");

    private JpaiModules() {
    }

    /**
     * The class path's unnamed module and those of JPAI's named modules that are in the boot layer.
     * Another class loader's unnamed module (an application server's, Maven's exec:java) is not
     * among them: the runtime names the flag to add when it finds itself there.
     */
    static Set<Module> inThisJvm() {
        Set<Module> modules = new LinkedHashSet<>();
        modules.add(ClassLoader.getSystemClassLoader().getUnnamedModule());
        for (String name : NAMES) {
            ModuleLayer.boot().findModule(name).ifPresent(modules::add);
        }
        return modules;
    }
}
