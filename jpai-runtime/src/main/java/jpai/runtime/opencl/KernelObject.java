package jpai.runtime.opencl;

import static org.jocl.CL.clSetKernelArg;

import java.util.Arrays;

import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_mem;

/**
 * One OpenCL kernel object and the argument values last set on it. A kernel object keeps its
 * arguments from one enqueue to the next, so a launch that binds what the previous launch of this
 * object bound (the same input buffers, captured values, status buffer: a function applied again
 * to the same data) makes no driver call for them. The driver calls an apply makes are a large part
 * of its host time, and more so after a garbage collection has left the caches cold.
 *
 * <p>Used by one launch at a time ({@link BuiltProgram#take()}); not thread-safe.
 */
final class KernelObject {

    /** A {@code __local} argument's size, told apart from a scalar of the same value. */
    private record LocalBytes(long bytes) {
    }

    private final cl_kernel kernel;
    /** Per argument: the cl_mem, boxed scalar or {@link LocalBytes} last set, or null if unknown. */
    private final Object[] lastValues;

    KernelObject(cl_kernel kernel, int argumentCount) {
        this.kernel = kernel;
        this.lastValues = new Object[argumentCount];
    }

    cl_kernel kernel() {
        return kernel;
    }

    void setBuffer(int index, cl_mem memory) {
        if (lastValues[index] != memory) {
            lastValues[index] = null; // unknown until the call succeeds
            DriverCalls.count(DriverCalls.Call.SET_KERNEL_ARG);
            clSetKernelArg(kernel, index, Sizeof.cl_mem, Pointer.to(memory));
            lastValues[index] = memory;
        }
    }

    /** A scalar argument, given as its wrapper; its pointer is made only if it changed. */
    void setScalar(int index, KernelLaunch.Scalar scalar) {
        Object boxedValue = scalar.value();
        Object last = lastValues[index];
        // Wrapper equals compares bits for Float and Double, so -0.0 and 0.0, or two NaNs, are told apart as needed.
        if (last == null || last.getClass() != boxedValue.getClass() || !last.equals(boxedValue)) {
            lastValues[index] = null;
            DriverCalls.count(DriverCalls.Call.SET_KERNEL_ARG);
            clSetKernelArg(kernel, index, scalar.byteSize(), scalar.pointer());
            lastValues[index] = boxedValue;
        }
    }

    void setLocal(int index, long bytes) {
        Object last = lastValues[index];
        if (!(last instanceof LocalBytes local) || local.bytes() != bytes) {
            lastValues[index] = null;
            DriverCalls.count(DriverCalls.Call.SET_KERNEL_ARG);
            clSetKernelArg(kernel, index, bytes, null);
            lastValues[index] = new LocalBytes(bytes);
        }
    }

    /** After a failed launch the arguments are in doubt: the next launch sets them all. */
    void forgetArguments() {
        Arrays.fill(lastValues, null);
    }
}
