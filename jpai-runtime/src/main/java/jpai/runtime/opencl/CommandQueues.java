package jpai.runtime.opencl;

import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clCreateCommandQueueWithProperties;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clReleaseCommandQueue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_queue_properties;

import jpai.runtime.JpaiOptions;

/**
 * The in-order command queues of one {@link DeviceContext}, lent one per launch (and one per lazy
 * copy back) for as long as it has commands in flight: a pool of profiling queues, whose commands'
 * device times can be read, and one of plain queues for launches that measure none
 * ({@link BuiltProgram#timesNextLaunch}: on the H100 a profiling queue and its time queries cost a small call 15-20
 * µs). A queue is in order, so commands of
 * two launches on one queue would run one after the other: a long kernel would hold up every later
 * launch of every thread. Launches on different queues are as independent as the device makes
 * them, and whatever must happen in order across queues (a buffer sent by one launch and read by
 * another) is ordered by events ({@link DeviceResidency}).
 *
 * <p>Queues are created on demand, up to {@link #limit()} ({@code -Djpai.queues=N}, default
 * {@value jpai.runtime.JpaiOptions#DEFAULT_QUEUES}); a launch that finds every queue lent waits for one, answering
 * {@link Thread#interrupt()}. The queue given back last is lent first, so one thread applying
 * functions in a loop keeps using one queue.
 *
 * <p>Thread-safe.
 */
final class CommandQueues {

    /** The plain queues of every pool, which {@link LaunchEvents} must not ask for device times. */
    private static final java.util.Set<cl_command_queue> PLAIN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final cl_context context;
    private final cl_device_id device;
    private final boolean profiling;
    private final int limit;
    /** Guarded by this object's monitor. */
    private final ArrayDeque<cl_command_queue> idle = new ArrayDeque<>();
    private final List<cl_command_queue> all = new ArrayList<>();
    /** Queues created or being created: counted before the driver call, so that racing takers never pass the limit. */
    private int count;
    private boolean closed;

    /** @param profiling whether its queues record their commands' device times */
    CommandQueues(cl_context context, cl_device_id device, boolean profiling) {
        this.context = context;
        this.device = device;
        this.profiling = profiling;
        this.limit = JpaiOptions.queueLimit();
        if (profiling) {
            // fails now, not at the first launch, when the device cannot make a queue; the plain
            // pool makes its queues when a launch first asks (most processes never sample device times)
            cl_command_queue first = create();
            idle.push(first);
            all.add(first);
            count = 1;
        }
    }

    /** The most queues this pool creates. */
    int limit() {
        return limit;
    }

    /** Queues created so far (for tests). */
    synchronized int created() {
        return all.size();
    }

    /**
     * A queue with nothing in flight, lent to the caller until {@link #giveBack}.
     *
     * @param forWhat what the queue is for, as the message of an interrupt names it ("a copy to the device")
     * @throws LaunchInterruptedException if the thread is interrupted while every queue is lent
     */
    cl_command_queue take(String forWhat) {
        return take(forWhat, null);
    }

    /**
     * {@link #take(String)} for {@code forWhat} named {@code name} ("kernel", "map_f"): the two are
     * joined only for the message of an interrupt, not on every launch.
     */
    cl_command_queue take(String forWhat, String name) {
        synchronized (this) {
            while (true) {
                if (closed) {
                    throw new IllegalStateException("the device context was closed");
                }
                cl_command_queue queue = idle.pollFirst();
                if (queue != null) {
                    return queue;
                }
                if (count < limit) {
                    count++;
                    break;
                }
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // kept: the caller's code may test it too
                    throw new LaunchInterruptedException("interrupted while waiting for one of the device's " + limit + " command queues (-D" + JpaiOptions.QUEUES
                            + ") to run " + (name == null ? forWhat : forWhat + " " + name) + "; nothing of it was started");
                }
            }
        }
        cl_command_queue created;
        try {
            created = create(); // outside the monitor: a driver call
        } catch (RuntimeException e) {
            synchronized (this) {
                count--;
                notify();
            }
            throw e;
        }
        synchronized (this) {
            all.add(created);
        }
        return created;
    }

    /** Takes back a queue whose commands have all finished. */
    void giveBack(cl_command_queue queue) {
        synchronized (this) {
            if (!closed) {
                idle.push(queue);
                notify();
                return;
            }
        }
        release(queue);
    }

    /** Waits for every queue's commands and releases the idle queues; lent ones are released when given back. */
    void close() {
        List<cl_command_queue> idleNow;
        synchronized (this) {
            closed = true;
            idleNow = new ArrayList<>(idle);
            idle.clear();
            notifyAll();
        }
        idleNow.forEach(CommandQueues::release);
    }

    private cl_command_queue create() {
        if (profiling) {
            return create(context, device);
        }
        cl_command_queue plain = clCreateCommandQueueWithProperties(context, device, new cl_queue_properties(), null);
        PLAIN.add(plain);
        return plain;
    }

    /** Whether {@code queue} records its commands' device times (every queue but a plain pool's). */
    static boolean profiles(cl_command_queue queue) {
        return PLAIN.isEmpty() || !PLAIN.contains(queue); // most processes make no plain queue: no hash lookup then
    }

    /** A new in-order queue with profiling on. */
    static cl_command_queue create(cl_context context, cl_device_id device) {
        cl_queue_properties properties = new cl_queue_properties();
        properties.addProperty(CL.CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        return clCreateCommandQueueWithProperties(context, device, properties, null);
    }

    /** Waits for {@code queue}'s commands and releases it. */
    static void release(cl_command_queue queue) {
        PLAIN.remove(queue);
        try {
            DriverCalls.count(DriverCalls.Call.FLUSH);
            clFinish(queue);
            clReleaseCommandQueue(queue);
        } catch (CLException e) {
            // A lost device may refuse; nothing else holds the queue.
        }
    }
}
