package jpai.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Does a small kernel on one command queue finish while a long kernel runs on another queue of the
 * same context? Issue 19 asks that a long kernel delay other threads' applies "only as far as the
 * device itself queues them"; JPAI's {@code ManyThreadsTest} saw the small apply wait for the long
 * kernel on the H100 (not on PoCL). This measures the device's own answer with hand-written JOCL
 * (two queues, one context: a one-work-item loop of about {@code seconds}, then a 1K-element kernel on
 * the second queue) and JPAI's (the same two functions applied from two threads), side by side.
 *
 * <p>Usage: {@code bin/jpai run jpai.bench.QueueOverlap [seconds, default 2]}; on the GPU machine
 * {@code bin/gpu-run run jpai.bench.QueueOverlap}.
 */
public final class QueueOverlap {

    private static final String SPIN = "__kernel void spin(__global long *out, const int reps) {\n"
            + "    long s = (long) get_global_id(0);\n"
            + "    for (int r = 0; r < reps; r++) { s = s * 31 + (r ^ (int) (s >> 17)); }\n"
            + "    out[get_global_id(0)] = s;\n"
            + "}\n";
    private static final String SMALL = "__kernel void twice_plus_one(__global const float *x, __global float *y, const int n) {\n"
            + "    int i = get_global_id(0);\n"
            + "    if (i < n) { y[i] = x[i] * 2.0f + 1.0f; }\n"
            + "}\n";
    private static final int N = 1024;

    private QueueOverlap() {
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        System.setProperty("jpai.fallback", "error");
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("QueueOverlap: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().name());
        handWritten(device, seconds, true);
        handWritten(device, seconds, false);
        jpai(seconds);
    }

    /** @param profiling whether the two queues are created with {@code CL_QUEUE_PROFILING_ENABLE}, as JPAI's are */
    private static void handWritten(DeviceChoice.OpenCL device, double seconds, boolean profiling) {
        try (Jocl shared = Jocl.open(device.device());
                        Jocl first = profiling ? shared.withOwnQueue() : shared.withOwnQueueUnprofiled();
                        Jocl second = profiling ? shared.withOwnQueue() : shared.withOwnQueueUnprofiled()) {
            cl_kernel spin = first.kernel(SPIN, "spin");
            cl_mem out = first.deviceBuffer(8);
            Jocl.arg(spin, 0, out);
            int reps = calibrated(seconds, trial -> {
                Jocl.arg(spin, 1, trial);
                long start = System.nanoTime();
                first.launch(spin, new long[] {1}, null);
                first.finish();
                return (System.nanoTime() - start) * 1e-9;
            });
            cl_kernel small = second.kernel(SMALL, "twice_plus_one");
            cl_mem x = second.deviceBuffer(4L * N);
            cl_mem y = second.deviceBuffer(4L * N);
            Jocl.arg(small, 0, x);
            Jocl.arg(small, 1, y);
            Jocl.arg(small, 2, N);
            second.launch(small, new long[] {N}, null); // built and warm before the race
            second.finish();

            Jocl.arg(spin, 1, reps);
            long longStart = System.nanoTime();
            first.launch(spin, new long[] {1}, null);
            first.flush();
            sleep(300);
            long smallStart = System.nanoTime();
            second.launch(small, new long[] {N}, null);
            second.finish();
            long smallEnd = System.nanoTime();
            first.finish();
            long longEnd = System.nanoTime();
            report("hand-written JOCL, two queues" + (profiling ? " with profiling" : " without profiling"), (smallEnd - smallStart) * 1e-6, (longEnd - longStart) * 1e-6, (smallEnd - longStart) * 1e-6);
        }
    }

    private static void jpai(double seconds) throws Exception {
        int reps = calibrated(seconds, trial -> {
            long start = System.nanoTime();
            try (PArray<Integer> one = PArray.range(1); PArray<Long> out = AF.map(spin(trial), Long.class).apply(one)) {
                out.get(0);
            }
            return (System.nanoTime() - start) * 1e-9;
        });
        ArrayFunction<Integer, Long> longMap = AF.map(spin(reps), Long.class);
        ArrayFunction<Float, Float> small = AF.<Float, Float> map(v -> v * 2f + 1f);
        float[] values = new float[N];
        try (PArray<Float> in = PArray.of(values)) {
            small.apply(in).close(); // compiled and resident before the race
            ExecutorService longThread = Executors.newSingleThreadExecutor();
            try {
                long longStart = System.nanoTime();
                Future<Long> longRun = longThread.submit(() -> {
                    try (PArray<Integer> one = PArray.range(1); PArray<Long> out = longMap.apply(one)) {
                        out.get(0);
                    }
                    return System.nanoTime();
                });
                sleep(300);
                long smallStart = System.nanoTime();
                small.apply(in).close();
                long smallEnd = System.nanoTime();
                long longEnd = longRun.get(10 * (long) (seconds + 1), TimeUnit.SECONDS);
                report("JPAI, two threads", (smallEnd - smallStart) * 1e-6, (longEnd - longStart) * 1e-6, (smallEnd - longStart) * 1e-6);
            } finally {
                longThread.shutdownNow();
            }
        }
    }

    /**
     * The repetitions that make the long kernel run about {@code seconds}: more and more until one
     * run takes at least a fifth of a second, then scaled; the first run, which builds the kernel, is not timed.
     */
    private static int calibrated(double seconds, java.util.function.IntToDoubleFunction secondsFor) {
        int reps = 1 << 16;
        secondsFor.applyAsDouble(reps); // builds (and for JPAI compiles) the kernel
        double taken = secondsFor.applyAsDouble(reps);
        while (taken < 0.2 && reps < (1 << 28)) {
            reps *= 4;
            taken = secondsFor.applyAsDouble(reps);
        }
        return (int) Math.min(Integer.MAX_VALUE, reps * seconds / taken);
    }

    /** A one-element map that loops {@code reps} times: the long kernel (its captured count makes one kernel for every length). */
    private static Function<Integer, Long> spin(int reps) {
        return i -> {
            long s = i;
            for (int r = 0; r < reps; r++) {
                s = s * 31 + (r ^ (int) (s >> 17));
            }
            return s;
        };
    }

    private static void report(String what, double smallMillis, double longMillis, double smallDoneAfterLongStartMillis) {
        boolean overlapped = smallDoneAfterLongStartMillis < longMillis * 0.9;
        System.out.printf("%s: the small kernel took %.1f ms, done %.0f ms after the long one started; the long one took %.0f ms: %s%n", what, smallMillis,
                smallDoneAfterLongStartMillis, longMillis, overlapped ? "overlapped" : "waited for the long kernel");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
