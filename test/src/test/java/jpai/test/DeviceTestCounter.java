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
import jpai.runtime.profile.Profiler;

/**
 * Counts the tests during which kernels were launched on an OpenCL device, and the tests that ran,
 * and writes both to {@code target/jpai-device-tests.txt} ("device N", "tests M", "kernels K"), which
 * {@code bin/jpai test} prints: proof, per run, that the device ran and how much of the suite used it.
 * Also the tests other than {@code TieringTest} and {@code CostModelTest} during which an apply ran
 * tiered or on Java threads by the cost model's choice ("tiered" and their names): {@code bin/jpai
 * test} fails when there is one, since a device test must not pass on Java threads (issue 21).
 * Tests run one at a time in this module, so the launches between a test's start and end are its own.
 */
public final class DeviceTestCounter implements TestExecutionListener {

    private final Map<String, Long> launchesAtStart = new ConcurrentHashMap<>();
    private final Map<String, Long> tieredAtStart = new ConcurrentHashMap<>();
    private final java.util.Set<String> tieredTests = ConcurrentHashMap.newKeySet();
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
            tieredAtStart.put(test.getUniqueId(), appliesOffTheDeviceByChoice());
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
        Long tieredBefore = tieredAtStart.remove(test.getUniqueId());
        if (tieredBefore != null && appliesOffTheDeviceByChoice() > tieredBefore && !test.getUniqueId().contains("TieringTest") && !test.getUniqueId().contains("CostModelTest")) {
            tieredTests.add(test.getDisplayName() + " in " + test.getUniqueId().replaceAll(".*\\[class:([^\\]]*)\\].*", "$1"));
        }
    }

    /** Applies that ran on Java threads by tiering's or the cost model's choice (not fallbacks). */
    private static long appliesOffTheDeviceByChoice() {
        return Profiler.tieredApplies() + Profiler.costRoutedApplies();
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
            java.util.Set<String> tiered = new java.util.TreeSet<>(tieredTests);
            if (Files.isRegularFile(file)) {
                java.util.List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < Math.min(3, lines.size()); i++) {
                    earlier[i] = Long.parseLong(lines.get(i).substring(lines.get(i).indexOf(' ') + 1).strip());
                }
                for (int i = 3; i < lines.size(); i++) {
                    if (lines.get(i).startsWith("tiered ")) {
                        tiered.add(lines.get(i).substring("tiered ".length()));
                    }
                }
            }
            StringBuilder text = new StringBuilder("device " + (earlier[0] + deviceTests.get()) + "\ntests " + (earlier[1] + tests.get()) + "\nkernels "
                            + (earlier[2] + KernelLaunches.count() - kernelsAtStart) + "\n");
            for (String name : tiered) {
                text.append("tiered ").append(name).append('\n');
            }
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
