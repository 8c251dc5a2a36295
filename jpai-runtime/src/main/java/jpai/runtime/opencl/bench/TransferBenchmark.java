package jpai.runtime.opencl.bench;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_MAP_READ;
import static org.jocl.CL.CL_MAP_WRITE;
import static org.jocl.CL.CL_MEM_ALLOC_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clReleaseProgram;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clSetKernelArg;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clCreateCommandQueueWithProperties;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clEnqueueMapBuffer;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueUnmapMemObject;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetEventProfilingInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseEvent;
import static org.jocl.CL.clReleaseMemObject;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_program;
import org.jocl.cl_mem;
import org.jocl.cl_queue_properties;

import jdk.vm.ci.meta.JavaKind;
import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.ApplyProfile;
import jpai.runtime.profile.Profiler;

/**
 * The runtime's data movement against hand-written JOCL, in one run, on the chosen device:
 *
 * <ol>
 * <li>host→device and device→host of a {@code PArray<Float>} (1 GiB by default) through the runtime
 * (pinned host memory, residency, lazy copy-back), next to a raw JOCL copy between a mapped
 * {@code CL_MEM_ALLOC_HOST_PTR} buffer and a device buffer. Target: the runtime at ≥ 90% of raw.</li>
 * <li>the host overhead of {@code apply} of a 1,024-element map after warm-up: the median of many
 * applies and the profiler's split. Target: &lt; 50 µs.</li>
 * </ol>
 *
 * Both paths are validated before anything is timed. Rates are GB/s (10^9 bytes per second), from
 * the wall clock and from OpenCL event profiling, medians over the repeats.
 *
 * <p>Usage: {@code TransferBenchmark [--bytes N] [--repeats R] [--applies A]}; on the GPU machine
 * {@code bin/gpu-run run jpai.runtime.opencl.bench.TransferBenchmark}. Exits 2 if no OpenCL device
 * is chosen, 1 if a validation fails.
 *
 * <p>A single-threaded program; not meant for use as a library.
 */
public final class TransferBenchmark {

    private static final KernelSource READS = new KernelSource("bench_reads",
            "__kernel void bench_reads(__global const float *in, const long n) { }\n", "", List.of());
    private static final KernelSource WRITES = new KernelSource("bench_writes",
            "__kernel void bench_writes(__global float *out, const long n) { }\n", "", List.of());
    private static final KernelSource COPY = new KernelSource("bench_copy",
            "__kernel void bench_copy(__global const float *in, __global float *out, const long n) {\n"
                    + "    for (long i = get_global_id(0); i < n; i += get_global_size(0)) { out[i] = in[i]; }\n"
                    + "}\n", "", List.of());

    private final long bytes;
    private final int repeats;
    private final int applies;

    private TransferBenchmark(long bytes, int repeats, int applies) {
        this.bytes = bytes;
        this.repeats = repeats;
        this.applies = applies;
    }

