/**
 * JPAI's API: the package {@code jpai} (functions over arrays, {@code PArray}, the executors, the
 * annotations {@code Accelerate}, {@code Parallel} and {@code Reduce} of accelerated methods). The
 * runtime, {@code jpai.runtime.*}, is not exported: nothing a user writes needs it, and it may change
 * in any commit (docs/api-surface.md).
 *
 * <p>Methods that JPAI's agent rewrites ({@code @Accelerate}) call {@code jpai.runtime.loops} from
 * the user's module: the agent exports that package to each module whose classes it rewrites, as
 * they load, and to no other. A user module whose lambdas capture values opens its package to this
 * module ({@code opens com.example.app to jpai;}), so that the runtime can read the captured values.
 */
module jpai {
    exports jpai;

    // JVMCI and Graal are there only when the JVM is started with their flags (-XX:+EnableJVMCI,
    // --upgrade-module-path): static, so that a JVM without them still starts, runs every operation
    // in Java and is told the flag to add (jpai.runtime.JvmSetup). Their packages are exported to
    // this module by the agent (or --add-exports=...=jpai).
    requires static jdk.internal.vm.ci;
    requires static jdk.graal.compiler;

    // JPAI's other jars and JOCL are automatic modules (Automatic-Module-Name; JOCL's from its file name).
    requires jpai.compiler;
    requires jpai.ocl;
    requires jpai.agent;
    requires jocl;
}
