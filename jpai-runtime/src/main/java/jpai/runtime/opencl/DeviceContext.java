package jpai.runtime.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_DEVICE_MAX_WORK_ITEM_SIZES;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clReleaseContext;

import java.nio.file.Path;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_event;

import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.JpaiOptions;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.profile.Profiler;

/**
 * One OpenCL device in use: its context, its {@linkplain CommandQueues command queues}, and what
 * the runtime keeps per device: the {@linkplain ProgramCache programs} (in memory and on disk), the
 * {@linkplain DeviceBufferPool device buffer pool}, and the {@linkplain #pinnedMemory() pinned host
 * memory} arrays are allocated from while this device is in use.
 *
 * <p>Each launch runs on a queue lent to it alone until its commands have finished, so a long
 * kernel of one thread holds up another thread's launch only as far as the device itself does, and
 * no lock is held while a kernel runs. Order across launches comes from events: a buffer sent by
 * one launch is current for the next, whichever queue it runs on ({@link DeviceResidency}).
 *
 * <p>A device reported lost ({@code CL_DEVICE_NOT_AVAILABLE}) makes the context unusable: every
 * later launch throws {@link OpenCLRuntimeException} at once, and {@link OpenCLRuntime} sends later
 * operations to Java threads.
 *
 * <p>Thread-safe: launches may run from many threads at once.
 */
public final class DeviceContext {

    private final OpenCLDeviceInfo device;
    /** {@link #maxWorkItemSizes()}, once read. */
    private volatile long[] maxWorkItemSizes;
    private volatile java.util.Set<String> extensions;
    private final cl_context context;
    private final CommandQueues queues;
    /** Queues without profiling, for launches that measure no device times ({@link BuiltProgram#timesNextLaunch}). */
    private final CommandQueues plainQueues;
    /** The queue of pinned memory's blocking maps, which no launch uses: a map never waits for a kernel. */
    private final cl_command_queue mappingQueue;
    private final ProgramCache programs;
    private final DeviceBufferPool bufferPool;
    private final StatusBuffers statusBuffers;
    private final PinnedHostMemory pinnedMemory;
    private final Transfers transfers;
    private volatile String lostReason;

    /** A context on {@code device} with the program cache the options ask for. */
    DeviceContext(OpenCLDeviceInfo device) {
        this(device, JpaiOptions.programCacheDir(), Transfers.DEFAULT_SLICE_BYTES);
    }

    /**
     * @param cacheDir   the program binary cache directory, or null for none
     * @param sliceBytes the largest single transfer command
     */
    DeviceContext(OpenCLDeviceInfo device, Path cacheDir, long sliceBytes) {
        if (!device.hasHandles()) {
            throw new IllegalArgumentException("device " + device.label() + " has no driver handles (a synthetic test device) and cannot run kernels");
        }
        CL.setExceptionsEnabled(true);
        this.device = device;
        cl_context_properties properties = new cl_context_properties();
        properties.addProperty(CL_CONTEXT_PLATFORM, device.platformId());
        this.context = clCreateContext(properties, 1, new cl_device_id[] {device.deviceId()}, null, null, null);
        try {
            this.queues = new CommandQueues(context, device.deviceId(), true);
            this.plainQueues = new CommandQueues(context, device.deviceId(), false);
            this.mappingQueue = CommandQueues.create(context, device.deviceId());
        } catch (CLException e) {
            clReleaseContext(context);
            throw e;
        }
        this.programs = new ProgramCache(this, cacheDir == null ? null : ProgramBinaryCache.open(cacheDir));
        // Idle device memory kept for reuse: an eighth of the device, at most 4 GiB.
        this.bufferPool = new DeviceBufferPool(this, Math.min(device.globalMemoryBytes() / 8, 4L << 30));
        this.pinnedMemory = new PinnedHostMemory(this);
        this.statusBuffers = new StatusBuffers(this);
        this.transfers = new Transfers(sliceBytes);
    }

    public OpenCLDeviceInfo device() {
        return device;
    }

