package jpai.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import jpai.runtime.opencl.KernelLaunches;

/**
 * Counts the tests during which kernels were launched on an OpenCL device, and the tests that ran,
 * and writes both to {@code target/jpai-device-tests.txt} ("device N", "tests M", "kernels K"), which
 * {@code bin/jpai test} prints: proof, per run, that the device ran and how much of the suite used it.
 * Tests run one at a time in this module, so the launches between a test's start and end are its own.
 */
public final class DeviceTestCounter implements TestExecutionListener {

    private final Map<String, Long> launchesAtStart = new ConcurrentHashMap<>();
    private final AtomicInteger deviceTests = new AtomicInteger();
    private final AtomicInteger tests = new AtomicInteger();
    private long kernelsAtStart;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        kernelsAtStart = KernelLaunches.count();
    }

    @Override
    public void executionStarted(TestIdentifier test) {
        if (test.isTest()) {
            launchesAtStart.put(test.getUniqueId(), KernelLaunches.count());
        }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest()) {
            return;
        }
        tests.incrementAndGet();
        Long before = launchesAtStart.remove(test.getUniqueId());
        if (before != null && KernelLaunches.count() > before) {
            deviceTests.incrementAndGet();
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        Path target = Path.of("target");
        if (!Files.isDirectory(target)) {
            return; // not run by Maven from the module
        }
        try {
            // The module's two Surefire executions (the second with the agent) each add their counts to
            // the file's; bin/jpai test deletes it before the run.
            Path file = target.resolve("jpai-device-tests.txt");
            long[] earlier = new long[3];
            if (Files.isRegularFile(file)) {
                java.util.List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < Math.min(3, lines.size()); i++) {
                    earlier[i] = Long.parseLong(lines.get(i).substring(lines.get(i).indexOf(' ') + 1).strip());
                }
            }
            Files.writeString(file, "device " + (earlier[0] + deviceTests.get()) + "\ntests " + (earlier[1] + tests.get()) + "\nkernels "
                            + (earlier[2] + KernelLaunches.count() - kernelsAtStart) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
