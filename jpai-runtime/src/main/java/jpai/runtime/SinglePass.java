package jpai.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jpai.ocl.ScanKernelSpec;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Whether scans and filters run in one pass on a device ({@link DeviceScan#runSinglePass},
 * {@link DeviceFilter}), and the bound on their work-groups' waits for earlier ones. The single pass
 * assumes that a work-group that has started keeps running while later ones wait for it; a device
 * that breaks the assumption would hang such a kernel. So every wait is bounded: a group that waited
 * more than {@link #SPIN_LIMIT} polls gives up ({@code DeoptReason.NO_FORWARD_PROGRESS}), the
 * operation runs again in several passes, and that device does not get the single pass again in
 * this JVM (explain says so).
 */
final class SinglePass {

    /**
     * Polls of one wait before a work-group gives up: each is an atomic read that goes to the device's
     * memory (about a microsecond on a GPU), so seconds of waiting, far beyond what a started group
     * takes to publish (its own elements' work). {@code -Djpai.test.spinLimit} overrides it (tests:
     * a negative value gives up at the first wait).
     */
    static final long SPIN_LIMIT = 1L << 22;

    private static final Set<DeviceContext> GAVE_UP = ConcurrentHashMap.newKeySet();

    private SinglePass() {
    }

    /**
     * Whether an operation runs in one pass on {@code device}: unless {@code -D<property>=false},
     * where the device has the 64-bit atomics the words between work-groups need and no single-pass
     * kernel gave up waiting on it.
     */
    static boolean allowed(DeviceChoice.OpenCL device, String property) {
        if ("false".equals(System.getProperty(property))) {
            return false;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        return context.hasExtension(ScanKernelSpec.SINGLE_PASS_EXTENSION) && !GAVE_UP.contains(context);
    }

    /** The bound the kernels get ({@link #SPIN_LIMIT}, or the test's). */
    static long spinLimit() {
        return Long.getLong("jpai.test.spinLimit", SPIN_LIMIT);
    }

    /** Forgets every give-up (tests that force one, so that later tests get the single pass again). */
    static void forgetGiveUps() {
        GAVE_UP.clear();
    }

    /** Whether a single-pass kernel gave up waiting on {@code device}. */
    static boolean gaveUpOn(DeviceChoice.OpenCL device) {
        return GAVE_UP.contains(OpenCLRuntime.context(device));
    }

    /** A single-pass kernel of {@code operation} gave up waiting on {@code device}: it runs in several passes from now on. */
    static void gaveUp(DeviceChoice.OpenCL device, String operation) {
        DeviceContext context = OpenCLRuntime.context(device);
        GAVE_UP.add(context);
        Explain.notice(operation + ": a work-group of its single-pass kernel waited too long for an earlier one on " + context.device().name()
                        + " (the device seems not to run started work-groups while later ones wait); it runs again in several passes, as every scan and filter on that device will");
    }
}