    /** Whether the device lists {@code extension} in {@code CL_DEVICE_EXTENSIONS} (read from the driver once). */
    public boolean hasExtension(String extension) {
        java.util.Set<String> known = extensions;
        if (known == null) {
            long[] size = new long[1];
            clGetDeviceInfo(device.deviceId(), CL.CL_DEVICE_EXTENSIONS, 0, null, size);
            byte[] text = new byte[(int) size[0]];
            clGetDeviceInfo(device.deviceId(), CL.CL_DEVICE_EXTENSIONS, text.length, Pointer.to(text), null);
            String names = new String(text, java.nio.charset.StandardCharsets.US_ASCII).replace("\0", " ").strip();
            // Set.copyOf, not Set.of: a driver that lists a name twice is no error
            extensions = known = java.util.Set.copyOf(java.util.Arrays.asList(names.isEmpty() ? new String[0] : names.split("\\s+")));
        }
        return known.contains(extension);
    }

    /**
     * {@code CL_DEVICE_MAX_WORK_ITEM_SIZES}: the most work-items a work-group may have in each of the
     * first three dimensions (dimension 0 first), read from the driver once.
     */
    public long[] maxWorkItemSizes() {
        return knownMaxWorkItemSizes().clone();
    }

    /** The device's most work-items of a group in {@code dimension}, with no copy of the sizes (a launcher asks on every apply). */
    long maxWorkItemSize(int dimension) {
        return knownMaxWorkItemSizes()[dimension];
    }

    private long[] knownMaxWorkItemSizes() {
        long[] known = maxWorkItemSizes;
        if (known == null) {
            long[] sizes = new long[KernelLaunch.MAX_DIMENSIONS];
            clGetDeviceInfo(device.deviceId(), CL_DEVICE_MAX_WORK_ITEM_SIZES, (long) Sizeof.size_t * sizes.length, Pointer.to(sizes), null);
            maxWorkItemSizes = known = sizes;
        }
        return known;
    }

    /**
     * Runs {@code launch} of the kernel in {@code source} and waits for it.
     *
     * @throws OpenCLRuntimeException if OpenCL fails (the launch has released what it held)
     * @throws IllegalArgumentException if the launch leaves a kernel argument unbound or binds one the kernel lacks
     */
    public LaunchResult launch(KernelSource source, KernelLaunch launch) {
        return new KernelLauncher(this, source, launch).run();
    }

    /**
     * Builds (or loads) the program of {@code source} now, so that its first launch finds it built:
     * for a compilation in the background (tiering). A failure is thrown, and met again by the launch.
     */
    public void prepare(KernelSource source) {
        programs().program(source).release();
    }

    /**
     * Runs {@code launches[i]} of the kernel in {@code sources[i]}, in order, each seeing what the
     * ones before it wrote, with one wait for all at the end; returns their results in order.
     *
     * @throws OpenCLRuntimeException if OpenCL fails (the launches have released what they held)
     */
    public java.util.List<LaunchResult> launchSequence(java.util.List<KernelSource> sources, java.util.List<KernelLaunch> launches) {
        if (sources.size() != launches.size() || sources.isEmpty()) {
            throw new IllegalArgumentException("a launch sequence needs one source per launch and at least one launch; got " + sources.size() + " and " + launches.size());
        }
        return KernelLauncher.runSequence(this, sources, launches);
    }

    /** Pinned host memory of this device's driver: what new arrays use while this device is in use. */
    /**
     * Puts {@code buffer}'s data on this device now, unless its device copy is current already
     * ({@code AF.copyToDevice()}): later kernels that read it find it there.
     *
     * @throws OpenCLRuntimeException if the transfer fails (the buffer is then as before)
     */
    public void makeResident(ComponentBuffer buffer) {
        checkUsable();
        DeviceResidency residency = DeviceResidency.of(this, buffer);
        cl_command_queue queue = queues.take("a copy to the device");
        LaunchEvents events = LaunchEvents.take(queue);
        try {
            cl_event sent = residency.prepareForKernelRead(buffer, events);
            events.finish(); // a transfer only: not worth handing over to another thread on an interrupt
            if (sent != null) {
                residency.sendFinished(sent);
            }
            Profiler.hostToDevice(events.nanos(LaunchEvents.Kind.HOST_TO_DEVICE), events.bytes(LaunchEvents.Kind.HOST_TO_DEVICE), events.count(LaunchEvents.Kind.HOST_TO_DEVICE));
        } catch (CLException e) {
            residency.discardAfterFailure(true);
            throw failure("sending a buffer of " + buffer.byteSize() + " bytes", e);
        } finally {
            events.release();
            events.recycle(); // waited for: nothing refers to them now
            queues.giveBack(queue);
        }
    }

