package jpai.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lets the classes the agent rewrites reach the runtime's entry point for accelerated methods,
 * {@code jpai.runtime.loops.AcceleratedMethods}, whatever module they are in. On the module path the
 * runtime is the named module {@code jpai}, which exports only the API package {@code jpai}; a
 * rewritten method calls {@code jpai.runtime.loops} from the user's module, so the agent exports
 * that one package to that one module (and makes it read {@code jpai}) before the class is defined.
 * No other module gets it. On the class path the runtime is in an unnamed module, which exports
 * everything: there is nothing to do.
 */
final class RuntimeEntryAccess {

    /** The runtime's module name (its module-info) and the package of its entry point ({@link AcceleratedMethodRewriter}). */
    static final String RUNTIME_MODULE = "jpai";
    static final String ENTRY_PACKAGE = "jpai.runtime.loops";

    private final Instrumentation instrumentation;

    RuntimeEntryAccess(Instrumentation instrumentation) {
        this.instrumentation = instrumentation;
    }

    /** Makes {@code user}, a module with a class being rewritten, read the runtime and see its entry package. */
    void grantTo(Module user) {
        Optional<Module> runtime = runtimeModuleSeenBy(user);
        if (runtime.isEmpty() || runtime.get() == user) {
            return;
        }
        Module jpai = runtime.get();
        if (!jpai.isExported(ENTRY_PACKAGE, user)) {
            instrumentation.redefineModule(jpai, Set.of(), Map.of(ENTRY_PACKAGE, Set.of(user)), Map.of(), Set.of(), Map.of());
        }
        if (!user.canRead(jpai)) {
            instrumentation.redefineModule(user, Set.of(jpai), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }

    /** The named module {@code jpai} in the user's layer or its parents (the boot layer for the class path); empty when JPAI is on the class path. */
    private static Optional<Module> runtimeModuleSeenBy(Module user) {
        ModuleLayer layer = user.getLayer() != null ? user.getLayer() : ModuleLayer.boot();
        return layer.findModule(RUNTIME_MODULE).filter(module -> module.getPackages().contains(ENTRY_PACKAGE));
    }
}
