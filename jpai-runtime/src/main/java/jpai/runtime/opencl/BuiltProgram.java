package jpai.runtime.opencl;

import static org.jocl.CL.CL_KERNEL_COMPILE_WORK_GROUP_SIZE;
import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE;
import static org.jocl.CL.CL_KERNEL_WORK_GROUP_SIZE;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clGetKernelWorkGroupInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseProgram;

import java.util.ArrayDeque;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
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
 * <p>The {@link ProgramCache} keeps a bounded number of programs: one it evicts may still be in use
 * by launches on other threads, so every launch holds a lease ({@link #lease()} ...
 * {@link #release()}), and the driver's program and kernel objects are released when the program
 * is evicted and its last lease is released, never under a launch.
 *
 * <p>Thread-safe: the idle kernel objects and the lease count are guarded by this object's monitor
 * (taken once per launch and almost never contended; a lock-free deque cost more per launch).
 */
final class BuiltProgram {

    private final cl_program program;
    private final String kernelName;
    private final int argumentCount;
    /** {@code CL_KERNEL_WORK_GROUP_SIZE}: the most work-items a work-group of this kernel may have on its device. */
    private final long maxWorkGroupSize;
    /** The kernel's work-group size on its device, measured on its first launches (with the program, it lives as long as the cache keeps it). */
    private final WorkGroupTuning workGroupTuning;
    private final ArrayDeque<KernelObject> idle = new ArrayDeque<>();
    /** Launches using the program now. */
    private int leases;
    /** The cache let go of it: released once no launch uses it. */
    private boolean evicted;
    private boolean destroyed;
    /**
     * How long the device took, the last time, for a launch of this program of some global size: a
     * wait for the next launch of that size can sleep most of it ({@link DeviceWait}). Racy by design:
     * any recent launch is a good enough guess.
     */
    private volatile LastDuration lastDuration;

    private record LastDuration(long globalSize, long deviceNanos) {
    }

    BuiltProgram(cl_program program, String kernelName, cl_device_id device) {
        this.program = program;
        this.kernelName = kernelName;
        cl_kernel first = clCreateKernel(program, kernelName, null);
        int[] count = new int[1];
        long[] groupSize = new long[1];
        long[] preferredMultiple = new long[1];
        long[] requiredSize = new long[3];
        try {
            clGetKernelInfo(first, CL_KERNEL_NUM_ARGS, Sizeof.cl_uint, Pointer.to(count), null);
            clGetKernelWorkGroupInfo(first, device, CL_KERNEL_WORK_GROUP_SIZE, Sizeof.size_t, Pointer.to(groupSize), null);
        } catch (CLException e) {
            clReleaseKernel(first);
            throw e;
        }
        try {
            clGetKernelWorkGroupInfo(first, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Sizeof.size_t, Pointer.to(preferredMultiple), null);
            clGetKernelWorkGroupInfo(first, device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, 3L * Sizeof.size_t, Pointer.to(requiredSize), null);
        } catch (CLException e) {
            // only speed hints: a driver that refuses them gets candidates from 1 up, and a kernel it built
            // with reqd_work_group_size would refuse every other size at launch, so nothing is tuned then
            preferredMultiple[0] = 0;
            requiredSize[0] = 1;
        }
        this.argumentCount = count[0];
        this.maxWorkGroupSize = groupSize[0];
        this.workGroupTuning = new WorkGroupTuning(preferredMultiple[0], requiredSize[0] != 0);
        idle.push(new KernelObject(first, argumentCount));
        LiveResources.programCreated();
    }

    String kernelName() {
        return kernelName;
    }

    /** Launches of this program's kernel measured in full before {@link jpai.runtime.JpaiOptions#DEVICE_TIMES} {@code sampled} samples them. */
    private static final int TIMED_FIRST = 8;
    /** After those, one launch in this many is measured. */
    private static final int TIMED_EVERY = 16;
    /** Launches so far; a lost increment of two racing launches only shifts the sample. */
    private int launches;

    /**
     * Whether the next launch measures its commands' device times (on a profiling queue): always,
     * unless {@link jpai.runtime.JpaiOptions#deviceTimesSampled()}; then its first launches, those of a work-group
     * size still being measured, and one in {@value #TIMED_EVERY} after.
     */
    boolean timesNextLaunch() {
        if (!jpai.runtime.JpaiOptions.deviceTimesSampled()) {
            return true;
        }
        int n = launches++;
        return n < TIMED_FIRST || n % TIMED_EVERY == 0 || workGroupTuning.measuring();
    }

    /** The device time of the last launch of {@code globalSize} work-items, or 0 when unknown. */
    long expectedDeviceNanos(long globalSize) {
        LastDuration last = lastDuration;
        return last != null && last.globalSize() == globalSize ? last.deviceNanos() : 0;
    }

    /** Remembers what a launch of {@code globalSize} work-items took on the device. */
    void recordDeviceNanos(long globalSize, long deviceNanos) {
        lastDuration = new LastDuration(globalSize, deviceNanos);
    }

    /** The number of arguments the kernel declares. */
    int argumentCount() {
        return argumentCount;
    }

    /** {@code CL_KERNEL_WORK_GROUP_SIZE} of the kernel on the program's device (or a test's smaller limit, {@link FaultInjection#limitKernelWorkGroupSize}). */
    long maxWorkGroupSize() {
        return FaultInjection.kernelWorkGroupSize(maxWorkGroupSize);
    }

    /** The measured choice of this kernel's work-group size, per size class of its launches. */
    WorkGroupTuning workGroupTuning() {
        return workGroupTuning;
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

    /**
     * One more launch uses the program (the cache leases it before handing it out).
     *
     * @return false if it was released already (evicted with no launch left): look it up again
     */
    synchronized boolean lease() {
        if (destroyed) {
            return false;
        }
        leases++;
        return true;
    }

    /** A launch is done with the program; the last one after its eviction releases it. */
    synchronized void release() {
        leases--;
        destroyIfUnused();
    }

    /** The cache let go of the program: released now if no launch uses it, else by the last one. */
    synchronized void evict() {
        evicted = true;
        destroyIfUnused();
    }

    /** Whether the driver's program was released (for tests). */
    synchronized boolean isReleased() {
        return destroyed;
    }

    private void destroyIfUnused() {
        if (!evicted || leases > 0 || destroyed) {
            return;
        }
        destroyed = true;
        try {
            for (KernelObject kernel = idle.pollFirst(); kernel != null; kernel = idle.pollFirst()) {
                clReleaseKernel(kernel.kernel());
            }
            clReleaseProgram(program);
        } catch (CLException e) {
            // A lost device may refuse; the driver frees the program with the context.
        }
        LiveResources.programReleased();
    }
}
