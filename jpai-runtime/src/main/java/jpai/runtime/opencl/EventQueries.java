package jpai.runtime.opencl;

import static org.jocl.CL.CL_EVENT_COMMAND_EXECUTION_STATUS;
import static org.jocl.CL.clGetEventInfo;
import static org.jocl.CL.clGetEventProfilingInfo;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_event;

/**
 * The synchronous event queries of a launch (a command's execution status, which its wait polls,
 * and its device start and end times, which its profile reports), answered into one small direct
 * buffer per thread: JOCL's {@code Pointer.to(long[])} costs an array, a pointer and a heap buffer
 * per query, and these run several times on every apply. The driver writes the answer before the
 * call returns, so one buffer serves every query a thread makes, one after another.
 *
 * <p>Each thread uses its own ({@link #ofThread()}); not to be shared between threads.
 */
final class EventQueries {

    private static final ThreadLocal<EventQueries> OF_THREAD = ThreadLocal.withInitial(EventQueries::new);

    private final ByteBuffer answer = ByteBuffer.allocateDirect(Sizeof.cl_ulong).order(ByteOrder.nativeOrder());
    private final Pointer answerPointer = Pointer.to(answer);

    private EventQueries() {
    }

    /** The calling thread's. */
    static EventQueries ofThread() {
        return OF_THREAD.get();
    }

    /** {@code event}'s {@code CL_EVENT_COMMAND_EXECUTION_STATUS}: {@code CL_COMPLETE} (0), a state before it, or a negative error. */
    int executionStatus(cl_event event) {
        DriverCalls.count(DriverCalls.Call.GET_EVENT_INFO);
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int, answerPointer, null);
        return FaultInjection.polledStatus(answer.getInt(0));
    }

    /** {@code event}'s profiling time {@code what} ({@code CL_PROFILING_COMMAND_START}, {@code END}...), in device nanoseconds. */
    long profilingTime(cl_event event, int what) {
        DriverCalls.count(DriverCalls.Call.GET_EVENT_PROFILING_INFO);
        FaultInjection.checkProfilingAvailable();
        clGetEventProfilingInfo(event, what, Sizeof.cl_ulong, answerPointer, null);
        return answer.getLong(0);
    }
}
