package jpai.runtime;

import java.util.concurrent.atomic.AtomicLong;

import jpai.FallbackException;
import jpai.compiler.KernelBailoutException;

/**
 * Failures of the compiler itself (Graal, a phase, the backend), kept apart from code that kernels
 * cannot run: each is counted and said once on standard error whether or not
 * {@code -Djpai.explain=true} is given, since it is a bug to report, not a limit to learn. The
 * operation still runs in Java (or throws {@code FallbackException} under
 * {@code -Djpai.fallback=error}), so the caller gets Java's answer.
 */
public final class InternalCompilerErrors {

    private static final AtomicLong COUNT = new AtomicLong();

    private InternalCompilerErrors() {
    }

    /** Internal compiler errors since the JVM started. */
    public static long count() {
        return COUNT.get();
    }

    static void report(String operation, KernelBailoutException error) {
        COUNT.incrementAndGet();
        Throwable cause = error.getCause() != null ? error.getCause() : error;
        StackTraceElement[] frames = cause.getStackTrace();
        String where = frames.length > 0 ? " at " + frames[0] : "";
        Explain.notice("internal compiler error while compiling the " + operation + ": " + error.reason() + where
                        + "; the operation runs in Java. Please report it, with the lambda and this line.");
    }
}
