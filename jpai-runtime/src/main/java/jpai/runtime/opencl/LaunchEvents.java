package jpai.runtime.opencl;

import static org.jocl.CL.CL_COMPLETE;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_PROFILING_INFO_NOT_AVAILABLE;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clRetainEvent;
import static org.jocl.CL.clWaitForEvents;

import java.util.Arrays;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;

/**
 * The OpenCL events of one launch (or one lazy copy-back), all on the one command queue it was lent,
 * by what they did, with the bytes each transfer moved: after {@link #await()} they give the
 * device's own timings ({@code CL_PROFILING_COMMAND_START} to {@code END}), which the profile
 * reports. Besides its own, the launch holds the events of commands on other queues that it must
 * wait for ({@link #dependOn}): a send of one of its inputs that another launch made.
 *
 * <p>Plain arrays, no streams or per-event records: this runs on every apply, and right after a
 * garbage collection every distinct piece of Java code on the apply path runs many times slower
 * than in a warm loop (the benchmark method collects garbage before each timed call).
 *
 * <p>Not thread-safe: one per launch, used by the launching thread (or, when that thread stopped
 * waiting, by the one that releases the abandoned launch: {@link AbandonedLaunches}).
 *
 * <p>Reused: a thread keeps a few released ones ({@link #take}, {@link #recycle()}), so that an
 * apply does not allocate its events' arrays again (a map apply and the read of its result each
 * had one). Only the thread that took one and saw its commands finish recycles it; an abandoned
 * launch's are left to the garbage collector.
 */
final class LaunchEvents {

    /** What a command did. */
    enum Kind {
        HOST_TO_DEVICE, KERNEL, DEVICE_TO_HOST,
        /** A copy between two buffers of one device (an {@link InPlaceUpdate}'s saved contents). */
        DEVICE_TO_DEVICE
    }

    /** A thread's released instances, at most {@value #SPARES_PER_THREAD} (a reduction's sequence uses one per pass). */
    private static final ThreadLocal<Spares> SPARES = ThreadLocal.withInitial(Spares::new);
    private static final int SPARES_PER_THREAD = 4;

    private static final class Spares {
        final LaunchEvents[] kept = new LaunchEvents[SPARES_PER_THREAD];
        int count;
    }

    private cl_command_queue queue;
    // Room for two events: a launch's kernel and its status read, or a copy; more grow the arrays.
    private cl_event[] events = new cl_event[2];
    private Kind[] kinds = new Kind[2];
    private long[] bytes = new long[2];
    /** Per event: whether the profile times it (not a status word's few bytes: two profiling calls each cost more than they tell). */
    private boolean[] timed = new boolean[2];
    private int size;
    private static final cl_event[] NO_EVENTS = {};
    /**
     * The events as {@code clWaitForEvents} is given them, an array of exactly their number: kept,
     * so that a recycled instance waiting for as many commands as last time makes no array.
     */
    private cl_event[] waitArray = NO_EVENTS;
    /** Retained events of other queues' commands this launch waits for, or null. */
    private cl_event[] dependencies;
    private int dependencyCount;

    /** Whether the queue records device times: on a plain queue ({@link CommandQueues}) no command is timed. */
    private boolean profiled;
    /**
     * The queue was finished ({@code clFinish}) while the events may not say so yet
     * ({@link QueueFinish}): every command is done, and a status still short of complete is late.
     */
    private boolean finishedByQueue;
    /** What {@code clFinish} reported for the queue, when it failed. */
    private CLException queueFailure;
    /** A timed command had no device times to give (its event was late): the profile has none for this launch. */
    private boolean timesMissing;

    private LaunchEvents(cl_command_queue queue) {
        this.queue = queue;
        this.profiled = CommandQueues.profiles(queue);
    }

    /** Events for commands on {@code queue}: one this thread recycled, or a new one. */
    static LaunchEvents take(cl_command_queue queue) {
        Spares spares = SPARES.get();
        if (spares.count == 0) {
            return new LaunchEvents(queue);
        }
        LaunchEvents events = spares.kept[--spares.count];
        spares.kept[spares.count] = null;
        events.queue = queue;
        events.profiled = CommandQueues.profiles(queue);
        return events;
    }

