package jpai.runtime.opencl;

import static org.jocl.CL.clFinish;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.jocl.CLException;
import org.jocl.cl_command_queue;

/**
 * {@code clFinish} of one command queue, called on a thread of its own, for a launch whose wait
 * has lasted long enough that its events may be reporting late: NVIDIA's driver marks a command
 * complete only once the kernels then running on the device's other queues have ended too, although
 * the command itself finished long before. On the H100, a 1,024-item kernel on one queue while a
 * 1.5 s kernel ran on another: {@code clFinish} of its queue returned at once (7 us), a word its
 * last copy wrote into host memory was there after 0.16 ms, but polling its event or
 * {@code clWaitForEvents} took 1,199 ms
 * ({@code benchmarks/results/nvidia-h100-2026-11-27/s18/overlap-gpu-events-s18.txt}, {@code s19/overlap3-s19.txt}).
 *
 * <p>The waiting thread keeps polling the events and keeps answering {@link Thread#interrupt()}
 * ({@link DeviceWait}); this thread is the one that blocks in the driver, and when the thread that
 * waited has stopped waiting, it simply ends with the queue. The queue must be the launch's own
 * (lent to it by {@link CommandQueues}): every command on it is the launch's.
 *
 * <p>Thread-safe: {@link #done()} and {@link #failure()} are read by the waiting thread while the
 * finishing one writes them.
 */
final class QueueFinish {

    /** Idle threads end after a minute: a process only has as many as it had long waits at once. */
    private static final ExecutorService FINISHERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "jpai-queue-finish");
        thread.setDaemon(true);
        return thread;
    });

    private volatile boolean done;
    /** The driver's error for the queue, when {@code clFinish} reported one. */
    private volatile CLException failure;

    private QueueFinish() {
    }

    /** Starts {@code clFinish(queue)} on a finishing thread. */
    static QueueFinish start(cl_command_queue queue) {
        QueueFinish finish = new QueueFinish();
        FINISHERS.execute(() -> {
            try {
                clFinish(queue);
            } catch (CLException e) {
                finish.failure = e;
            } finally {
                finish.done = true;
            }
        });
        return finish;
    }

    /** Whether {@code clFinish} has returned: every command enqueued on the queue before the start has finished, or the queue failed. */
    boolean done() {
        return done;
    }

    /** The error {@code clFinish} reported, or null; meaningful once {@link #done()}. */
    CLException failure() {
        return failure;
    }
}
