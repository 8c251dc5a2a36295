package jpai.runtime.opencl;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many kernels this JVM has enqueued on OpenCL devices: evidence that the device ran, for test
 * runs that must not pass on Java threads alone ({@code bin/jpai test} prints how many tests
 * launched kernels) and for users who want to know.
 */
public final class KernelLaunches {

    private static final AtomicLong COUNT = new AtomicLong();
    private static final AtomicLong TILED = new AtomicLong();

    private KernelLaunches() {
    }

    /** Kernels enqueued since the JVM started (a split launch counts each enqueue). */
    public static long count() {
        return COUNT.get();
    }

    /** Of {@link #count()}, the enqueues of kernels that read through {@code __local} tiles (docs/backend.md, "Tiling"). */
    public static long tiledCount() {
        return TILED.get();
    }

    static void recordOne(boolean tiled) {
        COUNT.incrementAndGet();
        if (tiled) {
            TILED.incrementAndGet();
        }
    }
}
