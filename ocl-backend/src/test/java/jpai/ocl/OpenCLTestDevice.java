package jpai.ocl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.CL_MEM_COPY_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_ONLY;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_TRUE;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateCommandQueueWithProperties;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetPlatformIDs;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clReleaseProgram;
import static org.jocl.CL.clSetKernelArg;

import java.lang.reflect.Array;
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
import org.jocl.cl_kernel;
import org.jocl.cl_mem;
import org.jocl.cl_platform_id;
import org.jocl.cl_program;
import org.junit.jupiter.api.Assumptions;

import jdk.vm.ci.meta.JavaKind;

/**
 * Builds generated programs with the machine's OpenCL (PoCL in CI) and runs them, binding every
 * {@link KernelParameter} by its role, as the runtime does. For tests only: the backend itself
 * launches nothing.
 *
 * <p>Without an OpenCL platform the calling test is skipped, unless the environment says
 * {@code JPAI_EXPECT_OPENCL=1}, in which case it fails.
 */
final class OpenCLTestDevice {

    /** Work-items per enqueue of a map kernel; more elements take several enqueues with global offsets. */
    static final long MAP_PIECE = 4096;

    /** What a launch gave back: one primitive array per output (or partial) component, and the status. */
    record Result(List<Object> outputs, int[] status) {
        float[] floats(int component) {
            return (float[]) outputs.get(component);
        }

        int[] ints(int component) {
            return (int[]) outputs.get(component);
        }

        long[] longs(int component) {
            return (long[]) outputs.get(component);
        }

        double[] doubles(int component) {
            return (double[]) outputs.get(component);
        }

        DeoptReason reason() {
            return DeoptReason.fromCode(status[0]);
        }
    }

    private static OpenCLTestDevice instance;

    private final cl_context context;
    private final cl_command_queue queue;
    private final cl_device_id device;

    private OpenCLTestDevice(cl_context context, cl_command_queue queue, cl_device_id device) {
        this.context = context;
        this.queue = queue;
        this.device = device;
    }

    /** The first OpenCL device, or a skipped (or, with JPAI_EXPECT_OPENCL=1, failed) test. */
    static synchronized OpenCLTestDevice get() {
        if (instance == null) {
            instance = open();
        }
        if (instance == null) {
            boolean expected = "1".equals(System.getenv("JPAI_EXPECT_OPENCL"));
            if (expected) {
                throw new AssertionError("JPAI_EXPECT_OPENCL=1 but no OpenCL device was found");
            }
            Assumptions.abort("no OpenCL device on this machine");
        }
        return instance;
    }

    private static OpenCLTestDevice open() {
        try {
            CL.setExceptionsEnabled(true);
            int[] count = new int[1];
            clGetPlatformIDs(0, null, count);
            if (count[0] == 0) {
                return null;
            }
            cl_platform_id[] platforms = new cl_platform_id[count[0]];
            clGetPlatformIDs(count[0], platforms, null);
            // A GPU first, as the runtime chooses (on the GPU machine NVIDIA's compiler is the one to test), else any device.
            for (long type : new long[] {org.jocl.CL.CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL}) {
                for (cl_platform_id platform : platforms) {
                    int[] devices = new int[1];
                    try {
                        clGetDeviceIDs(platform, type, 0, null, devices);
                    } catch (CLException e) {
                        continue;
                    }
                    if (devices[0] == 0) {
                        continue;
                    }
                    cl_device_id[] ids = new cl_device_id[1];
                    clGetDeviceIDs(platform, type, 1, ids, null);
                    cl_context_properties properties = new cl_context_properties();
                    properties.addProperty(CL_CONTEXT_PLATFORM, platform);
                    cl_context context = clCreateContext(properties, 1, ids, null, null, null);
                    cl_command_queue queue = clCreateCommandQueueWithProperties(context, ids[0], null, null);
                    return new OpenCLTestDevice(context, queue, ids[0]);
                }
            }
            return null;
        } catch (CLException | UnsatisfiedLinkError e) {
            return null;
        }
    }

    /**
     * Runs a {@code jpai_map} program on {@code n} elements.
     *
     * @param inputs one primitive array per input component ({@code boolean[]} as {@code byte[]})
     * @param outputs the kind of each output component
     * @param captures the captured values in slot order: boxed primitives for scalars, primitive
     *            arrays for arrays
     */
    Result map(KernelSource source, int n, List<Object> inputs, List<JavaKind> outputs, List<Object> captures) {
        return run(source, n, inputs, outputs, captures, null, 0, 0, 1);
    }

