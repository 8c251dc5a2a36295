package jpai.compiler.phases;

import java.util.Map;

import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.ResolvedJavaMethod;

/**
 * JDK methods that kernels never compute: a path that calls one becomes an exit
 * ({@link DeoptimizationReason#TransferToInterpreter}), so the operation runs in Java for the inputs
 * that take it. {@link KernelInliningPolicy} does not inline them, and
 * {@link ExceptionPathsToDeoptimizationPhase} treats a call of one like a throw.
 *
 * <p>Why each is here:
 * <ul>
 * <li>{@code FdLibm.KernelRemPio2.__kernel_rem_pio2}: the argument reduction of {@code sin},
 * {@code cos} and {@code tan} for {@code |x| >= 2^19 pi/2}, which loops over arrays with computed
 * indices that cannot become kernel variables (the backend has no local arrays). The arguments
 * below it, all but astronomically large angles, are reduced by code that compiles; so the kernel
 * computes those bit for bit and leaves the rest to Java.</li>
 * </ul>
 */
public final class MethodsLeftToJava {

    /** "declaring class name.method name" → what the exit means, for explanations. */
    private static final Map<String, String> METHODS = Map.of(
                    "java.lang.FdLibm$KernelRemPio2.__kernel_rem_pio2", "the argument reduction of sin, cos or tan for |x| >= 2^19 pi/2");

    private MethodsLeftToJava() {
    }

    /** Whether kernels leave calls of {@code method} to Java. */
    public static boolean contains(ResolvedJavaMethod method) {
        return method != null && METHODS.containsKey(key(method));
    }

    /** What a call of {@code method} computes, for explanations; null if it is not one of them. */
    public static String description(ResolvedJavaMethod method) {
        return method == null ? null : METHODS.get(key(method));
    }

    private static String key(ResolvedJavaMethod method) {
        return method.getDeclaringClass().toJavaName() + "." + method.getName();
    }
}
