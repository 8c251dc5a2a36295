package jpai.bench;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_MAP_READ;
import static org.jocl.CL.CL_MAP_WRITE;
import static org.jocl.CL.CL_MEM_ALLOC_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROFILING_COMMAND_END;
import static org.jocl.CL.CL_PROFILING_COMMAND_START;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.CL_FALSE;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_event;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_program;
import org.jocl.cl_queue_properties;

import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * What the hand-written OpenCL versions share, written as a careful OpenCL programmer writes host
 * code for a discrete GPU: one context and one in-order queue with profiling on; host data in
 * <em>pinned</em> memory (a {@code CL_MEM_ALLOC_HOST_PTR} staging buffer, mapped once, that the
 * program fills and reads in place), device buffers allocated once and reused by every call, one
 * write per input, made once before timing where JPAI keeps that input on the device ({@link #writeNow}) and
 * else per call, one read per output per call, and kernels timed by their OpenCL events.
 * (On a CPU OpenCL device the "transfers" are memory copies; the code is tuned for GPUs.)
 *
 * <p>Its own context, separate from JPAI's, on the device JPAI chose ({@link #open}), or the context
 * of another instance with a queue of its own ({@link #withOwnQueue()}: how a program gives each
 * of its threads the device). Not thread-safe: one instance per thread.
 */
public final class Jocl implements AutoCloseable {

    /** Host memory the driver has pinned, mapped for the life of the benchmark. */
    public record Pinned(cl_mem staging, ByteBuffer host, long bytes) {
    }

    private final OpenCLDeviceInfo device;
    private final cl_context context;
    private final cl_command_queue queue;
    private final List<cl_program> programs = new ArrayList<>();
    private final List<cl_kernel> kernels = new ArrayList<>();
    private final List<cl_mem> buffers = new ArrayList<>();
    private final List<cl_event> pending = new ArrayList<>();
    private final List<Pinned> mapped = new ArrayList<>();
    /** Whether {@link #close()} releases the context: false for an instance sharing another's. */
    private final boolean ownsContext;
    /** Whether the queue records device times. */
    private final boolean profiling;

    private Jocl(OpenCLDeviceInfo device) {
        CL.setExceptionsEnabled(true);
        this.device = device;
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platformId());
        context = CL.clCreateContext(properties, 1, new cl_device_id[] {device.deviceId()}, null, null, null);
        cl_queue_properties queueProperties = new cl_queue_properties();
        queueProperties.addProperty(CL.CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        queue = CL.clCreateCommandQueueWithProperties(context, device.deviceId(), queueProperties, null);
        ownsContext = true;
        profiling = true;
    }

    private Jocl(Jocl shared, boolean profiling) {
        this.device = shared.device;
        this.context = shared.context;
        cl_queue_properties queueProperties = new cl_queue_properties();
        if (profiling) {
            queueProperties.addProperty(CL.CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        }
        queue = CL.clCreateCommandQueueWithProperties(context, device.deviceId(), queueProperties, null);
        this.profiling = profiling;
        ownsContext = false;
    }

    public static Jocl open(OpenCLDeviceInfo device) {
        return new Jocl(device);
    }

    /**
     * An instance on this one's context with a command queue of its own, and kernels and buffers of
     * its own: for another thread. Close it before this one.
     */
    public Jocl withOwnQueue() {
        return new Jocl(this, true);
    }

    /** {@link #withOwnQueue()} with a queue that does not profile: {@link #finish()} then reports 0. */
    public Jocl withOwnQueueUnprofiled() {
        return new Jocl(this, false);
    }

    public OpenCLDeviceInfo device() {
        return device;
    }

    /** Builds {@code source} (default options, as a programmer would) and returns kernel {@code name}. */
    public cl_kernel kernel(String source, String name) {
        return kernel(source, name, "");
    }

    /**
     * The build option that makes OpenCL's float {@code /} and {@code sqrt} correctly rounded, as
     * Java's are; a device that cannot (no {@code CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT}) has no exact
     * hand-written version.
     */
    public String correctlyRoundedDivideSqrt() {
        if ((device.singleFpConfig() & CL.CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) == 0) {
            throw new NotRunException("not run", device.name() + " cannot round float division and square root correctly (no CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)");
        }
        return "-cl-fp32-correctly-rounded-divide-sqrt";
    }

    /**
     * {@code source} as a programmer writes it for Java's results ({@link VersionKind#OPENCL_EXACT}):
     * no contraction, and each OpenCL float function of {@code functions} ("exp", "cos"...) computed
     * in {@code double} and rounded to float, as Java defines {@code (float) Math.exp(x)}. Float
     * {@code /} and {@code sqrt} also need {@link #correctlyRoundedDivideSqrt()} at the build, and
     * the {@code double} functions {@link #requireFp64()}.
     */
    public static String javaPrecision(String source, String... functions) {
        StringBuilder exact = new StringBuilder("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n");
        String body = source;
        for (String function : functions) {
            exact.append("float java_").append(function).append("(float x) { return convert_float(").append(function).append("(convert_double(x))); }\n");
            body = body.replaceAll("\\b" + function + "\\(", "java_" + function + "(");
        }
        return exact.append(body).toString();
    }

    /** Checks that kernels may use {@code double} (an exact version computes Java's {@code (float) Math.exp(x)} in it). */
    public void requireFp64() {
        if (!device.fp64()) {
            throw new NotRunException("not run", device.name() + " has no double precision (cl_khr_fp64)");
        }
    }

    /** Builds {@code source} with build {@code options} and returns kernel {@code name}. */
    public cl_kernel kernel(String source, String name, String options) {
        cl_program program = CL.clCreateProgramWithSource(context, 1, new String[] {source}, null, null);
        programs.add(program);
        try {
            CL.clBuildProgram(program, 1, new cl_device_id[] {device.deviceId()}, options, null, null);
        } catch (CLException e) {
            throw new IllegalStateException("hand-written kernel " + name + " did not build: " + buildLog(program), e);
        }
        cl_kernel kernel = CL.clCreateKernel(program, name, null);
        kernels.add(kernel);
        return kernel;
    }

    /** A pinned host buffer of {@code bytes}, mapped for reading and writing, native byte order. */
    public Pinned pinned(long bytes) {
        cl_mem staging = CL.clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, null, null);
        buffers.add(staging);
        ByteBuffer host = CL.clEnqueueMapBuffer(queue, staging, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, null, null, null);
        Pinned pinned = new Pinned(staging, host.order(ByteOrder.nativeOrder()), bytes);
        mapped.add(pinned);
        return pinned;
    }

    /** A device buffer of {@code bytes}, allocated once and reused by every call. */
    public cl_mem deviceBuffer(long bytes) {
        cl_mem buffer = CL.clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, null, null);
        buffers.add(buffer);
        return buffer;
    }

    /** Enqueues host → device from pinned memory (not blocking; the queue is in order). */
    public void write(cl_mem destination, Pinned source) {
        CL.clEnqueueWriteBuffer(queue, destination, CL_FALSE, 0, source.bytes(), Pointer.to(source.host()), 0, null, null);
    }

    /**
     * Copies {@code source} to {@code destination} now, blocking: the data a program keeps on the
     * device (written once, before timing, as JPAI keeps an unchanged {@code PArray} there).
     */
    public void writeNow(cl_mem destination, Pinned source) {
        CL.clEnqueueWriteBuffer(queue, destination, CL_TRUE, 0, source.bytes(), Pointer.to(source.host()), 0, null, null);
    }

    /** Copies a Java heap array to {@code destination}, blocking (JOCL cannot leave a heap array to a command in flight). */
    public void writeNow(cl_mem destination, float[] source) {
        CL.clEnqueueWriteBuffer(queue, destination, CL_TRUE, 0, 4L * source.length, Pointer.to(source), 0, null, null);
    }

    /** Enqueues device → pinned host memory (not blocking; {@link #finish()} waits). */
    public void read(Pinned destination, cl_mem source) {
        CL.clEnqueueReadBuffer(queue, source, CL_FALSE, 0, destination.bytes(), Pointer.to(destination.host()), 0, null, null);
    }

    /** Enqueues {@code kernel} (arguments already set) and keeps its event for {@link #finish()}. */
    public void launch(cl_kernel kernel, long[] global, long[] local) {
        cl_event event = new cl_event();
        CL.clEnqueueNDRangeKernel(queue, kernel, global.length, null, global, local, 0, null, event);
        pending.add(event);
    }

    /**
     * Copies {@code bytes} from {@code source} to {@code destination} on the device, waits, and
     * returns the copy's device time (its OpenCL event): the device's own copy bandwidth, the
     * yardstick for kernels that stream memory.
     */
    public long copyOnDevice(cl_mem source, cl_mem destination, long bytes) {
        cl_event event = new cl_event();
        CL.clEnqueueCopyBuffer(queue, source, destination, 0, 0, bytes, 0, null, event);
        try {
            CL.clWaitForEvents(1, new cl_event[] {event});
            long[] start = new long[1];
            long[] end = new long[1];
            CL.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(start), null);
            CL.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(end), null);
            return end[0] - start[0];
        } finally {
            CL.clReleaseEvent(event);
        }
    }

    /** Submits what was enqueued to the device without waiting for it. */
    public void flush() {
        CL.clFlush(queue);
    }

    /** Waits for everything enqueued; returns the summed device time of the kernels launched since the last call. */
    public long finish() {
        CL.clFinish(queue);
        if (!pending.isEmpty()) {
            // NVIDIA's clFinish can return while an event still reads CL_SUBMITTED; its wait settles them
            CL.clWaitForEvents(pending.size(), pending.toArray(new cl_event[0]));
        }
        long total = 0;
        if (!profiling) {
            for (cl_event event : pending) {
                CL.clReleaseEvent(event);
            }
            pending.clear();
            return 0;
        }
        long[] start = new long[1];
        long[] end = new long[1];
        for (cl_event event : pending) {
            int[] status = new int[1];
            CL.clGetEventInfo(event, CL.CL_EVENT_COMMAND_EXECUTION_STATUS, Sizeof.cl_int, Pointer.to(status), null);
            if (status[0] != CL.CL_COMPLETE) {
                // a failed command has no profiling information; say what failed instead
                throw new IllegalStateException("a hand-written kernel ended with status " + CL.stringFor_command_execution_status(status[0]) + " (" + status[0] + ")");
            }
            CL.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, Sizeof.cl_ulong, Pointer.to(start), null);
            CL.clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, Sizeof.cl_ulong, Pointer.to(end), null);
            total += end[0] - start[0];
            CL.clReleaseEvent(event);
        }
        pending.clear();
        return total;
    }

    public static void arg(cl_kernel kernel, int index, cl_mem buffer) {
        CL.clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(buffer));
    }

    public static void arg(cl_kernel kernel, int index, int value) {
        CL.clSetKernelArg(kernel, index, Sizeof.cl_int, Pointer.to(new int[] {value}));
    }

    public static void arg(cl_kernel kernel, int index, float value) {
        CL.clSetKernelArg(kernel, index, Sizeof.cl_float, Pointer.to(new float[] {value}));
    }

    /** A {@code __local} argument of {@code bytes}. */
    public static void localArg(cl_kernel kernel, int index, long bytes) {
        CL.clSetKernelArg(kernel, index, bytes, null);
    }

    /** {@code value} rounded up to a multiple of {@code multiple}. */
    public static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** A work-group size for 1-D kernels: 256, or less where the device allows less. */
    public long workGroup1D() {
        return Math.min(256, device.maxWorkGroupSize());
    }

    public String ranOn() {
        return "OpenCL: " + device.name();
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        CL.clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] log = new byte[(int) size[0]];
        CL.clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        return new String(log, StandardCharsets.UTF_8).strip();
    }

    /** Releases the programs' kernels and buffers; the context stays for the next program. */
    public void releaseAll() {
        for (Pinned pinned : mapped) {
            CL.clEnqueueUnmapMemObject(queue, pinned.staging(), pinned.host(), 0, null, null);
        }
        mapped.clear();
        CL.clFinish(queue);
        for (cl_kernel kernel : kernels) {
            CL.clReleaseKernel(kernel);
        }
        for (cl_program program : programs) {
            CL.clReleaseProgram(program);
        }
        for (cl_mem buffer : buffers) {
            CL.clReleaseMemObject(buffer);
        }
        kernels.clear();
        programs.clear();
        buffers.clear();
    }

    @Override
    public void close() {
        releaseAll();
        CL.clReleaseCommandQueue(queue);
        if (ownsContext) {
            CL.clReleaseContext(context);
        }
    }
}