    /**
     * Runs one pass of a {@code jpai_reduce} program on {@code n} elements with leaves of
     * {@code leafWidth} (the spec's for a first pass, 1 for a later one) and work-groups of
     * {@code localSize} work-items, as many as cover the leaves; the outputs are the partial results,
     * one per group.
     */
    Result reduce(KernelSource source, int n, List<Object> inputs, List<JavaKind> element, List<Object> captures, List<Object> identity, int leafWidth, int localSize) {
        int leaves = (n + leafWidth - 1) / leafWidth;
        int groups = Math.max(1, (leaves + localSize - 1) / localSize);
        return run(source, n, inputs, element, captures, identity, groups, localSize, leafWidth);
    }

    private Result run(KernelSource source, int n, List<Object> inputs, List<JavaKind> outputKinds, List<Object> captures, List<Object> identity, int groups, int localSize, int leafWidth) {
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {source.text()}, null, null);
        try {
            clBuildProgram(program, 1, new cl_device_id[] {device}, source.buildOptions(), null, null);
        } catch (CLException e) {
            throw new AssertionError("the generated program does not build: " + buildLog(program) + "\n" + source.text(), e);
        }
        cl_kernel kernel = clCreateKernel(program, source.kernelName(), null);
        List<cl_mem> buffers = new ArrayList<>();
        List<Object> outputs = new ArrayList<>();
        List<cl_mem> outputBuffers = new ArrayList<>();
        int[] status = new int[2];
        cl_mem statusBuffer = null;
        int outputLength = identity == null ? n : groups;
        try {
            for (KernelParameter parameter : source.parameters()) {
                int index = parameter.index();
                switch (parameter.role()) {
                    case INPUT_BUFFER -> bindArray(kernel, index, inputs.get(parameter.slot()), buffers);
                    case CAPTURED_ARRAY -> bindArray(kernel, index, captures.get(parameter.slot()), buffers);
                    case CAPTURED_ARRAY_LENGTH -> clSetKernelArg(kernel, index, Sizeof.cl_int, Pointer.to(new int[] {captureLength(captures.get(parameter.slot()))}));
                    case CAPTURED_ROW_LENGTH -> throw new IllegalArgumentException("this test device takes no captured 2-D arrays (the runtime's KernelBinding sends them as one buffer)");
                    case CAPTURED_SCALAR -> bindScalar(kernel, index, parameter.kind(), captures.get(parameter.slot()));
                    case IDENTITY -> bindScalar(kernel, index, parameter.kind(), identity.get(parameter.slot()));
                    case OUTPUT_BUFFER, PARTIAL_BUFFER -> {
                        Object array = Array.newInstance(arrayElementClass(parameter.kind()), outputLength);
                        outputs.add(array);
                        cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, Math.max(1, (long) outputLength * bytes(parameter.kind())), null, null);
                        buffers.add(buffer);
                        outputBuffers.add(buffer);
                        clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(buffer));
                    }
                    // the first pass's padded tile, one slot more than a leaf per work-item; one slot in later passes
                    case LOCAL_SCRATCH -> clSetKernelArg(kernel, index, (long) localSize * (leafWidth > 1 ? leafWidth + 1 : 1) * bytes(parameter.kind()), null);
                    case LENGTH -> clSetKernelArg(kernel, index, Sizeof.cl_long, Pointer.to(new long[] {n}));
                    case BASE_INDEX -> clSetKernelArg(kernel, index, Sizeof.cl_long, Pointer.to(new long[] {0L}));
                    case LEAF_WIDTH -> clSetKernelArg(kernel, index, Sizeof.cl_long, Pointer.to(new long[] {leafWidth}));
                    case STATUS, UNWRITTEN_STATUS -> {
                        statusBuffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 2L * Sizeof.cl_int, Pointer.to(status), null);
                        buffers.add(statusBuffer);
                        clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(statusBuffer));
                    }
                }
            }
            if (identity == null) {
                // A map: one work-item per element, as the runtime launches it; more than MAP_PIECE elements
                // in several enqueues with global offsets (so the tests run that path too).
                int base = source.parameters().stream().filter(p -> p.role() == KernelParameter.Role.BASE_INDEX).mapToInt(KernelParameter::index).findFirst().orElse(-1);
                for (long offset = 0; offset < Math.max(1, n); offset += MAP_PIECE) {
                    long[] globalOffset = offset == 0 || base >= 0 ? null : new long[] {offset};
                    if (base >= 0) {
                        clSetKernelArg(kernel, base, Sizeof.cl_long, Pointer.to(new long[] {offset}));
                    }
                    long piece = Math.min(MAP_PIECE, Math.max(1, n) - offset);
                    if (source.requiredLocalSize().isEmpty()) {
                        clEnqueueNDRangeKernel(queue, kernel, 1, globalOffset, new long[] {piece}, null, 0, null, null);
                    } else {
                        // a tiled kernel: exactly its work-group, the piece rounded up to whole groups (MAP_PIECE is a multiple)
                        long group = source.requiredLocalSize().get(0);
                        clEnqueueNDRangeKernel(queue, kernel, 1, globalOffset, new long[] {(piece + group - 1) / group * group}, new long[] {group}, 0, null, null);
                    }
                }
            } else {
                clEnqueueNDRangeKernel(queue, kernel, 1, null, new long[] {(long) groups * localSize}, new long[] {localSize}, 0, null, null);
            }
            clFinish(queue);
            for (int i = 0; i < outputs.size(); i++) {
                Object array = outputs.get(i);
                if (outputLength > 0) {
                    clEnqueueReadBuffer(queue, outputBuffers.get(i), CL_TRUE, 0, (long) outputLength * bytes(source.parameters().stream()
                                    .filter(p -> p.role() == KernelParameter.Role.OUTPUT_BUFFER || p.role() == KernelParameter.Role.PARTIAL_BUFFER).toList().get(i).kind()), pointerTo(array), 0, null, null);
                }
            }
            clEnqueueReadBuffer(queue, statusBuffer, CL_TRUE, 0, 2L * Sizeof.cl_int, Pointer.to(status), 0, null, null);
            status[1] = KernelStatus.element(status[0], status[1]); // the tests read the element itself
            return new Result(outputs, status);
        } finally {
            for (cl_mem buffer : buffers) {
                clReleaseMemObject(buffer);
            }
            clReleaseKernel(kernel);
            clReleaseProgram(program);
        }
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, null, size);
        byte[] log = new byte[(int) size[0]];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        return new String(log).trim();
    }

    private void bindArray(cl_kernel kernel, int index, Object array, List<cl_mem> buffers) {
        int length = Array.getLength(array);
        long size = (long) length * bytes(array.getClass().getComponentType());
        cl_mem buffer = length == 0 ? clCreateBuffer(context, CL_MEM_READ_ONLY, 8, null, null)
                        : clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, pointerTo(array), null);
        buffers.add(buffer);
        clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(buffer));
    }

    private static void bindScalar(cl_kernel kernel, int index, JavaKind kind, Object value) {
        switch (kind) {
            case Boolean -> clSetKernelArg(kernel, index, 1, Pointer.to(new byte[] {(byte) (((Boolean) value) ? 1 : 0)}));
            case Byte -> clSetKernelArg(kernel, index, 1, Pointer.to(new byte[] {(Byte) value}));
            case Short -> clSetKernelArg(kernel, index, 2, Pointer.to(new short[] {(Short) value}));
            case Char -> clSetKernelArg(kernel, index, 2, Pointer.to(new char[] {(Character) value}));
            case Int -> clSetKernelArg(kernel, index, 4, Pointer.to(new int[] {(Integer) value}));
            case Long -> clSetKernelArg(kernel, index, 8, Pointer.to(new long[] {(Long) value}));
            case Float -> clSetKernelArg(kernel, index, 4, Pointer.to(new float[] {(Float) value}));
            case Double -> clSetKernelArg(kernel, index, 8, Pointer.to(new double[] {(Double) value}));
            default -> throw new IllegalArgumentException(kind.toString());
        }
    }

    private static Pointer pointerTo(Object array) {
        return switch (array) {
            case byte[] a -> Pointer.to(a);
            case short[] a -> Pointer.to(a);
            case char[] a -> Pointer.to(a);
            case int[] a -> Pointer.to(a);
            case long[] a -> Pointer.to(a);
            case float[] a -> Pointer.to(a);
            case double[] a -> Pointer.to(a);
            default -> throw new IllegalArgumentException("not a primitive array (use byte[] for booleans): " + array.getClass());
        };
    }

    private static Class<?> arrayElementClass(JavaKind kind) {
        return kind == JavaKind.Boolean ? byte.class : kind.toJavaClass();
    }

    private static int bytes(JavaKind kind) {
        return kind == JavaKind.Boolean ? 1 : kind.getByteCount();
    }

    private static int bytes(Class<?> elementClass) {
        return bytes(JavaKind.fromJavaClass(elementClass));
    }

    /** As the runtime binds it: an array's length, -1 for null, 1 for a captured box. */
    private static int captureLength(Object capture) {
        if (capture == null) {
            return -1;
        }
        return capture.getClass().isArray() ? Array.getLength(capture) : 1;
    }
}
