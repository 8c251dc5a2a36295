package jpai.bench;

import java.lang.management.ManagementFactory;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The Java heap one warm apply allocates on the calling thread (issue 12: the host path of an
 * apply should allocate little beyond its result): a map of {@code x * 2f + 1f} over 1 and over 1K
 * floats, input resident on the device, and a sum reduction of 1K floats; each result read with
 * {@code get(0)} and closed. Counted with {@code com.sun.management.ThreadMXBean}'s per-thread
 * allocation counter around {@code calls} applies after as many warm-up ones; every counted apply
 * must have enqueued a kernel (a fallback to Java would measure the wrong path).
 *
 * <p>Run: {@code bin/jpai run jpai.bench.ApplyAllocations [applies, default 500]}. Prints one line
 * per case: bytes per apply.
 */
public final class ApplyAllocations {

    private ApplyAllocations() {
    }

    public static void main(String[] args) {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ApplyAllocations: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads) || !threads.isThreadAllocatedMemorySupported()) {
            System.err.println("ApplyAllocations: this JVM does not count the bytes a thread allocates");
            System.exit(2);
            return;
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        System.setProperty("jpai.fallback", "error");
        System.out.println("device: " + device.device().name().strip() + "; " + calls + " warm applies per case");
        ArrayFunction<Float, Float> twicePlusOne = AF.<Float, Float> map(v -> v * 2f + 1f);
        ArrayFunction<Float, Float> sum = AF.<Float> reduce((a, b) -> a + b, 0f);
        System.out.printf("map, 1 element: %d bytes per apply%n", bytesPerApply(threads, twicePlusOne, 1, calls));
        System.out.printf("map, 1024 elements: %d bytes per apply%n", bytesPerApply(threads, twicePlusOne, 1024, calls));
        System.out.printf("reduce, 1024 elements: %d bytes per apply%n", bytesPerApply(threads, sum, 1024, calls));
    }

    /**
     * The bytes the calling thread allocated per warm apply of {@code function} to {@code n} floats
     * already on the device, each result read with {@code get(0)} and closed.
     */
    public static long bytesPerApply(com.sun.management.ThreadMXBean threads, ArrayFunction<Float, Float> function, int n, int calls) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i % 17) * 0.25f - 2f;
        }
        try (PArray<Float> input = PArray.of(x)) {
            AF.<Float> copyToDevice().apply(input).close();
            float sink = 0;
            for (int i = 0; i < calls; i++) { // warm-up: compiled, cached, pools filled, JIT-compiled
                try (PArray<Float> out = function.apply(input)) {
                    sink += out.get(0);
                }
            }
            long launches = KernelLaunches.count();
            long thread = Thread.currentThread().threadId();
            long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < calls; i++) {
                try (PArray<Float> out = function.apply(input)) {
                    sink += out.get(0);
                }
            }
            long allocated = threads.getThreadAllocatedBytes(thread) - before;
            if (KernelLaunches.count() - launches < calls) {
                throw new IllegalStateException(calls + " applies enqueued only " + (KernelLaunches.count() - launches) + " kernels: not every apply ran on the device");
            }
            if (Float.isNaN(sink)) {
                throw new AssertionError("NaN result");
            }
            return allocated / calls;
        }
    }
}
