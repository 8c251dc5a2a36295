package jpai.runtime.opencl;

import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clWaitForEvents;

import java.util.ArrayList;
import java.util.List;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_event;

/**
 * The OpenCL events of one launch (or one lazy copy-back), by what they did, with the bytes each
 * transfer moved: after {@link #await()} they give the device's own timings
 * ({@code CL_PROFILING_COMMAND_START} to {@code END}), which the profile reports.
 *
 * <p>Not thread-safe: one per launch, used by the launching thread.
 */
final class LaunchEvents {

    /** What a command did. */
    enum Kind {
        HOST_TO_DEVICE, KERNEL, DEVICE_TO_HOST
    }

    private record Recorded(Kind kind, cl_event event, long bytes) {
    }

    private final List<Recorded> events = new ArrayList<>();

    /** A new event to pass to an enqueue call, recorded as {@code kind} moving {@code bytes}. */
    cl_event next(Kind kind, long bytes) {
        cl_event event = new cl_event();
        events.add(new Recorded(kind, event, bytes));
        return event;
    }

    /** Forgets the last event given by {@link #next}: its enqueue call failed, so it names nothing. */
    void dropLast() {
        events.removeLast();
    }

    /** Waits until every recorded command has finished. */
    void await() {
        if (events.isEmpty()) {
            return;
        }
        cl_event[] all = new cl_event[events.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = events.get(i).event();
        }
        clWaitForEvents(all.length, all);
    }

    /** Device nanoseconds spent in commands of {@code kind} (after {@link #await()}). */
    long nanos(Kind kind) {
        long total = 0;
        long[] start = new long[1];
        long[] end = new long[1];
        for (Recorded recorded : events) {
            if (recorded.kind() == kind) {
                clGetEventProfilingInfo(recorded.event(), CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(start), null);
                clGetEventProfilingInfo(recorded.event(), CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(end), null);
                total += Math.max(0, end[0] - start[0]);
            }
        }
        return total;
    }

    long bytes(Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).mapToLong(Recorded::bytes).sum();
    }

    int count(Kind kind) {
        return (int) events.stream().filter(e -> e.kind() == kind).count();
    }

    /** Releases every event; safe after a failure. */
    void release() {
        for (Recorded recorded : events) {
            try {
                clReleaseEvent(recorded.event());
            } catch (CLException e) {
                // An event of a lost device; nothing else holds it.
            }
        }
        events.clear();
    }
}
