package jpai.runtime.opencl;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.jocl.CLException;

/**
 * Launches whose thread stopped waiting (it was interrupted) while their commands were still on the
 * device. Their commands cannot be recalled, and they read and write the launch's buffers and host
 * memory until they finish, so what the launch holds (its leases, temporaries, status buffer,
 * events and command queue) is released here, by a daemon thread that waits for the commands to
 * finish first.
 *
 * <p>Thread-safe.
 */
final class AbandonedLaunches {

    private static final AtomicInteger PENDING = new AtomicInteger();
    private static final ExecutorService WAITERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "jpai-abandoned-launch");
        thread.setDaemon(true);
        return thread;
    });

    private AbandonedLaunches() {
    }

    /** Runs {@code release} once every command of {@code events} has finished (or failed). */
    static void releaseWhenFinished(LaunchEvents events, Runnable release) {
        PENDING.incrementAndGet();
        WAITERS.execute(() -> {
            try {
                events.finish(); // not clWaitForEvents: on NVIDIA it may wait for other queues' kernels too
            } catch (CLException e) {
                // A failed command has finished too; its error concerns nobody now.
            } finally {
                try {
                    release.run();
                } finally {
                    PENDING.decrementAndGet();
                }
            }
        });
    }

    /** Abandoned launches not yet released (for tests). */
    static int pending() {
        return PENDING.get();
    }
}
