package jpai.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import jpai.compiler.Speculation;
import jpai.compiler.Speculations;
import jpai.runtime.SpeculationHistory.Decision;

/** The bound on recompiles after failed speculations, decided per function. */
class SpeculationHistoryTest {

    @Test
    void eachFailureLeavesOutItsSpeculationUntilTheBoundLeavesOutAll() {
        SpeculationHistory history = new SpeculationHistory();
        assertEquals(Speculations.ALL, history.allowed());
        assertEquals(Decision.RECOMPILE_WITHOUT_IT, history.failed(Speculation.HOISTED_BOUNDS_CHECKS, 3));
        assertFalse(history.allowed().allows(Speculation.HOISTED_BOUNDS_CHECKS));
        assertTrue(history.allowed().allows(Speculation.HOISTED_LOOP_EXITS));
        assertEquals(Decision.ALREADY_LEFT_OUT, history.failed(Speculation.HOISTED_BOUNDS_CHECKS, 3), "a kernel compiled before the first failure");
        assertEquals(1, history.recompiles());
        assertEquals(Decision.RECOMPILE_WITHOUT_IT, history.failed(Speculation.UNTAKEN_BRANCHES, 3));
        assertEquals(Decision.STOP_SPECULATING, history.failed(Speculation.HOISTED_LOOP_EXITS, 3), "the third recompile reaches the bound");
        assertEquals(Speculations.NONE, history.allowed());
        assertEquals(3, history.recompiles());
    }

    @Test
    void aBoundOfOneStopsAllSpeculationAtTheFirstFailure() {
        SpeculationHistory history = new SpeculationHistory();
        assertEquals(Decision.STOP_SPECULATING, history.failed(Speculation.HOISTED_LOOP_EXITS, 1));
        assertTrue(history.allowed().isEmpty());
        assertEquals(Decision.ALREADY_LEFT_OUT, history.failed(Speculation.HOISTED_BOUNDS_CHECKS, 1));
    }

    @Test
    void aBoundOfZeroNeverRecompiles() {
        SpeculationHistory history = new SpeculationHistory();
        for (int i = 0; i < 3; i++) {
            assertEquals(Decision.NO_RECOMPILE_LEFT, history.failed(Speculation.HOISTED_BOUNDS_CHECKS, 0));
        }
        assertEquals(Speculations.ALL, history.allowed());
        assertEquals(0, history.recompiles());
    }
}
