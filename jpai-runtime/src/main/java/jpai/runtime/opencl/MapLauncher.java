package jpai.runtime.opencl;

import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_MEM_WRITE_ONLY;
import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clSetKernelArg;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

import jpai.PArray;
import jpai.ocl.DeoptReason;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;

/**
 * Launches a generated map kernel on one device: copies the inputs in, runs one work-item per
 * element (rounded up to whole work-groups), copies the output back. Every buffer it creates is
 * released before it returns, also on failure.
 */
public final class MapLauncher {

    /** Work-group size; the kernel's own bounds check covers the rounding up. */
    private static final long WORK_GROUP = 256;
    /** One launch covers at most this many work-items; the kernel's grid-stride loop does the rest. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    private MapLauncher() {
    }

    public static void run(DeviceContext device, KernelSource source, List<PArray<?>> inputs, PArray<?> output) {
        long length = output.length();
        if (length == 0) {
            return;
        }
        List<cl_mem> buffers = new ArrayList<>();
        try {
            cl_kernel kernel = device.kernel(source);
            synchronized (device.lock()) {
                int input = 0;
                MemorySegment result = segmentOf(output);
                cl_mem outputBuffer = null;
                cl_mem statusBuffer = null;
                int[] status = new int[2];
                for (KernelParameter parameter : source.parameters()) {
                    switch (parameter.role()) {
                        case INPUT_BUFFER -> {
                            MemorySegment data = segmentOf(inputs.get(input++));
                            cl_mem buffer = clCreateBuffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.byteSize(), pointerTo(data), null);
                            buffers.add(buffer);
                            clSetKernelArg(kernel, parameter.index(), Sizeof.cl_mem, Pointer.to(buffer));
                        }
                        case OUTPUT_BUFFER -> {
                            outputBuffer = clCreateBuffer(device.context(), CL_MEM_WRITE_ONLY, result.byteSize(), null, null);
                            buffers.add(outputBuffer);
                            clSetKernelArg(kernel, parameter.index(), Sizeof.cl_mem, Pointer.to(outputBuffer));
                        }
                        case LENGTH -> clSetKernelArg(kernel, parameter.index(), Sizeof.cl_long, Pointer.to(new long[] {length}));
                        case STATUS -> {
                            statusBuffer = clCreateBuffer(device.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2L * Sizeof.cl_int, Pointer.to(status), null);
                            buffers.add(statusBuffer);
                            clSetKernelArg(kernel, parameter.index(), Sizeof.cl_mem, Pointer.to(statusBuffer));
                        }
                        default -> throw new OpenCLRuntimeException("this launcher cannot bind the kernel parameter " + parameter.name() + " (" + parameter.role() + ")");
                    }
                }
                long localSize = Math.min(WORK_GROUP, device.device().maxWorkGroupSize());
                long workItems = roundUp(Math.min(length, MAX_WORK_ITEMS), localSize);
                clEnqueueNDRangeKernel(device.queue(), kernel, 1, null, new long[] {workItems}, new long[] {localSize}, 0, null, null);
                clEnqueueReadBuffer(device.queue(), outputBuffer, CL_TRUE, 0, result.byteSize(), pointerTo(result), 0, null, null);
                if (statusBuffer != null) {
                    clEnqueueReadBuffer(device.queue(), statusBuffer, CL_TRUE, 0, 2L * Sizeof.cl_int, Pointer.to(status), 0, null, null);
                    if (status[0] != 0) {
                        throw new OpenCLRuntimeException("at element " + status[1] + ", " + DeoptReason.fromCode(status[0]).message());
                    }
                }
            }
        } catch (CLException e) {
            throw new OpenCLRuntimeException("OpenCL failed on " + device.device().name() + ": " + e.getMessage(), e);
        } finally {
            for (cl_mem buffer : buffers) {
                clReleaseMemObject(buffer);
            }
        }
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    private static MemorySegment segmentOf(PArray<?> array) {
        MemorySegment segment = array.segment();
        if (segment.byteSize() > Integer.MAX_VALUE) {
            throw new OpenCLRuntimeException("arrays over 2 GiB are not moved to OpenCL devices yet (" + segment.byteSize() + " bytes)");
        }
        return segment;
    }

    /** A JOCL pointer to native memory, with no copy. */
    private static Pointer pointerTo(MemorySegment segment) {
        return Pointer.to(segment.asByteBuffer());
    }
}
