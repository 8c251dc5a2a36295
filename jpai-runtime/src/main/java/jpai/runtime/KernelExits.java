package jpai.runtime;

import jpai.compiler.Speculation;
import jpai.runtime.profile.Profiler;

/**
 * What the runtime does after a kernel exited ({@link KernelDeoptimizedException}): counts the exit
 * in the apply's profile, learns from a failed speculation (the functions' kernels are recompiled
 * without it, {@link KernelCache#speculationFailed}) and says it all under
 * {@code -Djpai.explain=true}. A Java exception path teaches nothing: the same data takes it again.
 */
final class KernelExits {

    private KernelExits() {
    }

    /**
     * @param operation the operation as explanations name it ("map of lambda at A.java:3")
     * @param exit the exit
     * @param rerun what Java does about it ("the operation re-ran in Java")
     * @param reexecuted how many elements Java runs again
     * @param functions the kernel caches of the functions fused into the kernel that exited
     */
    static void handle(String operation, KernelDeoptimizedException exit, String rerun, long reexecuted, KernelCache... functions) {
        Profiler.reexecuted(reexecuted);
        if (!exit.kernelExited()) {
            // no kernel ran: its message already says that the operation ran in Java, and why
            Offload.deoptimized(operation, exit.getMessage(), false);
            return;
        }
        StringBuilder why = new StringBuilder(exit.getMessage()).append("; ").append(rerun);
        Speculation failed = exit.reason().speculation();
        Profiler.kernelExit(failed != null);
        if (failed != null) {
            for (KernelCache function : functions) {
                why.append("; ").append(function.speculationFailed(failed));
            }
        }
        Offload.deoptimized(operation, why.toString(), true);
    }
}
