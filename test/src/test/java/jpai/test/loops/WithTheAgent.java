package jpai.test.loops;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;

/**
 * The tests of accelerated methods run in the Surefire execution started with the agent (test/pom.xml);
 * {@code -Dtest=...} selects them in the plain execution too, where no method is rewritten: there they
 * are skipped, not failed.
 */
abstract class WithTheAgent {

    @BeforeAll
    static void requireTheAgent() {
        assumeTrue(Boolean.getBoolean("jpai.agent.installed"), "this JVM runs without JPAI's agent (the accelerated-methods-with-the-agent execution runs these tests)");
    }
}
