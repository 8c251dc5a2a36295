package jpai.runtime.opencl;

import java.util.EnumMap;
import java.util.Map;

import org.jocl.CL;
import org.jocl.CLException;

/**
 * A test hook: makes the next OpenCL call of a given class fail as the driver would, so tests can
 * show that every failure falls back to Java with the right result and releases what the failed
 * attempt held. The runtime calls {@link #check} just before each call of the class; with nothing
 * armed, that is one read of a volatile field.
 *
 * <p>Thread-safe: arming and consuming are synchronised; a fault is consumed by exactly one call.
 */
public final class FaultInjection {

    /** The classes of OpenCL calls a fault can be armed for. */
    public enum Fault {
        /** Getting a program the launch needs: its build from source or its load from the disk cache. */
        BUILD(CL.CL_BUILD_PROGRAM_FAILURE),
        /** {@code clCreateBuffer} of device memory (the pool retries once after freeing its idle buffers). */
        ALLOCATE(CL.CL_MEM_OBJECT_ALLOCATION_FAILURE),
        /** {@code clEnqueueNDRangeKernel}. */
        ENQUEUE_KERNEL(CL.CL_OUT_OF_RESOURCES),
        /** {@code clEnqueueWriteBuffer} and {@code clEnqueueReadBuffer} of array data. */
        TRANSFER(CL.CL_OUT_OF_RESOURCES),
        /** The next call of any class finds the device gone ({@code CL_DEVICE_NOT_AVAILABLE}). */
        DEVICE_LOST(CL.CL_DEVICE_NOT_AVAILABLE);

        private final int defaultStatus;

        Fault(int defaultStatus) {
            this.defaultStatus = defaultStatus;
        }

        /** The OpenCL error code an armed fault of this class reports unless told otherwise. */
        public int defaultStatus() {
            return defaultStatus;
        }
    }

    private record Armed(int status, int remaining) {
    }

    private static final Map<Fault, Armed> ARMED = new EnumMap<>(Fault.class);
    private static final Map<Fault, Runnable> ACTIONS = new EnumMap<>(Fault.class);
    private static volatile boolean anyArmed;
    /** {@link #limitKernelWorkGroupSize}'s limit; 0 for none. */
    private static volatile long kernelWorkGroupSizeLimit;
    /** {@link #reportEventsLate}: events never say their command completed. */
    private static volatile boolean eventsLate;

    private FaultInjection() {
    }

    /** The next call of class {@code fault} fails with the class's usual error code. */
    public static void failNext(Fault fault) {
        failNext(fault, fault.defaultStatus(), 1);
    }

    /** The next call of class {@code fault} fails with OpenCL error {@code status} (e.g. {@code CL_INVALID_WORK_GROUP_SIZE}). */
    public static void failNext(Fault fault, int status) {
        failNext(fault, status, 1);
    }

    /** The next {@code times} calls of class {@code fault} fail with OpenCL error {@code status}. */
    public static synchronized void failNext(Fault fault, int status, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("a fault must fire at least once, not " + times + " times");
        }
        ARMED.put(fault, new Armed(status, times));
        anyArmed = true;
    }

    /**
     * Runs {@code action} on the calling thread just before the next call of class {@code fault}
     * (once, before any fault armed for that call fires): tests use it to do something while a
     * launch or a transfer is under way, such as closing the array being sent.
     */
    public static synchronized void runBeforeNext(Fault fault, Runnable action) {
        ACTIONS.put(fault, java.util.Objects.requireNonNull(action, "runBeforeNext: the action is null"));
        anyArmed = true;
    }

    /**
     * Makes every kernel report at most {@code maxWorkItems} as its {@code CL_KERNEL_WORK_GROUP_SIZE}
     * from now on, as a driver does for a kernel that needs many registers; 0 lifts the limit (so
     * does {@link #clear()}). Tests use it to show that no work-group size the runtime chooses makes
     * a launch fail on such a kernel.
     */
    public static void limitKernelWorkGroupSize(long maxWorkItems) {
        if (maxWorkItems < 0) {
            throw new IllegalArgumentException("a work-group size limit must not be negative: " + maxWorkItems);
        }
        kernelWorkGroupSizeLimit = maxWorkItems;
    }

    /** {@code reported} ({@code CL_KERNEL_WORK_GROUP_SIZE}), or the test's smaller limit. */
    static long kernelWorkGroupSize(long reported) {
        long limit = kernelWorkGroupSizeLimit;
        return limit > 0 ? Math.min(limit, reported) : reported;
    }

    /**
     * From now on (until called with false, or {@link #clear()}), every event the runtime polls
     * reports its command as submitted, never complete, and has no device times yet, as NVIDIA's
     * driver reports a command while kernels of other queues run ({@link QueueFinish}). Tests use it
     * to show that launches still end (their queues are finished) with the right results, and that
     * their profile then says it has no device times.
     */
    public static void reportEventsLate(boolean late) {
        eventsLate = late;
    }

    /** The status a poll reports for {@code reported}: {@code CL_SUBMITTED} instead of complete while {@link #reportEventsLate} is on. */
    static int polledStatus(int reported) {
        return reported == CL.CL_COMPLETE && eventsLate ? CL.CL_SUBMITTED : reported;
    }

    /** Throws the driver's "no profiling information yet" while {@link #reportEventsLate} is on. */
    static void checkProfilingAvailable() {
        if (eventsLate) {
            throw new CLException("CL_PROFILING_INFO_NOT_AVAILABLE (injected late events)", CL.CL_PROFILING_INFO_NOT_AVAILABLE);
        }
    }

    /** Disarms everything. */
    public static synchronized void clear() {
        ARMED.clear();
        ACTIONS.clear();
        anyArmed = false;
        kernelWorkGroupSizeLimit = 0;
        eventsLate = false;
    }

    /** Whether a fault of this class is armed and has not fired yet. */
    public static synchronized boolean isArmed(Fault fault) {
        return ARMED.containsKey(fault);
    }

    /**
     * Called by the runtime just before an OpenCL call of class {@code fault}: throws the armed
     * fault, as JOCL throws a failed call's status. An armed {@link Fault#DEVICE_LOST} fires on a
     * call of any class.
     */
    static void check(Fault fault) {
        if (!anyArmed) {
            return;
        }
        Runnable action = takeAction(fault);
        if (action != null) {
            action.run(); // outside the lock: the action may call into the runtime
        }
        CLException failure = consume(fault);
        if (failure != null) {
            throw failure;
        }
    }

    private static synchronized Runnable takeAction(Fault fault) {
        Runnable action = ACTIONS.remove(fault);
        anyArmed = !ARMED.isEmpty() || !ACTIONS.isEmpty();
        return action;
    }

    private static synchronized CLException consume(Fault fault) {
        Fault firing = ARMED.containsKey(Fault.DEVICE_LOST) ? Fault.DEVICE_LOST : ARMED.containsKey(fault) ? fault : null;
        if (firing == null) {
            return null;
        }
        Armed armed = ARMED.remove(firing);
        if (armed.remaining() > 1) {
            ARMED.put(firing, new Armed(armed.status(), armed.remaining() - 1));
        }
        anyArmed = !ARMED.isEmpty() || !ACTIONS.isEmpty();
        return new CLException(CL.stringFor_errorCode(armed.status()) + " (injected " + firing + " fault)", armed.status());
    }
}
