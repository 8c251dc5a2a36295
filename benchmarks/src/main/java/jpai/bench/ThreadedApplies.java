package jpai.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Applies per second under load from many threads (issue 19: 1 thread 8.3k/s, 4 threads 11.3k/s,
 * 16 threads 9.3k/s on the H100): small maps ({@code x -> x * 2f + 1f} over 1K floats by default)
 * applied in a loop by 1, 4 and 16 threads through the public API as a user writes it, every result
 * checked against Java's, against the same work in hand-written JOCL from as many threads (one
 * context, as JPAI has; each thread its own command queue, kernel and pinned buffers: write,
 * kernel, read, finish per call). Fallback to Java is an error, and the kernels enqueued are counted
 * ({@link KernelLaunches}): every JPAI apply counted ran on the device.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.ThreadedApplies [elements, default 1024] [seconds per row, default 3]};
 * on the GPU machine, after {@code bin/gpu-bundle}: {@code bin/gpu-run run jpai.bench.ThreadedApplies}.
 */
public final class ThreadedApplies {

    private static final int[] THREAD_COUNTS = {1, 4, 16};
    private static final String KERNEL = "__kernel void twice_plus_one(__global const float *x, __global float *y, const int n) {\n"
            + "    int i = get_global_id(0);\n"
            + "    if (i < n) { y[i] = x[i] * 2.0f + 1.0f; }\n"
            + "}\n";

    private ThreadedApplies() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("ThreadedApplies: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        ArrayFunction<Float, Float> twicePlusOne = AF.<Float, Float> map(x -> x * 2f + 1f);
        System.out.printf("device: %s; %d-element maps, %.1f s per row, every result checked; %d cores, java %s%n", device.device().name(), n, seconds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println("threads,jpai_applies_per_s,jocl_calls_per_s,jpai_over_jocl");
        Jocl shared = Jocl.open(device.device()); // the hand-written threads' one context, kept for the JVM's life (a benchmark main)
        for (int threads : THREAD_COUNTS) {
            long launchesBefore = KernelLaunches.count();
            Rate jpai = rate(threads, seconds, worker -> jpaiLoop(twicePlusOne, n, worker));
            long launches = KernelLaunches.count() - launchesBefore;
            if (launches < jpai.calls()) {
                throw new IllegalStateException(jpai.calls() + " JPAI applies enqueued only " + launches + " kernels: not every apply ran on the device");
            }
            Rate jocl = rate(threads, seconds, worker -> joclLoop(shared.withOwnQueue(), n, worker));
            System.out.printf("%d,%.0f,%.0f,%.2f%n", threads, jpai.perSecond(), jocl.perSecond(), jpai.perSecond() / jocl.perSecond());
        }
    }

    /** Timed calls of all threads (warm-up excluded) and their rate. */
    private record Rate(long calls, double perSecond) {
    }

    /** One thread's loop: calls until {@code deadline} (nanoTime), each result checked; returns the calls made. */
    private interface Loop {
        long run(long deadline);
    }

    private static Rate rate(int threads, double seconds, java.util.function.IntFunction<Loop> loops) throws InterruptedException {
        List<Loop> perThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            perThread.add(loops.apply(t));
        }
        perThread.forEach(loop -> loop.run(System.nanoTime() + 200_000_000L)); // warm up: build, allocate, JIT
        long[] counts = new long[threads];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        long deadline = System.nanoTime() + (long) (seconds * 1e9) + 50_000_000L;
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    counts[index] = perThread.get(index).run(deadline);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            thread.start();
            running.add(thread);
        }
        long begin = System.nanoTime();
        start.countDown();
        for (Thread thread : running) {
            thread.join();
        }
        long elapsed = System.nanoTime() - begin;
        if (failure.get() != null) {
            throw new IllegalStateException("a worker failed", failure.get());
        }
        long calls = Arrays.stream(counts).sum();
        return new Rate(calls, calls / (elapsed / 1e9));
    }

    private static float[] input(int n, int worker) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = worker * 1000 + i * 0.25f;
        }
        return x;
    }

    private static Loop jpaiLoop(ArrayFunction<Float, Float> function, int n, int worker) {
        float[] x = input(n, worker);
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = x[i] * 2f + 1f;
        }
        PArray<Float> in = PArray.of(x);
        return deadline -> {
            long calls = 0;
            do {
                try (PArray<Float> out = function.apply(in)) {
                    if (!Arrays.equals(expected, out.toFloatArray())) {
                        throw new AssertionError("JPAI result differs from Java's in worker " + worker);
                    }
                }
                calls++;
            } while (System.nanoTime() < deadline);
            return calls;
        };
    }

    private static Loop joclLoop(Jocl cl, int n, int worker) {
        float[] x = input(n, worker);
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = x[i] * 2f + 1f;
        }
        cl_kernel kernel = cl.kernel(KERNEL, "twice_plus_one");
        Jocl.Pinned hostIn = cl.pinned(4L * n);
        Jocl.Pinned hostOut = cl.pinned(4L * n);
        cl_mem deviceIn = cl.deviceBuffer(4L * n);
        cl_mem deviceOut = cl.deviceBuffer(4L * n);
        hostIn.host().asFloatBuffer().put(x);
        Jocl.arg(kernel, 0, deviceIn);
        Jocl.arg(kernel, 1, deviceOut);
        Jocl.arg(kernel, 2, n);
        long local = Math.min(cl.workGroup1D(), 256);
        long[] global = {Jocl.roundUp(n, local)};
        float[] result = new float[n];
        return deadline -> {
            long calls = 0;
            do {
                cl.write(deviceIn, hostIn);
                cl.launch(kernel, global, new long[] {local});
                cl.read(hostOut, deviceOut);
                cl.finish();
                hostOut.host().asFloatBuffer().get(result);
                if (!Arrays.equals(expected, result)) {
                    throw new AssertionError("hand-written result differs from Java's in worker " + worker);
                }
                calls++;
            } while (System.nanoTime() < deadline);
            return calls;
        };
    }
}
