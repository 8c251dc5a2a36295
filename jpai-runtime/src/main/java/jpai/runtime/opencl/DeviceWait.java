package jpai.runtime.opencl;

import static org.jocl.CL.CL_COMPLETE;
import static org.jocl.CL.clFlush;

import java.util.concurrent.locks.LockSupport;

import org.jocl.cl_event;

/**
 * Waits for the commands of one launch, answering {@link Thread#interrupt()}: OpenCL's own wait
 * ({@code clWaitForEvents}) blocks in the driver and cannot be interrupted, so the thread instead
 * polls the last command's status: back to back for {@value #SPIN_NANOS} ns (a small launch on a GPU
 * is done by then), then between sleeps of a sixteenth of the time waited so far, from
 * {@value #FIRST_SLEEP_NANOS} ns to {@value #LONGEST_SLEEP_NANOS} ns:
 * a kernel is noticed at most about 6 % (and half a millisecond) late, plus the timer slack, and a long one costs a waiting
 * thread a few thousand status reads a second. With sleeps that doubled from 10 us (up to 0.5 ms,
 * and Linux's timer slack adds about 50 us to each) a 0.9 ms copy kernel on the H100 took 1.23 to
 * 1.29 ms per apply, against 1.05 to 1.12 ms with the driver's blocking wait before: most likely
 * the last sleep overshooting (to be measured again on the H100).
 *
 * <p>When the caller knows how long the device took for the same launch last time, the thread
 * instead sleeps through most of that in one sleep, waking {@value #EARLY_NANOS} ns plus a
 * sixteenth early (more than the timer slack), and polls back to back from there: the kernel is
 * noticed within a poll of its end instead of up to a sixteenth late. A guess that was too short
 * costs only the time spun; one too long (the device got slower) ends the back-to-back polls at
 * twice the guess, and the proportional sleeps take over.
 *
 * <p>Why not the driver's completion callback ({@code clSetEventCallback}) and a park: on PoCL
 * (2 cores) it halved the applies a thread makes per second, the hand-off from the driver's thread
 * costing more than the sleeps, and a failed command (a lost device) may never call it back.
 *
 * <p>The commands of one launch are on one in-order queue, so when its last command is complete all
 * are; a failed command anywhere ends the wait too (the events' own {@link LaunchEvents#await()}
 * then reports it).
 *
 * <p>An event may report its command late: NVIDIA's driver marks it complete only once the kernels
 * running on the device's other queues (other threads' launches) have ended too ({@link QueueFinish}).
 * So a wait that has lasted twice the expected time, and at least {@value #FINISH_AFTER_NANOS} ns,
 * also has the launch's queue finished on another thread ({@code clFinish}, which knows at once)
 * and ends when either says the commands are done; the events then know it
 * ({@link LaunchEvents#finishedByQueue()}). On the H100 a small apply made while another thread's
 * kernel of 5 s ran waited for all of it before.
 */
final class DeviceWait {

    private static final long SPIN_NANOS = 50_000;
    private static final long FIRST_SLEEP_NANOS = 10_000;
    private static final long LONGEST_SLEEP_NANOS = 500_000;
    private static final long EARLY_NANOS = 100_000;
    private static final long SPIN_THROUGH_NANOS = 2_000_000;
    private static final long FINISH_AFTER_NANOS = 250_000;

    private DeviceWait() {
    }

    /**
     * Waits until every command of {@code events} has finished, or one failed.
     *
     * @return true when done; false when the thread was interrupted first, or already was (its flag
     *         stays set, and the commands may still be running: the caller must leave what they use
     *         alone)
     */
    static boolean await(LaunchEvents events) {
        return await(events, 0);
    }

    /**
     * {@link #await(LaunchEvents)}, knowing that the same launch took {@code expectedNanos} of
     * device time last time (0: unknown).
     */
    static boolean await(LaunchEvents events, long expectedNanos) {
        return await(events, expectedNanos, true);
    }

    /**
     * {@link #await(LaunchEvents, long)}; {@code flush}: whether to submit the queue's commands first
     * (false only when the queue was flushed after its last command was enqueued: a sequence's later
     * launches, waited for after the first).
     */
    static boolean await(LaunchEvents events, long expectedNanos, boolean flush) {
        return await(events, expectedNanos, flush, 0, false);
    }

