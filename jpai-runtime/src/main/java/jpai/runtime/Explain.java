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
