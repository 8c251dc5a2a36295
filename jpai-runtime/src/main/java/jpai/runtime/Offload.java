package jpai.runtime;

import jpai.Executor;
import jpai.FallbackException;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.profile.Profiler;

/**
 * The decisions every skeleton makes the same way: whether to try the OpenCL device for an
 * executor (and whether this JVM can compile kernels at all: {@link JvmSetup}), whether it may run
 * in Java while its kernel compiles (tiering), and what a fallback to Java does (explain it once, or
 * throw with {@code -Djpai.fallback=error}).
 */
public final class Offload {

    private Offload() {
    }

    /**
     * The OpenCL device to try for {@code executor}, or null to run in Java. An explicit
     * {@link Executor#ACCELERATOR} with no device is a fallback, and said as one.
     */
    public static DeviceChoice.OpenCL device(Executor executor, java.util.function.Supplier<String> operation) {
        if (executor == Executor.SEQUENTIAL || executor == Executor.THREADS) {
            return null;
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        if (choice instanceof DeviceChoice.OpenCL device) {
            String missing = JvmSetup.problem();
            if (missing == null) {
                return device;
            }
            // A set-up problem is said by default, once: without it a user who forgot a flag gets
            // Java's results on Java threads and no sign that the device never ran.
            Explain.notice(missing);
            fallBack(operation.get(), missing);
            return null;
        }
        if (executor == Executor.ACCELERATOR) {
            fallBack(operation.get(), "no OpenCL device is in use (" + ((DeviceChoice.JavaThreads) choice).why() + ")");
        }
        return null;
    }

    /** Whether an operation of {@code executor} may run in Java while its kernel compiles ({@link JpaiOptions#TIERING}: {@code AUTO} only). */
    public static boolean mayTier(Executor executor) {
        return executor == Executor.AUTO && JpaiOptions.tiering();
    }

    /**
     * The operation runs on Java threads while its kernel compiles in the background: a choice, not
     * a fallback, so never an error; the profile and explain say so ({@code operation} is only
     * described when explain is on: its description may need Graal, which the apply is not to wait for).
     */
    public static void ranTiered(java.util.function.Supplier<String> operation) {
        Profiler.tiered();
        Explain.tiered(operation);
    }

    /** Whether {@code AUTO}'s cost model chooses where each apply of {@code executor} runs ({@link JpaiOptions#COST_MODEL}: {@code AUTO} only). */
    public static boolean mayRouteByCost(Executor executor) {
        return executor == Executor.AUTO && JpaiOptions.costModel();
    }

    /**
     * For an operation whose result is not shared between Java threads and the device (all but a
     * map): whether the cost model has this apply of {@code n} elements run on Java threads; false
     * when it is not in use ({@link #mayRouteByCost}) or chose the device.
     */
    static boolean javaByCost(Executor executor, CostModel costs, long n, java.util.function.Supplier<String> operation) {
        CostModel.Choice choice = chooseByCost(executor, costs, n, false, operation);
        return choice != null && choice.onJava();
    }

    /**
     * The cost model's choice for this apply of {@code n} elements ({@code mayShare}: whether the
     * apply may be shared between Java threads and the device), or null when it is not in use: the
     * profile records the choice and its reason (Java threads so chosen are not a fallback), and
     * explain says when the side changes.
     */
    static CostModel.Choice chooseByCost(Executor executor, CostModel costs, long n, boolean mayShare, java.util.function.Supplier<String> operation) {
        if (!mayRouteByCost(executor)) {
            return null;
        }
        CostModel.Choice choice = costs.choose(n, mayShare);
        Profiler.costChoice(choice.why(), choice.onJava());
        if (choice.sideChanged() || choice.measuring()) {
            Explain.costChoice(() -> operation.get() + " (cost model): " + choice.why());
        }
        return choice;
    }

    /**
     * The device ran the operation but an element took a Java exception path, or a speculation of
     * the kernel failed: Java runs what it must ({@code reason} says what), which gives Java's answer
     * or throws Java's exception. This is the speculation working as designed, not a fallback, so
     * {@code -Djpai.fallback=error} does not make it an error; nor is a kernel that could not take
     * this apply's data ({@code kernelRan} false: a ragged captured matrix, say), whose next apply may.
     */
    public static void deoptimized(String operation, String reason, boolean kernelRan) {
        Profiler.fellBack(reason);
        if (kernelRan) {
            Explain.kernelExited(operation, reason);
        } else {
            Explain.fallback(operation, reason);
        }
    }

    /** {@link #deoptimized} for an accelerated method: its original body runs from the start. */
    public static void methodDeoptimized(String method, String reason) {
        Profiler.fellBack(reason);
        Explain.methodReRan(method, reason);
    }

    /** The operation runs on Java threads instead of the device, for {@code reason}. */
    public static void fallBack(String operation, String reason) {
        fallBack(operation, reason, () -> Explain.fallback(operation, reason));
    }

    /** {@link #fallBack(String, String)} for an accelerated method, which runs in Java on the calling thread. */
    public static void methodFallBack(String method, String reason) {
        fallBack(method, reason, () -> Explain.methodInJava(method, reason));
    }

    private static void fallBack(String operation, String reason, Runnable explain) {
        if (JpaiOptions.fallbackIsError()) {
            throw new FallbackException(operation + " cannot run on OpenCL: " + reason, null);
        }
        Profiler.fellBack(reason);
        explain.run();
    }
}
