package jpai.runtime.opencl;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many kernels this JVM has enqueued on OpenCL devices: evidence that the device ran, for test
 * runs that must not pass on Java threads alone ({@code bin/jpai test} prints how many tests
 * launched kernels) and for users who want to know.
 */
public final class KernelLaunches {

    private static final AtomicLong COUNT = new AtomicLong();

    private KernelLaunches() {
    }

    /** Kernels enqueued since the JVM started (a split launch counts each enqueue). */
    public static long count() {
        return COUNT.get();
    }

    static void recordOne() {
        COUNT.incrementAndGet();
    }
}