    /**
     * {@link #await(LaunchEvents, long, boolean)}, the device having started on these commands at
     * {@code startedAt} ({@link System#nanoTime()}; 0: now): the expected time counts from then.
     * {@code spinThrough}: the device is not this machine's CPU, so polling costs it nothing; then a
     * launch expected to take at most {@value #SPIN_THROUGH_NANOS} ns is polled back to back from
     * the start instead of slept through: a sleeping thread wakes tens of microseconds late, at
     * random (timer slack, an idle core's wake-up), which on the H100 was a tenth of a reduction of
     * 2^28 floats and varied by as much from run to run. On a CPU device (PoCL) the kernel needs the
     * cores, so the thread sleeps.
     */
    static boolean await(LaunchEvents events, long expectedNanos, boolean flush, long startedAt, boolean spinThrough) {
        long now = System.nanoTime();
        long begin = startedAt == 0 ? now : Math.min(startedAt, now);
        cl_event last = events.last();
        if (last == null || events.finishedByQueue()) {
            return !Thread.currentThread().isInterrupted();
        }
        if (flush) {
            DriverCalls.count(DriverCalls.Call.FLUSH);
            clFlush(events.queue()); // submitted now: a command never flushed would never complete
        }
        Progress progress = new Progress(events, last, begin + Math.max(2 * expectedNanos, FINISH_AFTER_NANOS));
        long spinEnd = System.nanoTime() + SPIN_NANOS;
        long time;
        do {
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            time = System.nanoTime();
            if (progress.done(time)) {
                return true;
            }
            Thread.onSpinWait();
        } while (time < spinEnd);
        if (expectedNanos > SPIN_NANOS) {
            long wakeAt = spinThrough && expectedNanos <= SPIN_THROUGH_NANOS ? begin : begin + expectedNanos - EARLY_NANOS - expectedNanos / 16;
            for (long left = wakeAt - System.nanoTime(); left > 0; left = wakeAt - System.nanoTime()) {
                LockSupport.parkNanos(left); // an interrupt ends it at once
                if (Thread.currentThread().isInterrupted()) {
                    return false;
                }
            }
            long pollEnd = begin + 2 * expectedNanos;
            do {
                if (Thread.currentThread().isInterrupted()) {
                    return false;
                }
                time = System.nanoTime();
                if (progress.done(time)) {
                    return true;
                }
                Thread.onSpinWait();
            } while (time < pollEnd);
            if (events.anyFailed(progress.queries)) {
                return true;
            }
        }
        long waitStart = begin;
        while (true) {
            // a sleep in proportion to the time waited so far: noticed at most about 1/16 late
            long waited = System.nanoTime() - waitStart;
            LockSupport.parkNanos(Math.clamp(waited / 16, FIRST_SLEEP_NANOS, LONGEST_SLEEP_NANOS)); // an interrupt ends it at once
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
            if (progress.done(System.nanoTime()) || events.anyFailed(progress.queries)) {
                return true;
            }
        }
    }

    /**
     * What one wait has seen: the last command's event, and, once the wait has lasted until
     * {@code finishFrom}, the {@link QueueFinish} that ends it if the events report late.
     */
    private static final class Progress {
        final LaunchEvents events;
        final cl_event last;
        final long finishFrom;
        final EventQueries queries = EventQueries.ofThread(); // a poll allocates nothing
        QueueFinish finish;

        Progress(LaunchEvents events, cl_event last, long finishFrom) {
            this.events = events;
            this.last = last;
            this.finishFrom = finishFrom;
        }

        /** Whether the launch's commands are done, {@code now} being {@link System#nanoTime()}: its last event says so, or its queue finished. */
        boolean done(long now) {
            if (finished(last, queries)) {
                return true;
            }
            if (finish == null) {
                if (now - finishFrom >= 0) {
                    finish = QueueFinish.start(events.queue());
                }
                return false;
            }
            if (finish.done()) {
                events.finishedByQueue(finish.failure());
                return true;
            }
            return false;
        }
    }

    /** Whether {@code event}'s command completed or failed (a negative status). */
    private static boolean finished(cl_event event, EventQueries queries) {
        return queries.executionStatus(event) <= CL_COMPLETE;
    }
}