    /**
     * Keeps this (released: {@link #release()}) for the calling thread's next {@link #take}. Only
     * when nothing else refers to it any more: not an abandoned launch's.
     */
    void recycle() {
        if (size != 0 || dependencyCount != 0) {
            throw new IllegalStateException("recycling launch events that were not released");
        }
        queue = null;
        Spares spares = SPARES.get();
        if (spares.count < SPARES_PER_THREAD) {
            spares.kept[spares.count++] = this;
        }
    }

    /** The queue this launch's commands go to. */
    cl_command_queue queue() {
        return queue;
    }

    /** The last command's event, or null if none was enqueued. */
    cl_event last() {
        return size == 0 ? null : events[size - 1];
    }

    /**
     * Makes {@code event} (a command on another queue, e.g. a send of an input by another launch)
     * one this launch's kernel waits for; retained until {@link #release()}.
     */
    void dependOn(cl_event event) {
        clRetainEvent(event);
        if (dependencies == null) {
            dependencies = new cl_event[2];
        } else if (dependencyCount == dependencies.length) {
            dependencies = Arrays.copyOf(dependencies, dependencyCount * 2);
        }
        dependencies[dependencyCount++] = event;
    }

    /** The events of {@link #dependOn}, as a wait list, or null. */
    cl_event[] waitList() {
        return dependencyCount == 0 ? null : Arrays.copyOf(dependencies, dependencyCount);
    }

    int waitListSize() {
        return dependencyCount;
    }

    /** Whether any command has failed (asked through the calling thread's {@code queries}). */
    boolean anyFailed(EventQueries queries) {
        for (int i = 0; i < size; i++) {
            if (queries.executionStatus(events[i]) < 0) {
                return true;
            }
        }
        return false;
    }

    /** A new event to pass to an enqueue call, recorded as {@code kind} moving {@code bytes}, timed by the profile. */
    cl_event next(Kind kind, long byteCount) {
        return next(kind, byteCount, true);
    }

    /**
     * A new event recorded as {@code kind} moving {@code bytes}; {@code timed}: whether
     * {@link #nanos} asks the driver for its device time (a status word's transfer is counted in
     * {@link #bytes} and {@link #count} but not timed).
     */
    cl_event next(Kind kind, long byteCount, boolean isTimed) {
        if (size == events.length) {
            events = Arrays.copyOf(events, size * 2);
            kinds = Arrays.copyOf(kinds, size * 2);
            bytes = Arrays.copyOf(bytes, size * 2);
            timed = Arrays.copyOf(timed, size * 2);
        }
        DriverCalls.count(DriverCalls.Call.EVENT_CREATED);
        cl_event event = new cl_event();
        events[size] = event;
        kinds[size] = kind;
        bytes[size] = byteCount;
        timed[size] = isTimed && profiled;
        size++;
        return event;
    }

    /** Forgets the last event given by {@link #next}: its enqueue call failed, so it names nothing. */
    void dropLast() {
        size--;
        events[size] = null;
    }

    /**
     * Records that the queue has been finished ({@code clFinish} returned, or failed with
     * {@code failure}, else null): {@link #await()} then waits for nothing and reports only what failed.
     */
    void finishedByQueue(CLException failure) {
        finishedByQueue = true;
        queueFailure = failure;
    }

    /** Whether {@link #finishedByQueue} was called since the events were taken. */
    boolean finishedByQueue() {
        return finishedByQueue;
    }

    /**
     * Waits until every recorded command has finished; throws {@link CLException} for a failed one.
     * Meant for the moment after {@link DeviceWait} saw the commands done, when it returns at once:
     * by {@code clWaitForEvents}, or, when the queue was finished, from the events' statuses.
     * Elsewhere use {@link #finish()}: on NVIDIA {@code clWaitForEvents} may wait for other queues' kernels.
     */
    void await() {
        if (size == 0) {
            return;
        }
        if (finishedByQueue) {
            reportFailures();
            return;
        }
        DriverCalls.count(DriverCalls.Call.WAIT_FOR_EVENTS);
        if (size == events.length) {
            clWaitForEvents(size, events);
            return;
        }
        if (waitArray.length != size) {
            waitArray = new cl_event[size];
        }
        System.arraycopy(events, 0, waitArray, 0, size);
        try {
            clWaitForEvents(size, waitArray);
        } finally {
            Arrays.fill(waitArray, null); // released events must not stay reachable from a kept instance
        }
    }

