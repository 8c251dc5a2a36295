package jpai.test.loops;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import jpai.runtime.opencl.KernelLaunches;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Tests of accelerated methods that read what JPAI says: {@code -Djpai.explain=true} for the class's
 * tests, the property as it was afterwards.
 */
abstract class WithTheAgentExplaining extends WithTheAgent {

    private static String explainBefore;

    @BeforeAll
    static void explain() {
        explainBefore = System.setProperty("jpai.explain", "true");
    }

    @AfterAll
    static void restoreExplain() {
        if (explainBefore == null) {
            System.clearProperty("jpai.explain");
        } else {
            System.setProperty("jpai.explain", explainBefore);
        }
    }

    /** What a call returned or threw, what JPAI said on standard error meanwhile, and whether it launched a kernel. */
    record ExplainedCall(Object result, String said, boolean launched, Throwable thrown) {
    }

    /** Runs {@code call}, capturing standard error (and printing it again) and counting kernel launches. */
    static ExplainedCall explained(Supplier<Object> call) {
        PrintStream err = System.err;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        long launches = KernelLaunches.count();
        System.setErr(new PrintStream(said, true, StandardCharsets.UTF_8));
        Object result = null;
        Throwable thrown = null;
        try {
            result = call.get();
        } catch (RuntimeException e) {
            thrown = e;
        } finally {
            System.setErr(err);
        }
        String text = said.toString(StandardCharsets.UTF_8);
        err.print(text);
        return new ExplainedCall(result, text, KernelLaunches.count() > launches, thrown);
    }
}
