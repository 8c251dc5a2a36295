package jpai.compiler;

import jdk.graal.compiler.api.runtime.GraalJVMCICompiler;
import jdk.graal.compiler.debug.DebugContext;
import jdk.graal.compiler.hotspot.HotSpotBackend;
import jdk.graal.compiler.hotspot.HotSpotGraalRuntimeProvider;
import jdk.graal.compiler.options.OptionValues;
import jdk.graal.compiler.phases.PhaseSuite;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.graal.compiler.phases.util.Providers;
import jdk.vm.ci.runtime.JVMCI;

/**
 * The host JVM's Graal, used as a library: its providers (meta access, constant reflection,
 * lowering), its options and its bytecode parser configuration. HotSpot keeps C2 as its own JIT
 * ({@code -XX:-UseJVMCICompiler}); Graal only builds and optimises graphs for kernels.
 *
 * <p>Created once per JVM on first use, which is when JVMCI starts (about half a second).
 */
public final class GraalAccess {

    private static volatile GraalAccess instance;

    private final HotSpotBackend backend;
    private final Providers providers;
    private final OptionValues options;

    private GraalAccess() {
        Object compiler = jvmciCompiler();
        if (!(compiler instanceof GraalJVMCICompiler graal)) {
            throw new IllegalStateException("The JVMCI compiler is " + compiler.getClass().getName()
                    + ", not Graal: start the JVM with Graal's jars on --upgrade-module-path (README, \"Use JPAI in your project\").");
        }
        HotSpotGraalRuntimeProvider runtime = (HotSpotGraalRuntimeProvider) graal.getGraalRuntime();
        this.backend = runtime.getHostBackend();
        this.providers = backend.getProviders();
        this.options = runtime.getOptions();
    }

    /**
     * The JVMCI compiler, starting JVMCI if this is its first use, with the system class loader as
     * the thread's context class loader meanwhile: JVMCI finds Graal's compiler factory through the
     * thread's context class loader, and a loader that does not delegate to the system one (Spark
     * SQL's task threads have Spark's {@code ExecutorClassLoader}) makes it find none, after which
     * JVMCI keeps a compiler-less stand-in for the life of the JVM and every kernel falls back.
     */
    private static Object jvmciCompiler() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        try {
            return JVMCI.getRuntime().getCompiler();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The shared instance; starts JVMCI on first call. */
    public static GraalAccess get() {
        GraalAccess result = instance;
        if (result == null) {
            synchronized (GraalAccess.class) {
                result = instance;
                if (result == null) {
                    result = new GraalAccess();
                    instance = result;
                }
            }
        }
        return result;
    }

    public Providers providers() {
        return providers;
    }

    public OptionValues options() {
        return options;
    }

    /** Graal's default bytecode parser suite for this backend (with its intrinsics and plugins). */
    public PhaseSuite<HighTierContext> graphBuilderSuite() {
        return backend.getSuites().getDefaultGraphBuilderSuite();
    }

    /** A debug context for one compilation; Graal's dump options ({@code -Djdk.graal.Dump}) apply to it. */
    public DebugContext newDebugContext(String description) {
        return new DebugContext.Builder(options).description(new DebugContext.Description(description, description)).build();
    }
}
