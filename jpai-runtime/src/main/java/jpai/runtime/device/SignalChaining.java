package jpai.runtime.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jpai.runtime.Explain;

/**
 * Whether Java's integer division by zero still throws after an OpenCL driver was loaded.
 *
 * <p>HotSpot turns the processor's divide fault ({@code SIGFPE}) into {@code ArithmeticException}.
 * Some drivers (PoCL, through its LLVM) install their own {@code SIGFPE} handler when they load; from
 * then on, without HotSpot's signal-chaining library ({@code LD_PRELOAD=$JAVA_HOME/lib/libjsig.so}),
 * an integer division by zero anywhere in the JVM (user code, JPAI's Java fallbacks) silently gives a
 * wrong value instead of throwing. Nothing JPAI does afterwards can undo that, so the runtime probes
 * a division by an opaque zero after the platform is loaded and after a driver build, and when it no
 * longer throws says so once, loudly, on standard error with the fix. Devices are still used: the
 * kernels' own division checks do not depend on signals, and refusing the device would not repair
 * the JVM; {@link #state()} exposes the finding ({@code bin/jpai devices} prints it).
 *
 * <p>Thread-safe: the state is one volatile field; the warning is printed once.
 */
public final class SignalChaining {

    /** What the probes found. */
    public enum State {
        /** No OpenCL driver was loaded yet. */
        NOT_CHECKED,
        /** Integer division by zero throws {@code ArithmeticException}, as Java requires. */
        DIVISION_BY_ZERO_THROWS,
        /** A driver's {@code SIGFPE} handler took over: integer division by zero no longer throws. */
        DIVISION_BY_ZERO_BROKEN
    }

    /** Read through a volatile field so that neither javac nor the JIT can fold the division away. */
    private static volatile int opaqueZero;
    private static volatile State state = State.NOT_CHECKED;

    private SignalChaining() {
    }

    /** What the last probe found. */
    public static State state() {
        return state;
    }

    /**
     * Probes after an OpenCL driver was loaded or ran its compiler; warns once when division by zero
     * no longer throws. Once broken, the JVM stays broken: later calls return at once.
     */
    public static void checkAfterDriverLoad() {
        if (state == State.DIVISION_BY_ZERO_BROKEN) {
            return;
        }
        if (integerDivisionByZeroThrows()) {
            state = State.DIVISION_BY_ZERO_THROWS;
            return;
        }
        state = State.DIVISION_BY_ZERO_BROKEN;
        Explain.notice(warning());
    }

    /** One line for people: the state and, when broken, the fix. */
    public static String describe() {
        return switch (state) {
            case NOT_CHECKED -> "integer division by zero: not checked (no OpenCL driver loaded)";
            case DIVISION_BY_ZERO_THROWS -> "integer division by zero: throws ArithmeticException, as Java requires"
                    + (signalChainingLoaded() ? " (libjsig is loaded)" : "");
            case DIVISION_BY_ZERO_BROKEN -> warning();
        };
    }

    static boolean integerDivisionByZeroThrows() {
        try {
            int unused = 1 / opaqueZero;
            return false; // the division gave a value: the driver's handler swallowed the fault
        } catch (ArithmeticException expected) {
            return true;
        }
    }

    private static String warning() {
        String libjsig = Path.of(System.getProperty("java.home"), "lib", "libjsig.so").toString();
        return "WARNING: the OpenCL driver installed its own SIGFPE handler, and integer division by zero no longer throws"
                + " ArithmeticException anywhere in this JVM: it silently gives a wrong value"
                + (signalChainingLoaded() ? ", although libjsig is loaded" : "")
                + ". Start the JVM with LD_PRELOAD=" + libjsig + " (HotSpot's signal chaining; bin/jpai does this).";
    }

    /** Whether HotSpot's signal-chaining library is mapped into this process (Linux). */
    static boolean signalChainingLoaded() {
        try {
            return Files.readString(Path.of("/proc/self/maps")).contains("libjsig");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
