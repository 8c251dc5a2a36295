package jpai.runtime.opencl;


/**
 * How many OpenCL driver calls of each kind the calling thread has made through JPAI's runtime:
 * the evidence for what an apply costs on the host (issue 12). An apply's host time is mostly its
 * driver calls (on NVIDIA 10 to 30 us for an enqueue with an event), so tests pin the counts of the
 * common paths ({@code ApplyDriverCallsTest}) and a change that adds calls fails there.
 *
 * <p>Counted per thread, without locks or shared cache lines: the launching thread's calls are what
 * an apply costs; the calls other threads make (a pool's cleaner, an abandoned launch's release) are
 * not counted against it. One array per thread, made on its first call.
 */
public final class DriverCalls {

    /** What a driver call does. */
    public enum Call {
        /** {@code clSetKernelArg}. */
        SET_KERNEL_ARG,
        /** {@code clEnqueueNDRangeKernel}. */
        ENQUEUE_KERNEL,
        /** {@code clEnqueueReadBuffer}, {@code clEnqueueWriteBuffer}, {@code clEnqueueFillBuffer}, map and unmap. */
        ENQUEUE_TRANSFER,
        /** An event asked of an enqueue call (each must be released later). */
        EVENT_CREATED,
        /** {@code clGetEventInfo} (the wait's polls). */
        GET_EVENT_INFO,
        /** {@code clGetEventProfilingInfo}. */
        GET_EVENT_PROFILING_INFO,
        /** {@code clWaitForEvents}. */
        WAIT_FOR_EVENTS,
        /** {@code clReleaseEvent}. */
        RELEASE_EVENT,
        /** {@code clFlush} and {@code clFinish}. */
        FLUSH,
        /** {@code clCreateBuffer}. */
        CREATE_BUFFER,
        /** {@code clReleaseMemObject}. */
        RELEASE_BUFFER
    }

    private static final int KINDS = Call.values().length;
    private static final ThreadLocal<long[]> COUNTS = ThreadLocal.withInitial(() -> new long[KINDS]);

    private DriverCalls() {
    }

    static void count(Call call) {
        COUNTS.get()[call.ordinal()]++;
    }

    /** The calling thread's counts so far, by {@link Call#ordinal()}. */
    public static long[] snapshot() {
        return COUNTS.get().clone();
    }

    /** The calls of {@code kind} between two {@link #snapshot()}s. */
    public static long between(long[] before, long[] after, Call kind) {
        return after[kind.ordinal()] - before[kind.ordinal()];
    }

    /** Every call between two {@link #snapshot()}s except the wait's polls ({@link Call#GET_EVENT_INFO}), whose number depends on timing. */
    public static long allButPolls(long[] before, long[] after) {
        long total = 0;
        for (Call call : Call.values()) {
            if (call != Call.GET_EVENT_INFO && call != Call.EVENT_CREATED) {
                total += between(before, after, call);
            }
        }
        return total;
    }

    /** The calls between two snapshots, one kind per entry, for a failure message. */
    public static String describe(long[] before, long[] after) {
        StringBuilder text = new StringBuilder();
        for (Call call : Call.values()) {
            long n = between(before, after, call);
            if (n != 0) {
                text.append(text.isEmpty() ? "" : ", ").append(call.name().toLowerCase()).append(' ').append(n);
            }
        }
        return text.isEmpty() ? "none" : text.toString();
    }

}
