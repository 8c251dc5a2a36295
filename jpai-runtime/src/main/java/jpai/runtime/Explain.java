package jpai.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Says why work ran where it ran. Each distinct message is printed once per JVM, to standard
 * error, prefixed {@code jpai:}. Fallbacks of one operation are printed only with
 * {@code -Djpai.explain=true}; facts about the whole run (no OpenCL at all) always.
 */
public final class Explain {

    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    private Explain() {
    }

    /** An operation ran on Java threads instead of OpenCL. Printed with -Djpai.explain=true. */
    public static void fallback(String operation, String reason) {
        if (JpaiOptions.explain()) {
            once(operation + " runs on Java threads: " + reason);
        }
    }

    /**
     * An operation's kernel exited at an element, and Java ran the elements it had to
     * ({@code reason} says which, and what the runtime learnt). Printed with -Djpai.explain=true.
     */
    public static void kernelExited(String operation, String reason) {
        if (JpaiOptions.explain()) {
            once(operation + " left the device: " + reason);
        }
    }

    /** Stages of a composed function were fused into one kernel. Printed with -Djpai.explain=true. */
    public static void fused(String stages, String how) {
        if (JpaiOptions.explain()) {
            once(stages + " are fused: " + how);
        }
    }

    /** An accelerated method ran in Java, as written, instead of on OpenCL. Printed with -Djpai.explain=true. */
    public static void methodInJava(String method, String reason) {
        if (JpaiOptions.explain()) {
            once(method + " runs in Java, as written: " + reason);
        }
    }

    /** An accelerated method runs on the device with some of its {@code @Parallel} loops sequential in each work-item. Printed with -Djpai.explain=true. */
    public static void methodPartlySequential(String method, String reason) {
        if (JpaiOptions.explain()) {
            once(method + " runs on the device with an inner loop sequential: " + reason);
        }
    }

    /** An accelerated method's kernel met a Java exception path, and the call re-ran in Java. Printed with -Djpai.explain=true. */
    public static void methodReRan(String method, String reason) {
        if (JpaiOptions.explain()) {
            once(method + " ran in Java after the device: " + reason);
        }
    }

    /** An accelerated method ran on the device. Printed once with -Djpai.explain=true. */
    public static void methodOnDevice(String method, String device) {
        if (JpaiOptions.explain()) {
            once(method + " ran on the OpenCL device " + device);
        }
    }

    /** A kernel's work-group size was chosen by measurement, and why. Printed with -Djpai.explain=true. */
    public static void tuned(String message) {
        if (JpaiOptions.explain()) {
            once(message);
        }
    }

    /** An apply under AUTO ran on Java threads while its kernel compiles in the background (tiering): a choice, not a fallback. Printed with -Djpai.explain=true. */
    public static void tiered(java.util.function.Supplier<String> operation) {
        if (JpaiOptions.explain()) { // the description may need Graal, which the apply is not to wait for
            once(operation.get() + " runs on Java threads while its kernel compiles in the background (-D" + JpaiOptions.TIERING + "=true); later applies run on the device");
        }
    }

    /** How a split map's apply was cut over its devices ({@code on(Devices)}): said whenever the shares change. Printed with -Djpai.explain=true. */
    public static void split(java.util.function.Supplier<String> what) {
        if (JpaiOptions.explain()) {
            once(what.get());
        }
    }

    /** How the device took over (or why it did not take over) the rest of a tiered first apply. Printed with -Djpai.explain=true. */
    public static void tieredTakeover(java.util.function.Supplier<String> what) {
        if (JpaiOptions.explain()) {
            once(what.get());
        }
    }

    /** Where AUTO's cost model runs an operation, and why: said when its choice changes side or re-measures. Printed with -Djpai.explain=true. */
    public static void costChoice(java.util.function.Supplier<String> what) {
        if (JpaiOptions.explain()) {
            System.err.println("jpai: " + what.get()); // not once: each change of side is news
        }
    }

    /** Whether a kernel's loop reads through __local tiles, and why not. Printed with -Djpai.explain=true. */
    public static void tiling(String function, String note) {
        if (JpaiOptions.explain()) {
            once(function + ": " + note);
        }
    }

    /** What the runtime speculates about a function, or learnt from a failed speculation. Printed with -Djpai.explain=true. */
    public static void speculation(String operation, String what) {
        if (JpaiOptions.explain()) {
            once(operation + ": " + what);
        }
    }

    /**
     * A launch's wait ended because its queue finished before its events said so (NVIDIA's driver
     * reports a command complete only once other queues' kernels have ended): said once per device,
     * since such applies have no device times. Printed with -Djpai.explain=true.
     */
    public static void lateEvents(String device) {
        if (JpaiOptions.explain()) {
            once("on " + device + " a launch's events had not said its commands were done when its command queue had finished them (the driver"
                    + " reports a command complete only once the kernels of other queues have ended too): a wait longer than twice the launch's"
                    + " expected time finishes its queue instead, and such an apply has no device times (ApplyProfile.deviceTimed() is false)");
        }
    }

    /** Something every user should know once (no OpenCL device, say). Always printed. */
    public static void notice(String message) {
        once(message);
    }

    private static void once(String message) {
        if (SAID.add(message)) {
            System.err.println("jpai: " + message);
        }
    }
}