    /**
     * Waits, blocking and not answering interrupts, until the queue has finished every command
     * ({@code clFinish}: the queue is this launch's own, and unlike the events it knows at once:
     * {@link QueueFinish}); throws {@link CLException} for a failed command.
     */
    void finish() {
        if (size == 0) {
            return;
        }
        CLException failure = null;
        try {
            DriverCalls.count(DriverCalls.Call.FLUSH);
            clFinish(queue);
        } catch (CLException e) {
            failure = e;
        }
        finishedByQueue(failure);
        reportFailures();
    }

    /**
     * After the queue was finished: throws the queue's failure or a failed command's status; notes
     * whether a timed command's event is still short of complete (late), whose device times the
     * driver does not give yet.
     */
    private void reportFailures() {
        if (queueFailure != null) {
            throw queueFailure;
        }
        EventQueries queries = EventQueries.ofThread();
        for (int i = 0; i < size; i++) {
            int status = queries.executionStatus(events[i]);
            if (status < 0) {
                throw new CLException(CL.stringFor_errorCode(status) + " (a command of this launch failed)", status);
            }
            if (status != CL_COMPLETE && timed[i]) {
                timesMissing = true;
            }
        }
    }

    /**
     * Whether its commands' device times are known: false on a plain queue, and when a timed
     * command's event was late (its queue finished before the event said so); {@link #nanos} then
     * reports 0 for what it could not measure.
     */
    boolean measuresDeviceTimes() {
        return profiled && !timesMissing;
    }

    /** Whether a timed command's event was late: its queue had finished it before the event said so, and its device times were not there yet. */
    boolean deviceTimesLate() {
        return timesMissing;
    }

    /** Device nanoseconds spent in the timed commands of {@code kind} (after {@link #await()}). */
    long nanos(Kind kind) {
        long total = 0;
        EventQueries queries = null;
        for (int i = 0; i < size && !timesMissing; i++) {
            if (kinds[i] == kind && timed[i]) {
                if (queries == null) {
                    queries = EventQueries.ofThread();
                }
                try {
                    long start = queries.profilingTime(events[i], CL_PROFILING_COMMAND_START);
                    long end = queries.profilingTime(events[i], CL_PROFILING_COMMAND_END);
                    total += Math.max(0, end - start);
                } catch (CLException e) {
                    if (e.getStatus() != CL_PROFILING_INFO_NOT_AVAILABLE) {
                        throw e;
                    }
                    timesMissing = true; // a late event (a blocking transfer's, say): no device times for this launch
                }
            }
        }
        return timesMissing ? 0 : total;
    }

    long bytes(Kind kind) {
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (kinds[i] == kind) {
                total += bytes[i];
            }
        }
        return total;
    }

    int count(Kind kind) {
        int count = 0;
        for (int i = 0; i < size; i++) {
            if (kinds[i] == kind) {
                count++;
            }
        }
        return count;
    }

    /** Releases every event, the dependencies' too; safe after a failure. */
    void release() {
        for (int i = 0; i < dependencyCount; i++) {
            try {
                DriverCalls.count(DriverCalls.Call.RELEASE_EVENT);
                clReleaseEvent(dependencies[i]);
            } catch (CLException e) {
                // An event of a lost device; nothing else holds it.
            }
            dependencies[i] = null;
        }
        dependencyCount = 0;
        for (int i = 0; i < size; i++) {
            try {
                DriverCalls.count(DriverCalls.Call.RELEASE_EVENT);
                clReleaseEvent(events[i]);
            } catch (CLException e) {
                // An event of a lost device; nothing else holds it.
            }
            events[i] = null;
        }
        size = 0;
        finishedByQueue = false;
        queueFailure = null;
        timesMissing = false;
    }
}