    /**
     * Gives {@code to} the device copy that a finished kernel wrote for {@code from} (at least as
     * large): a result whose length was known only after its kernel, written into room for more.
     * Nothing is copied; {@code from} keeps no device copy.
     */
    public void moveDeviceCopy(ComponentBuffer from, ComponentBuffer to) {
        DeviceResidency.moveDeviceCopy(this, from, to);
    }

    /**
     * Prepares a kernel that will write {@code buffer}'s device copy in place and may exit on a Java
     * exception path ({@link InPlaceUpdate}): the call's writes then must not be seen.
     *
     * @throws OpenCLRuntimeException if saving the device copy fails (the buffer is then as before)
     */
    public InPlaceUpdate inPlaceUpdate(ComponentBuffer buffer) {
        checkUsable();
        DeviceResidency residency = DeviceResidency.of(this, buffer);
        cl_command_queue queue = queues.take("saving an array's device copy");
        try {
            return new InPlaceUpdate(this, buffer, residency, residency.copyIfDeviceNewer(buffer, queue));
        } catch (CLException e) {
            throw failure("saving the device copy of a buffer of " + buffer.byteSize() + " bytes", e);
        } finally {
            queues.giveBack(queue);
        }
    }

    public HostMemory pinnedMemory() {
        return pinnedMemory;
    }

    /** Whether the device was lost; then nothing more runs here. */
    public boolean isLost() {
        return lostReason != null;
    }

    /** Why the device counts as lost, or null. */
    public String lostReason() {
        return lostReason;
    }

    /** Programs built from source by this context (for tests and tools). */
    public int programsBuiltFromSource() {
        return programs.sourceBuilds();
    }

    /** Programs kept in memory now; at most {@code -Djpai.cache.programs} (for tests and tools). */
    public int programsInMemory() {
        return programs.size();
    }

    /** Programs evicted from memory so far (for tests and tools). */
    public int programsEvicted() {
        return programs.evictions();
    }

    /** Programs this context loaded from the disk cache (for tests and tools). */
    public int programsLoadedFromDisk() {
        return programs.binaryLoads();
    }

    /**
     * Releases the programs, pooled memory, queue and context. Arrays holding device copies or
     * pinned memory of this context must be closed first. For tests and {@link OpenCLRuntime#reset()}.
     */
    public void close() {
        queues.close(); // waits for their commands
        plainQueues.close();
        CommandQueues.release(mappingQueue);
        programs.close();
        statusBuffers.clear();
        bufferPool.close();
        pinnedMemory.close();
        try {
            clReleaseContext(context);
        } catch (CLException e) {
            // A lost device may refuse; nothing else holds these.
        }
    }

    cl_context context() {
        return context;
    }

    /** The profiling queues launches and copies back borrow. */
    CommandQueues queues() {
        return queues;
    }

    /** The profiling queues ({@code timed}) or the plain ones: for a launch that measures its device times or not ({@link BuiltProgram#timesNextLaunch}). */
    CommandQueues queues(boolean timed) {
        return timed ? queues : plainQueues;
    }

    /** The pool {@code queue} was lent from, to give it back to. */
    CommandQueues poolOf(cl_command_queue queue) {
        return CommandQueues.profiles(queue) ? queues : plainQueues;
    }

    /** The queue of pinned memory's maps and unmaps. */
    cl_command_queue mappingQueue() {
        return mappingQueue;
    }

    ProgramCache programs() {
        return programs;
    }

    StatusBuffers statusBuffers() {
        return statusBuffers;
    }

    DeviceBufferPool bufferPool() {
        return bufferPool;
    }

    Transfers transfers() {
        return transfers;
    }

    void checkUsable() {
        String reason = lostReason;
        if (reason != null) {
            throw new OpenCLRuntimeException("the OpenCL device " + device.name() + " was lost earlier (" + reason + ") and runs nothing more");
        }
    }

    /**
     * The exception for a failed OpenCL call made while {@code doing}; marks the device lost when
     * the status says so.
     */
    OpenCLRuntimeException failure(String doing, CLException e) {
        if (e.getStatus() == CL.CL_DEVICE_NOT_AVAILABLE && lostReason == null) {
            lostReason = e.getMessage();
            Explain.notice("the OpenCL device " + device.name() + " was lost (" + e.getMessage() + "); operations run on Java threads from now on");
        }
        return new OpenCLRuntimeException("OpenCL failed on " + device.name() + " while " + doing + ": " + e.getMessage(), e);
    }
}
