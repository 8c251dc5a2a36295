package jpai.runtime.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_QUEUE_PROFILING_ENABLE;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateCommandQueueWithProperties;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseProgram;

import java.util.concurrent.ConcurrentHashMap;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_kernel;
import org.jocl.cl_program;
import org.jocl.cl_queue_properties;

import jpai.ocl.KernelSource;
import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * One OpenCL device in use: its context, its in-order command queue (with profiling on), and the
 * programs built for it, cached by source and options so a kernel is built once per JVM.
 *
 * <p>Launches on the queue are serialised by {@link #lock()} holders: {@code clSetKernelArg} on one
 * kernel object is not thread-safe.
 */
public final class DeviceContext {

    private final OpenCLDeviceInfo device;
    private final cl_context context;
    private final cl_command_queue queue;
    private final ConcurrentHashMap<String, cl_kernel> kernels = new ConcurrentHashMap<>();
    private final Object lock = new Object();

    DeviceContext(OpenCLDeviceInfo device) {
        CL.setExceptionsEnabled(true);
        this.device = device;
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platformId());
        this.context = clCreateContext(properties, 1, new cl_device_id[] {device.deviceId()}, null, null, null);
        cl_queue_properties queueProperties = new cl_queue_properties();
        queueProperties.addProperty(CL.CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE);
        this.queue = clCreateCommandQueueWithProperties(context, device.deviceId(), queueProperties, null);
    }

    public OpenCLDeviceInfo device() {
        return device;
    }

    cl_context context() {
        return context;
    }

    cl_command_queue queue() {
        return queue;
    }

    /** The monitor to hold while setting arguments of, and enqueuing, this device's kernels. */
    Object lock() {
        return lock;
    }

    /** The built kernel for {@code source}, building the program on first use. */
    cl_kernel kernel(KernelSource source) {
        String key = source.buildOptions() + "\n" + source.text();
        return kernels.computeIfAbsent(key, k -> build(source));
    }

    private cl_kernel build(KernelSource source) {
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {source.text()}, null, null);
        try {
            clBuildProgram(program, 1, new cl_device_id[] {device.deviceId()}, source.buildOptions(), null, null);
        } catch (CLException e) {
            String log = buildLog(program);
            clReleaseProgram(program);
            throw new OpenCLRuntimeException("the OpenCL compiler of " + device.name() + " rejected the kernel (" + e.getMessage() + "): " + log.strip(), e);
        }
        return clCreateKernel(program, source.kernelName(), null);
    }

    private String buildLog(cl_program program) {
        try {
            long[] size = new long[1];
            clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, 0, null, size);
            byte[] log = new byte[(int) size[0]];
            clGetProgramBuildInfo(program, device.deviceId(), CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
            return new String(log, 0, Math.max(0, log.length - 1), java.nio.charset.StandardCharsets.UTF_8);
        } catch (CLException e) {
            return "(no build log: " + e.getMessage() + ")";
        }
    }
}