    public static void main(String[] args) {
        long bytes = 1L << 30;
        int repeats = 5;
        int applies = 20_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bytes" -> bytes = Long.parseLong(args[++i]);
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--applies" -> applies = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: TransferBenchmark [--bytes N] [--repeats R] [--applies A]");
                    System.exit(2);
                }
            }
        }
        if (bytes % Float.BYTES != 0 || bytes <= 0 || bytes > Integer.MAX_VALUE) {
            System.err.println("--bytes must be a positive multiple of 4 of at most 2^31-1 (the raw path maps one buffer)");
            System.exit(2);
        }
        DeviceChoice choice = OpenCLRuntime.choice();
        if (!(choice instanceof DeviceChoice.OpenCL device)) {
            System.err.println("TransferBenchmark needs an OpenCL device; the runtime chose Java threads: " + choice.why());
            System.exit(2);
            return;
        }
        System.out.println("device: " + device.device().describe());
        System.out.println("chosen because: " + device.why());
        System.setProperty("jpai.fallback", "error"); // the apply part must run on the device
        int status = new TransferBenchmark(bytes, repeats, applies).run(OpenCLRuntime.context(device));
        System.exit(status);
    }

    private int run(DeviceContext context) {
        System.out.printf(Locale.ROOT, "transfer size: %d bytes (%.2f GiB), %d repeats, medians%n", bytes, bytes / (double) (1L << 30), repeats);
        Rates runtime = runtimeTransfers(context);
        if (runtime == null) {
            return 1;
        }
        Rates raw = rawTransfers(context.device());
        if (raw == null) {
            return 1;
        }
        System.out.println();
        System.out.println("path                                    h2d wall   h2d event   d2h wall   d2h event   (GB/s)");
        System.out.println(raw.row("raw JOCL, mapped CL_MEM_ALLOC_HOST_PTR"));
        System.out.println(runtime.row("JPAI runtime, PArray<Float>"));
        System.out.printf(Locale.ROOT, "runtime / raw (wall): h2d %.1f%%, d2h %.1f%%   (target >= 90%%)%n",
                100 * runtime.h2dWall / raw.h2dWall, 100 * runtime.d2hWall / raw.d2hWall);
        ApplyOverhead overhead = applyOverhead();
        if (overhead == null) {
            return 1;
        }
        System.out.println();
        System.out.println(overhead.report());
        System.out.println();
        System.out.println("json: {\"device\":\"" + context.device().name().replace("\"", "'") + "\",\"bytes\":" + bytes
                + ",\"raw\":" + raw.json() + ",\"runtime\":" + runtime.json() + ",\"apply\":" + overhead.json() + "}");
        return 0;
    }

    // ---------------------------------------------------------------------------------------------
    // Transfers through the runtime

    private Rates runtimeTransfers(DeviceContext context) {
        long n = bytes / Float.BYTES;
        try (PArray<Float> in = PArray.allocate(Float.class, n); PArray<Float> out = PArray.allocate(Float.class, n)) {
            System.out.println("host memory of the arrays: " + (PArrayStorage.buffer(in, 0).allocation().deviceHandle() != null ? "pinned (CL_MEM_ALLOC_HOST_PTR, mapped)" : "plain (not pinned!)"));
            fillPattern(PArrayStorage.buffer(in, 0).forHostWrite());
            // Validation: send, copy on the device, bring back, compare every byte.
            context.launch(COPY, new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(1, PArrayStorage.buffer(out, 0)).scalar(2, JavaKind.Long, n)
                    .globalSize(Math.min(n, 1L << 24)));
            long mismatch = PArrayStorage.buffer(in, 0).forHostRead().mismatch(PArrayStorage.buffer(out, 0).forHostRead());
            if (mismatch != -1) {
                System.out.println("VALIDATION FAILED: the runtime's round trip differs at byte " + mismatch);
                return null;
            }
            System.out.println("validated: runtime round trip of " + bytes + " bytes is exact");
            double[] h2dWall = new double[repeats];
            double[] h2dEvent = new double[repeats];
            double[] d2hWall = new double[repeats];
            double[] d2hEvent = new double[repeats];
            for (int r = 0; r < repeats; r++) {
                PArrayStorage.buffer(in, 0).forHostWrite(); // the device copy is stale now: the next launch sends it all
                long start = System.nanoTime();
                LaunchResult sent = context.launch(READS, new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).scalar(1, JavaKind.Long, n).globalSize(1));
                long wall = System.nanoTime() - start;
                if (sent.profile().hostToDeviceBytes() != bytes) {
                    System.out.println("VALIDATION FAILED: the launch sent " + sent.profile().hostToDeviceBytes() + " bytes, not " + bytes);
                    return null;
                }
                h2dWall[r] = rate(bytes, wall);
                h2dEvent[r] = rate(bytes, sent.profile().hostToDeviceNanos());

                context.launch(WRITES, new KernelLaunch().writeBuffer(0, PArrayStorage.buffer(out, 0)).scalar(1, JavaKind.Long, n).globalSize(1));
                Profiler.LazyTransfers before = Profiler.lazyDeviceToHost();
                start = System.nanoTime();
                PArrayStorage.buffer(out, 0).forHostRead(); // the device copy is newer: this brings it back
                wall = System.nanoTime() - start;
                Profiler.LazyTransfers after = Profiler.lazyDeviceToHost();
                if (after.bytes() - before.bytes() != bytes) {
                    System.out.println("VALIDATION FAILED: the copy-back moved " + (after.bytes() - before.bytes()) + " bytes, not " + bytes);
                    return null;
                }
                d2hWall[r] = rate(bytes, wall);
                d2hEvent[r] = rate(bytes, after.nanos() - before.nanos());
            }
            return new Rates(median(h2dWall), median(h2dEvent), median(d2hWall), median(d2hEvent));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Raw JOCL, written by hand: what the hardware and driver give from pinned memory

    private Rates rawTransfers(OpenCLDeviceInfo device) {
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platformId());
        cl_context context = clCreateContext(properties, 1, new cl_device_id[] {device.deviceId()}, null, null, null);
        cl_queue_properties queueProperties = new cl_queue_properties();
        queueProperties.addProperty(CL.CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        cl_command_queue queue = clCreateCommandQueueWithProperties(context, device.deviceId(), queueProperties, null);
        cl_mem source = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, null, null);
        cl_mem target = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, null, null);
        cl_mem onDevice = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, null, null);
        ByteBuffer sourceMap = clEnqueueMapBuffer(queue, source, true, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, null, null, null);
        ByteBuffer targetMap = clEnqueueMapBuffer(queue, target, true, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, null, null, null);
        try {
            fillPattern(MemorySegment.ofBuffer(sourceMap));
            double[] h2dWall = new double[repeats];
            double[] h2dEvent = new double[repeats];
            double[] d2hWall = new double[repeats];
            double[] d2hEvent = new double[repeats];
            for (int r = -1; r < repeats; r++) {
                cl_event event = new cl_event();
                long start = System.nanoTime();
                clEnqueueWriteBuffer(queue, onDevice, true, 0, bytes, Pointer.to(sourceMap), 0, null, event);
                long wall = System.nanoTime() - start;
                long eventNanos = eventNanos(event);
                event = new cl_event();
                long start2 = System.nanoTime();
                clEnqueueReadBuffer(queue, onDevice, true, 0, bytes, Pointer.to(targetMap), 0, null, event);
                long wall2 = System.nanoTime() - start2;
                long eventNanos2 = eventNanos(event);
                if (r < 0) { // the first round validates and warms up
                    long mismatch = MemorySegment.ofBuffer(sourceMap).mismatch(MemorySegment.ofBuffer(targetMap));
                    if (mismatch != -1) {
                        System.out.println("VALIDATION FAILED: the raw round trip differs at byte " + mismatch);
                        return null;
                    }
                    System.out.println("validated: raw round trip of " + bytes + " bytes is exact");
                    continue;
                }
                h2dWall[r] = rate(bytes, wall);
                h2dEvent[r] = rate(bytes, eventNanos);
                d2hWall[r] = rate(bytes, wall2);
                d2hEvent[r] = rate(bytes, eventNanos2);
            }
            return new Rates(median(h2dWall), median(h2dEvent), median(d2hWall), median(d2hEvent));
        } finally {
            clEnqueueUnmapMemObject(queue, source, sourceMap, 0, null, null);
            clEnqueueUnmapMemObject(queue, target, targetMap, 0, null, null);
            clFinish(queue);
            clReleaseMemObject(source);
            clReleaseMemObject(target);
            clReleaseMemObject(onDevice);
            clReleaseCommandQueue(queue);
            clReleaseContext(context);
        }
    }

    private static long eventNanos(cl_event event) {
        long[] start = new long[1];
        long[] end = new long[1];
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(start), null);
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(end), null);
        clReleaseEvent(event);
        return end[0] - start[0];
    }

    // ---------------------------------------------------------------------------------------------
    // Host overhead of apply

    private ApplyOverhead applyOverhead() {
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = new float[1024];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.25f - 100f;
        }
        try (PArray<Float> in = PArray.of(values)) {
            try (PArray<Float> out = map.apply(in)) {
                float[] result = out.toFloatArray();
                for (int i = 0; i < values.length; i++) {
                    if (Float.floatToRawIntBits(result[i]) != Float.floatToRawIntBits(f.apply(values[i]))) {
                        System.out.println("VALIDATION FAILED: apply gave " + result[i] + " for element " + i + ", Java gives " + f.apply(values[i]));
                        return null;
                    }
                }
            }
            System.out.println("validated: map of 1,024 floats equals Java bit for bit");
            int warmUp = Math.max(1000, applies / 10);
            for (int i = 0; i < warmUp; i++) {
                map.apply(in).close();
            }
            long[] wall = new long[applies];
            List<ApplyProfile> profiles = new ArrayList<>(applies);
            for (int i = 0; i < applies; i++) {
                long start = System.nanoTime();
                PArray<Float> out = map.apply(in);
                wall[i] = System.nanoTime() - start;
                profiles.add(Profiler.last());
                out.close();
            }
            int withRead = Math.min(applies, 2000);
            long[] wallWithRead = new long[withRead];
            for (int i = 0; i < withRead; i++) {
                long start = System.nanoTime();
                try (PArray<Float> out = map.apply(in)) {
                    PArrayStorage.buffer(out, 0).forHostRead();
                    wallWithRead[i] = System.nanoTime() - start;
                }
            }
            return new ApplyOverhead(wall, wallWithRead, profiles, rawLaunchNanos(OpenCLRuntime.context((DeviceChoice.OpenCL) OpenCLRuntime.choice()).device()));
        }
    }

    /**
     * The floor the driver sets: the median of {@link #applies} launches of a hand-written kernel
     * doing the same work over 1,024 floats, each set up (arguments), enqueued and waited for with
     * raw JOCL, on resident buffers.
     */
    private long rawLaunchNanos(OpenCLDeviceInfo device) {
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platformId());
        cl_context context = clCreateContext(properties, 1, new cl_device_id[] {device.deviceId()}, null, null, null);
        cl_command_queue queue = clCreateCommandQueueWithProperties(context, device.deviceId(), new cl_queue_properties(), null);
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {
            "__kernel void raw_map(__global const float *in, __global float *out, const long n) {\n"
                    + "    long i = get_global_id(0); if (i < n) { out[i] = in[i] * 2.0f + 1.0f; }\n}\n"}, null, null);
        clBuildProgram(program, 0, null, null, null, null);
        cl_kernel kernel = clCreateKernel(program, "raw_map", null);
        cl_mem in = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, null, null);
        cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, null, null);
        try {
            long[] times = new long[applies];
            for (int i = -Math.max(1000, applies / 10); i < applies; i++) {
                long start = System.nanoTime();
                clSetKernelArg(kernel, 0, Sizeof.cl_mem, Pointer.to(in));
                clSetKernelArg(kernel, 1, Sizeof.cl_mem, Pointer.to(out));
                clSetKernelArg(kernel, 2, Sizeof.cl_long, Pointer.to(new long[] {1024}));
                clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {1024}, new long[] {256}, 0, null, null);
                clFinish(queue);
                if (i >= 0) {
                    times[i] = System.nanoTime() - start;
                }
            }
            return percentile(times, 0.5);
        } finally {
            clReleaseMemObject(in);
            clReleaseMemObject(out);
            clReleaseKernel(kernel);
            clReleaseProgram(program);
            clReleaseCommandQueue(queue);
            clReleaseContext(context);
        }
    }

    // ---------------------------------------------------------------------------------------------

    /** Element i is (i mod 1000003) / 2, exact in float: any misplaced or lost slice shows. */
    private static void fillPattern(MemorySegment segment) {
        long n = segment.byteSize() / Float.BYTES;
        for (long i = 0; i < n; i++) {
            segment.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) (i % 1_000_003) * 0.5f);
        }
    }

    private static double rate(long bytes, long nanos) {
        return nanos <= 0 ? Double.NaN : bytes / (double) nanos;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long percentile(long[] values, double fraction) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
    }

    /** Transfer rates in GB/s. */
    private record Rates(double h2dWall, double h2dEvent, double d2hWall, double d2hEvent) {
        String row(String name) {
            return String.format(Locale.ROOT, "%-38s %9.2f %11.2f %10.2f %11.2f", name, h2dWall, h2dEvent, d2hWall, d2hEvent);
        }

        String json() {
            return String.format(Locale.ROOT, "{\"h2dWallGBs\":%.3f,\"h2dEventGBs\":%.3f,\"d2hWallGBs\":%.3f,\"d2hEventGBs\":%.3f}", h2dWall, h2dEvent, d2hWall, d2hEvent);
        }
    }

    /** Wall times of applies and the profiler's medians. */
    private record ApplyOverhead(long[] wall, long[] wallWithRead, List<ApplyProfile> profiles, long rawLaunchNanos) {
        long medianOf(LongSupplierOf part) {
            long[] values = profiles.stream().mapToLong(part::of).toArray();
            return percentile(values, 0.5);
        }

        String report() {
            long median = percentile(wall, 0.5);
            StringBuilder text = new StringBuilder();
            text.append(String.format(Locale.ROOT, "apply of a 1,024-element map, %d applies after warm-up:%n", wall.length));
            text.append(String.format(Locale.ROOT, "  wall: median %.1f us, p10 %.1f us, p90 %.1f us   (target median < 50 us: %s)%n",
                    median / 1e3, percentile(wall, 0.1) / 1e3, percentile(wall, 0.9) / 1e3, median < 50_000 ? "met" : "MISSED"));
            text.append(String.format(Locale.ROOT, "  profiler medians: h2d %.1f us (%d bytes), kernel %.1f us, d2h %.1f us, build %.1f us, other (host) %.1f us%n",
                    medianOf(ApplyProfile::hostToDeviceNanos) / 1e3, medianOf(ApplyProfile::hostToDeviceBytes),
                    medianOf(ApplyProfile::kernelNanos) / 1e3, medianOf(ApplyProfile::deviceToHostNanos) / 1e3,
                    medianOf(ApplyProfile::driverBuildNanos) / 1e3, medianOf(ApplyProfile::otherNanos) / 1e3));
            text.append(String.format(Locale.ROOT, "  floor: raw JOCL set-arguments + enqueue + clFinish of the same work: median %.1f us; apply adds %.1f us%n",
                    rawLaunchNanos / 1e3, (median - rawLaunchNanos) / 1e3));
            text.append(String.format(Locale.ROOT, "  apply + first host read of the result (lazy copy-back of 4 KiB): median %.1f us over %d%n",
                    percentile(wallWithRead, 0.5) / 1e3, wallWithRead.length));
            text.append("  last apply's profile: ").append(profiles.getLast().toJson());
            return text.toString();
        }

        String json() {
            return String.format(Locale.ROOT, "{\"applies\":%d,\"medianWallNanos\":%d,\"p90WallNanos\":%d,\"medianKernelNanos\":%d,\"medianOtherNanos\":%d,\"medianWithReadNanos\":%d,\"rawLaunchNanos\":%d}",
                    wall.length, percentile(wall, 0.5), percentile(wall, 0.9), medianOf(ApplyProfile::kernelNanos), medianOf(ApplyProfile::otherNanos),
                    percentile(wallWithRead, 0.5), rawLaunchNanos);
        }
    }

    /** A numeric part of a profile. */
    @FunctionalInterface
    private interface LongSupplierOf {
        long of(ApplyProfile profile);
    }
}
