package jpai.test.loops;

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
}
