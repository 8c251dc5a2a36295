package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jdk.vm.ci.meta.JavaKind;
import jpai.ocl.KernelSource;

/**
 * The launches of a sequence share one status buffer, read once after the last: the words every
 * result reports are those of the first launch that wrote them (kernels write first-failure-wins),
 * a sequence after a failing one starts from zeroed words, and the sequence reads its status with
 * one transfer whatever its length.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class LaunchSequenceStatusTest {

    /** Work-item 0 leaves the device path with {@code reason} (0: it does not), at element {@code element}, as generated kernels do. */
    private static final KernelSource FAIL_WITH = new KernelSource("fail_with", """
            __kernel void fail_with(const int reason, const int element, __global int *status) {
                if (get_global_id(0) == 0 && reason != 0) {
                    if (atomic_cmpxchg(status, 0, reason) == 0) {
                        status[1] = element;
                    }
                }
            }
            """, "", List.of());

    private static List<LaunchResult> run(int... reasons) {
        List<KernelSource> sources = new ArrayList<>();
        List<KernelLaunch> launches = new ArrayList<>();
        for (int pass = 0; pass < reasons.length; pass++) {
            sources.add(FAIL_WITH);
            launches.add(new KernelLaunch().scalar(0, JavaKind.Int, reasons[pass]).scalar(1, JavaKind.Int, 100 + pass).status(2).globalSize(4));
        }
        return OpenCLTestSupport.context().launchSequence(sources, launches);
    }

    private static void assertEveryResult(List<LaunchResult> results, int reason, int element, String what) {
        for (int pass = 0; pass < results.size(); pass++) {
            assertEquals(reason, results.get(pass).status(0), what + ", pass " + pass + ": " + results.get(pass));
            assertEquals(element, results.get(pass).status(1), what + ", pass " + pass + ": " + results.get(pass));
        }
    }

    @Test
    void theFirstFailingLaunchsWordsWinAndTheNextSequenceStartsFromZero() {
        assertEveryResult(run(0, 0, 0), 0, 0, "no launch failed");
        assertEveryResult(run(0, 5, 9), 5, 101, "passes 1 and 2 failed; pass 1 first");
        assertEveryResult(run(3, 0, 9), 3, 100, "passes 0 and 2 failed; pass 0 first");
        assertEveryResult(run(0, 0, 0), 0, 0, "after failing sequences, a status buffer the kernels wrote is not used again unzeroed");
        assertEveryResult(run(0, 0, 4), 4, 102, "only the last pass failed");
    }

    @Test
    void aSequenceReadsItsStatusOnce() {
        run(0, 0, 0); // a zeroed status buffer kept, programs built
        long[] before = DriverCalls.snapshot();
        List<LaunchResult> results = run(0, 0, 0, 0);
        long[] after = DriverCalls.snapshot();
        assertEveryResult(results, 0, 0, "no launch failed");
        assertEquals(1, DriverCalls.between(before, after, DriverCalls.Call.ENQUEUE_TRANSFER), "one status read for 4 launches: " + DriverCalls.describe(before, after));
        assertEquals(4, DriverCalls.between(before, after, DriverCalls.Call.ENQUEUE_KERNEL), DriverCalls.describe(before, after));
    }
}
