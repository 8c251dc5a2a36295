package jpai.runtime.opencl;

import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseProgram;

import java.util.ArrayDeque;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_program;

/**
 * A program built for one device, with its kernel objects. {@code clSetKernelArg} on one kernel
 * object is not thread-safe, and a kernel's arguments are captured when it is enqueued, so each
 * launch takes a kernel object of its own ({@link #take()}) and gives it back after enqueuing
 * ({@link #giveBack}): as many kernel objects exist as launches ever ran at once. The most recently
 * given back is taken first, so a function applied again and again from one thread finds the
 * arguments it set last time still there ({@link KernelObject}).
 *
 * <p>Thread-safe: the idle kernel objects sit in a stack guarded by this object's monitor (taken
 * once per launch and almost never contended; a lock-free deque cost more per launch).
 */
final class BuiltProgram {

    private final cl_program program;
    private final String kernelName;
    private final int argumentCount;
    private final ArrayDeque<KernelObject> idle = new ArrayDeque<>();

    BuiltProgram(cl_program program, String kernelName) {
        this.program = program;
        this.kernelName = kernelName;
        cl_kernel first = clCreateKernel(program, kernelName, null);
        int[] count = new int[1];
        clGetKernelInfo(first, CL_KERNEL_NUM_ARGS, Sizeof.cl_uint, Pointer.to(count), null);
        this.argumentCount = count[0];
        idle.push(new KernelObject(first, argumentCount));
    }

    String kernelName() {
        return kernelName;
    }

    /** The number of arguments the kernel declares. */
    int argumentCount() {
        return argumentCount;
    }

    /** A kernel object no other thread is using. */
    KernelObject take() {
        KernelObject kernel;
        synchronized (this) {
            kernel = idle.pollFirst();
        }
        return kernel != null ? kernel : new KernelObject(clCreateKernel(program, kernelName, null), argumentCount);
    }

    /** Makes {@code kernel} available to the next launch (its arguments were captured at enqueue). */
    synchronized void giveBack(KernelObject kernel) {
        idle.push(kernel);
    }

    /** Releases the program and its idle kernel objects. */
    synchronized void release() {
        try {
            for (KernelObject kernel = idle.pollFirst(); kernel != null; kernel = idle.pollFirst()) {
                clReleaseKernel(kernel.kernel());
            }
            clReleaseProgram(program);
        } catch (CLException e) {
            // A lost device may refuse; the driver frees the program with the context.
        }
    }
}
