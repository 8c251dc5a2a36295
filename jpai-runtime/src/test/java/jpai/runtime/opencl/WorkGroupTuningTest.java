package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The choice of a kernel's work-group size, with the device's timings played by the test. */
class WorkGroupTuningTest {

    @AfterEach
    void noForcedSize() {
        System.clearProperty(WorkGroupTuning.FORCE_PROPERTY);
    }

    @Test
    void candidatesArePowersOfTwoFromThePreferredMultipleToTheCeilingTheDefaultFirst() {
        assertEquals(List.of(256L, 128L, 512L, 64L, 1024L), new WorkGroupTuning(32, false).candidates(1024), "NVIDIA: warps of 32, groups up to 1024");
        assertEquals(List.of(256L, 128L, 64L, 32L), new WorkGroupTuning(32, false).candidates(256));
        assertEquals(List.of(64L, 32L, 16L, 8L, 4L), new WorkGroupTuning(1, false).candidates(64), "a driver that prefers nothing: a handful below the ceiling");
        assertEquals(List.of(256L, 128L, 512L), new WorkGroupTuning(100, false).candidates(512), "a multiple of 100 rounds up to 128");
        assertEquals(List.of(16L), new WorkGroupTuning(32, false).candidates(16), "a ceiling below the preferred multiple is the only candidate");
        assertEquals(List.of(1L), new WorkGroupTuning(0, false).candidates(1));
    }

    @Test
    void theFastestCandidateIsKeptAfterTwoTrialsEachAndReused() {
        WorkGroupTuning tuning = new WorkGroupTuning(32, false);
        Map<Long, Long> nanosBySize = Map.of(256L, 900L, 128L, 700L, 512L, 400L, 64L, 1500L, 1024L, 650L);
        List<Long> used = new ArrayList<>();
        List<String> said = new ArrayList<>();
        for (int launch = 0; launch < 30; launch++) {
            WorkGroupTuning.Choice choice = tuning.choose(1 << 20, 1024);
            used.add(choice.groupSize());
            String settled = tuning.record(choice, nanosBySize.get(choice.groupSize()));
            if (settled != null) {
                said.add(settled);
            }
        }
        assertEquals(List.of("work-groups of 512 work-items for launches of 1048576 work-items (fastest kernel time per size: 256: 0.9 us, 128: 0.7 us, 512: 0.4 us, 64: 1.5 us, 1024: 0.7 us)"),
                said, "the settling measurement says what was chosen, once (-Djpai.explain=true prints it)");
        assertEquals(256L, used.get(0), "the first launch uses the default");
        int trials = WorkGroupTuning.TRIALS * 5;
        assertEquals(Set.of(256L, 128L, 512L, 64L, 1024L), new LinkedHashSet<>(used.subList(0, trials)), "each candidate tried");
        for (long size : used.subList(trials, used.size())) {
            assertEquals(512L, size, "after " + trials + " launches the fastest is kept: " + used);
        }
        assertEquals(Map.of("2^20 work-items, groups up to 1024", 512L), tuning.settledSizes());
        assertNull(tuning.choose(1 << 20, 1024).trials(), "a settled size is no measurement");
        assertEquals(256L, tuning.choose(1 << 10, 1024).groupSize(), "another size class measures again, from the default");
    }

    @Test
    void tuningEndsAfterABoundedNumberOfLaunchesEvenWhenNoneReportsATime() {
        WorkGroupTuning tuning = new WorkGroupTuning(32, false);
        int launches = 0;
        while (tuning.choose(5000, 1024).trials() != null) {
            launches++; // abandoned launches record nothing
            assertTrue(launches <= WorkGroupTuning.MAX_TUNING_LAUNCHES_PER_CANDIDATE * WorkGroupTuning.MAX_CANDIDATES, "bounded: " + launches);
        }
        assertEquals(256L, tuning.choose(5000, 1024).groupSize(), "no time measured: the default");

        WorkGroupTuning unprofiled = new WorkGroupTuning(32, false);
        for (int i = 0; i < 2 * WorkGroupTuning.TRIALS * WorkGroupTuning.MAX_CANDIDATES; i++) {
            WorkGroupTuning.Choice choice = unprofiled.choose(5000, 1024);
            unprofiled.record(choice, 0); // a driver without event times
        }
        assertEquals(256L, unprofiled.choose(5000, 1024).groupSize());
    }

    @Test
    void aForcedSizeIsUsedWithinTheCeilingAndNotMeasured() {
        WorkGroupTuning tuning = new WorkGroupTuning(32, false);
        System.setProperty(WorkGroupTuning.FORCE_PROPERTY, "64");
        assertEquals(64L, tuning.choose(1 << 20, 1024).groupSize());
        assertNull(tuning.choose(1 << 20, 1024).trials());
        System.setProperty(WorkGroupTuning.FORCE_PROPERTY, "100");
        assertEquals(64L, tuning.choose(1 << 20, 1024).groupSize(), "the power of two at most 100");
        System.setProperty(WorkGroupTuning.FORCE_PROPERTY, "4096");
        assertEquals(128L, tuning.choose(1 << 20, 128).groupSize(), "never above what the launch, kernel and device allow");
        assertThrows(IllegalArgumentException.class, () -> tuning.choose(10, 96));
    }

    @Test
    void shrinkingKeepsDimensionZeroWidestAndEverySizeADivisor() {
        long[] local = {32, 32};
        WorkGroupShape.shrinkTo(local, 64);
        assertArrayEquals(new long[] {32, 2}, local);
        local = new long[] {32, 8, 4};
        WorkGroupShape.shrinkTo(local, 16);
        assertArrayEquals(new long[] {16, 1, 1}, local);
        local = new long[] {1024};
        WorkGroupShape.shrinkTo(local, 1);
        assertArrayEquals(new long[] {1}, local);
        local = new long[] {16, 4};
        WorkGroupShape.shrinkTo(local, 1024);
        assertArrayEquals(new long[] {16, 4}, local, "a larger target changes nothing");
    }
}
