package jpai.runtime.opencl;

import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clFlush;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clSetKernelArg;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;
import org.jocl.cl_mem;

import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.memory.BufferLeases;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.opencl.FaultInjection.Fault;
import jpai.runtime.opencl.KernelLaunch.Binding;
import jpai.runtime.opencl.KernelLaunch.Local;
import jpai.runtime.opencl.KernelLaunch.ReadArray;
import jpai.runtime.opencl.KernelLaunch.ReadWriteArray;
import jpai.runtime.opencl.KernelLaunch.WrittenValues;
import jpai.runtime.opencl.KernelLaunch.ReadBuffer;
import jpai.runtime.opencl.KernelLaunch.Scalar;
import jpai.runtime.opencl.KernelLaunch.Status;
import jpai.runtime.opencl.KernelLaunch.UnwrittenStatus;
import jpai.runtime.opencl.KernelLaunch.UpdateBuffer;
import jpai.runtime.opencl.KernelLaunch.WriteBuffer;
import jpai.runtime.opencl.LaunchEvents.Kind;
import jpai.runtime.profile.Profiler;

/**
 * Runs one {@link KernelLaunch} on one {@link DeviceContext}: gets the program (memory, disk cache
 * or build), binds every argument (sending stale inputs, allocating outputs from the pool), enqueues
 * the kernel, reads the status words back, waits, and reports the event timings to the launch's
 * {@link LaunchResult} and the open {@link Profiler} collection.
 *
 * <p>On any OpenCL error it waits for what it enqueued, gives back every temporary buffer, forgets
 * device copies the failed launch may have left half-made, and throws
 * {@link OpenCLRuntimeException} with a sentence saying what failed; a lost device also makes the
 * context unusable.
 *
 * <p>The launch borrows a command queue of its own from the context ({@link CommandQueues}) and
 * leases its program ({@link ProgramCache}) until its commands have finished. Its wait answers
 * {@link Thread#interrupt()} ({@link DeviceWait}): it then throws {@link LaunchInterruptedException}
 * and leaves the release of what the commands still use to {@link AbandonedLaunches}.
 *
 * <p>This runs on every apply, so its common path allocates little: its lists are walked by index
 * (the JIT does not always remove an iterator), the event queries and the status words use
 * per-thread direct memory ({@link EventQueries}, {@code STATUS_WORDS}), and what it builds per
 * launch is what the launch itself needs (the driver's event objects, the result and its profile).
 *
 * <p>One instance per launch; not thread-safe. Many launches may run at once on one context: each
 * takes a kernel object and a queue of its own, and the context's caches and pools are thread-safe.
 */
final class KernelLauncher {

    /**
     * Where a non-blocking status read lands: direct memory, which the driver may write after the
     * call returns; one per thread, since a thread runs one launch at a time.
     */
    private static final ThreadLocal<StatusWords> STATUS_WORDS = ThreadLocal.withInitial(StatusWords::new);

    /** Two status ints of direct memory and the JOCL pointer to them, made once per thread (a pointer per read would cost three objects per launch). */
    private record StatusWords(ByteBuffer words, Pointer pointer) {
        StatusWords(ByteBuffer words) {
            this(words, Pointer.to(words));
        }

        StatusWords() {
            this(ByteBuffer.allocateDirect((int) StatusBuffers.BYTES).order(ByteOrder.nativeOrder()));
        }

        int reason() {
            return words.getInt(0);
        }

        int element() {
            return words.getInt(Sizeof.cl_int);
        }
    }

    private final DeviceContext context;
    private final KernelSource source;
    private final KernelLaunch launch;
    /** The events of this launch's commands, on the queue lent to it; made when the queue is taken. */
    private LaunchEvents events;
    /** The thread stopped waiting (interrupted): what the launch holds is released when the device has finished. */
    private boolean abandoned;
    /** Pool buffers holding copies of captured Java arrays, given back after the launch; made by the first (most launches have none). */
    private List<DeviceBuffer> temporaries = List.of();
    /** Residencies this launch sent data to or writes, with whether the device copy was newer before. */
    private final List<Touched> touched;
    /**
     * What the launch is doing, for the message of a failure: a fixed phrase, or the binding whose
     * argument is being set (the sentence is made only if something fails; this runs every apply).
     */
    private String step = "getting the program";
    private Binding stepBinding;
    /** The status buffer this launch owns, from the context's zeroed ones, or null. */
    private DeviceBuffer statusBuffer;
    /**
     * The status buffer of the sequence this launch is part of, bound instead of one of its own, or
     * null: the sequence owns it and reads it once after its last launch.
     */
    private DeviceBuffer sequenceStatus;
    /** Part of a sequence: the kernel object is kept until the sequence has enqueued every launch ({@link #giveBackKernels}). */
    private boolean inSequence;
    /** The lease on the launch's program, once {@link #prepare()} took it. */
    private BuiltProgram program;
    /** The kernel object while its arguments are being set, or null. */
    private KernelObject kernel;
    /** Where the status words go after the wait, or null when the kernel has none. */
    private int[] status;
    private long buildNanos;
    /** The work-group size this launch uses when the launch lets it be tuned ({@link KernelLaunch#localSizeTuned()}), else null. */
    private WorkGroupTuning.Choice workGroupChoice;

    /** A written Java array's device copy and where it is read back to after the kernel. */
    private record ReadBack(DeviceBuffer buffer, ByteBuffer target, long bytes) {
    }

    /** Made by the first (most launches write no Java array). */
    private List<ReadBack> readBacks = List.of();

    /** A residency the launch used, whether its device copy was the newer one before, and the send this launch made to it (or null). */
    private record Touched(DeviceResidency residency, boolean wasDeviceNewer, cl_event sent) {
    }

    KernelLauncher(DeviceContext context, KernelSource source, KernelLaunch launch) {
        this.context = context;
        this.source = source;
        this.launch = launch;
        this.touched = new ArrayList<>(launch.bindings().size()); // at most one per binding: never grown
    }

    LaunchResult run() {
        // Every array's host memory stays allocated until the launch's last command has finished:
        // released here, or, when the thread stopped waiting, by the abandoned launch's release.
        BufferLeases leases = LaunchLeases.of(launch);
        try {
            return runLeased(leases);
        } finally {
            if (!abandoned) {
                leases.close();
            }
        }
    }

    private LaunchResult runLeased(BufferLeases leases) {
        long start = System.nanoTime();
        prepare();
        cl_command_queue queue;
        try {
            // a profiling queue when this launch measures its device times, else a plain one (JpaiOptions.DEVICE_TIMES)
            queue = context.queues(launch.measuresDeviceTimes() || program.timesNextLaunch()).take("kernel", source.kernelName());
        } catch (RuntimeException e) {
            program.release();
            throw e;
        }
        events = LaunchEvents.take(queue);
        try {
            StatusWords statusWords = enqueue(STATUS_WORDS.get());
            step = "waiting for the device";
            if (!DeviceWait.await(events, program.expectedDeviceNanos(launch.globalSize()), true, 0, pollsFreely(context))) {
                abandon(program, leases, statusWords);
                throw interrupted();
            }
            return complete(statusWords, start);
        } catch (CLException e) {
            cleanUpAfterFailure(program, kernel, e);
            throw context.failure(stepDescription() + " for kernel " + source.kernelName(), e);
        } catch (RuntimeException | Error e) {
            if (!abandoned) { // an abandoned launch is released when the device has finished it
                cleanUpAfterFailure(program, kernel, null);
            }
            throw e;
        } finally {
            if (!abandoned) {
                events.release();
                events.recycle(); // waited for: nothing refers to them now
                context.poolOf(queue).giveBack(queue);
                program.release();
            }
        }
    }

    /** Whether a waiting thread may poll the device back to back: it is not the CPU the kernels run on. */
    private static boolean pollsFreely(DeviceContext context) {
        return context.device().kind() != DeviceKind.CPU;
    }

    /**
     * Runs {@code launches} (of {@code sources}) one after another on one command queue with no
     * wait between them: each may read what the one before it wrote (the queue is in order), and the
     * host waits once, at the end, instead of once per launch (a reduction's passes: the later ones
     * are tiny, and a wait for each cost more than they do). A failure or an interrupt treats the
     * sequence as one launch: everything is cleaned up, or released when the device has finished.
     *
     * <p>The launches that bind a status buffer share one, read once after the last launch: kernels
     * write their status first-failure-wins ({@code atomic_cmpxchg}), so the words read are those
     * of the first launch that left the device path, and every launch's result reports them (a later
     * launch may have read that launch's unfinished results; the sequence's results are then all
     * discarded anyway).
     */
    static List<LaunchResult> runSequence(DeviceContext context, List<KernelSource> sources, List<KernelLaunch> launches) {
        long start = System.nanoTime();
        List<KernelLauncher> launchers = new ArrayList<>(sources.size());
        List<BufferLeases> leases = new ArrayList<>(sources.size());
        cl_command_queue queue = null; // taken once the first launch's program says whether it measures its device times
        boolean anyStatus = false;
        for (int k = 0; k < launches.size(); k++) {
            KernelLaunch launch = launches.get(k);
            for (int b = 0; b < launch.bindings().size(); b++) {
                Binding binding = launch.bindings().get(b);
                anyStatus |= binding instanceof Status;
            }
        }
        boolean abandoned = false;
        long deviceStarted = 0; // when the first pass was flushed (0: not before the first wait)
        long expectedSoFar = 0; // the device time of the launches up to the one waited for, as last measured
        KernelLauncher current = null;
        DeviceBuffer sharedStatus = null;
        StatusWords statusWords = null;
        try {
            for (int i = 0; i < sources.size(); i++) {
                KernelLauncher launcher = new KernelLauncher(context, sources.get(i), launches.get(i));
                current = launcher;
                leases.add(LaunchLeases.of(launches.get(i)));
                launcher.prepare();
                if (queue == null) {
                    // one queue for the whole sequence: a profiling one when its first launch measures device times (JpaiOptions.DEVICE_TIMES)
                    try {
                        queue = context.queues(launcher.program.timesNextLaunch()).take("a sequence of kernels, the first", sources.get(0).kernelName());
                    } catch (RuntimeException e) {
                        launcher.program.release();
                        throw e;
                    }
                }
                launcher.events = LaunchEvents.take(queue);
                launchers.add(launcher);
                if (anyStatus && sharedStatus == null) {
                    launcher.step = "preparing the status buffer";
                    FaultInjection.check(Fault.TRANSFER);
                    sharedStatus = context.statusBuffers().take(launcher.events); // zeroed before the first kernel, on this queue
                }
                launcher.sequenceStatus = sharedStatus;
                launcher.inSequence = true;
                launcher.enqueue(null);
                if (i == 0 && sources.size() > 1) {
                    // the device starts on the first pass while the host enqueues the others (NVIDIA submits nothing before a flush)
                    DriverCalls.count(DriverCalls.Call.FLUSH);
                    clFlush(queue);
                    deviceStarted = System.nanoTime();
                }
            }
            giveBackKernels(launchers);
            KernelLauncher last = launchers.get(launchers.size() - 1);
            if (sharedStatus != null) {
                current = last;
                statusWords = STATUS_WORDS.get();
                last.readStatus(sharedStatus, statusWords); // the sequence's last command: its wait covers it
            }
            boolean flushed = false;
            for (int l = 0; l < launchers.size(); l++) {
                KernelLauncher launcher = launchers.get(l);
                current = launcher;
                launcher.step = "waiting for the device";
                // one flush, before the first wait that has commands to wait for, submits every launch's commands
                boolean flush = !flushed;
                flushed |= launcher.events.last() != null;
                // Timed from the first pass's flush, not from here: the host enqueued the other
                // passes and the reads since, while the device ran (on the H200, 0.17 ms of a 0.36 ms
                // reduction of 2^28 floats, which a sleep timed from here overslept).
                long expected = launcher.program.expectedDeviceNanos(launcher.launch.globalSize());
                expectedSoFar = expected == 0 || (expectedSoFar == 0 && l > 0) ? 0 : expectedSoFar + expected;
                if (!DeviceWait.await(launcher.events, expectedSoFar, flush, deviceStarted, pollsFreely(context))) {
                    abandoned = true;
                    if (statusWords != null) {
                        STATUS_WORDS.remove(); // the driver may still write these words: this thread's next launch gets others
                    }
                    abandonSequence(context, queue, launchers, leases, sharedStatus);
                    throw launcher.interrupted();
                }
                if (launcher.events.finishedByQueue()) {
                    // the one queue was finished: every later launch's commands are done too, whatever their events say
                    for (int later = l + 1; later < launchers.size(); later++) {
                        launchers.get(later).events.finishedByQueue(null);
                    }
                }
            }
            int reason = statusWords == null ? 0 : statusWords.reason();
            int element = statusWords == null ? 0 : statusWords.element();
            List<LaunchResult> results = new ArrayList<>(launchers.size());
            for (int l = 0; l < launchers.size(); l++) {
                KernelLauncher launcher = launchers.get(l);
                if (launcher.status != null) {
                    launcher.status[0] = reason;
                    launcher.status[1] = element;
                }
                results.add(launcher.complete(null, start));
            }
            if (sharedStatus != null) {
                DeviceBuffer written = sharedStatus;
                sharedStatus = null;
                context.statusBuffers().giveBack(written, reason != 0 || element != 0);
            }
            return results;
        } catch (CLException e) {
            for (int l = 0; l < launchers.size(); l++) {
                KernelLauncher launcher = launchers.get(l);
                launcher.cleanUpAfterFailure(launcher.program, launcher.kernel, e);
            }
            releaseAfterFailure(context, sharedStatus);
            String kernelName = current == null ? "a sequence" : current.source.kernelName();
            throw context.failure((current == null ? "enqueuing" : current.stepDescription()) + " for kernel " + kernelName, e);
        } catch (RuntimeException | Error e) {
            if (!abandoned) {
                for (KernelLauncher launcher : launchers) {
                    launcher.cleanUpAfterFailure(launcher.program, launcher.kernel, null);
                }
                releaseAfterFailure(context, sharedStatus);
            }
            throw e;
        } finally {
            if (!abandoned) {
                releaseSequence(context, queue, launchers, leases);
                for (int l = 0; l < launchers.size(); l++) {
                    launchers.get(l).events.recycle(); // waited for: nothing refers to them now
                }
            }
        }
    }

    /**
     * Gives back the kernel objects a sequence's launches kept, the last launch's first: each
     * program hands out the one given back last first, so when two launches run the same kernel
     * (a reduction's later passes) the next apply's launches each find the object that already has
     * their arguments set, instead of taking turns and setting every argument again.
     */
    private static void giveBackKernels(List<KernelLauncher> launchers) {
        for (int i = launchers.size() - 1; i >= 0; i--) {
            KernelLauncher launcher = launchers.get(i);
            if (launcher.kernel != null) {
                launcher.program.giveBack(launcher.kernel);
                launcher.kernel = null;
            }
        }
    }

    /** A sequence's status buffer after a failure (its launches have finished their commands): its contents are unknown. */
    private static void releaseAfterFailure(DeviceContext context, DeviceBuffer sharedStatus) {
        if (sharedStatus != null) {
            context.bufferPool().release(sharedStatus);
        }
    }

    /** Gives back what a sequence's launches hold to the end: their events, program leases, buffer leases and the one queue. */
    private static void releaseSequence(DeviceContext context, cl_command_queue queue, List<KernelLauncher> launchers, List<BufferLeases> leases) {
        for (int l = 0; l < launchers.size(); l++) {
            KernelLauncher launcher = launchers.get(l);
            launcher.events.release();
            launcher.program.release();
        }
        for (int i = 0; i < leases.size(); i++) {
            BufferLeases lease = leases.get(i);
            lease.close();
        }
        if (queue != null) { // null when the first launch failed before it took one
            context.poolOf(queue).giveBack(queue);
        }
    }

    /** {@link #abandon} for a whole sequence: its one queue is in order, so its last command finishing means all have. */
    private static void abandonSequence(DeviceContext context, cl_command_queue queue, List<KernelLauncher> launchers, List<BufferLeases> leases,
            DeviceBuffer sharedStatus) {
        List<DeviceBuffer> statusBuffers = new ArrayList<>();
        if (sharedStatus != null) {
            statusBuffers.add(sharedStatus);
        }
        for (KernelLauncher launcher : launchers) {
            if (launcher.statusBuffer != null) {
                statusBuffers.add(launcher.statusBuffer);
                launcher.statusBuffer = null;
            }
        }
        AbandonedLaunches.releaseWhenFinished(launchers.get(launchers.size() - 1).events, () -> {
            try {
                for (KernelLauncher launcher : launchers) {
                    launcher.sendsFinished();
                    launcher.releaseTemporaries();
                }
                for (DeviceBuffer buffer : statusBuffers) {
                    context.bufferPool().release(buffer); // their contents are unknown
                }
            } finally {
                releaseSequence(context, queue, launchers, leases);
            }
        });
    }

    /** Checks the launch and takes a lease on its program (built or loaded if needed). */
    private void prepare() {
        context.checkUsable();
        long[] global = launch.globalSizes();
        if (global == null) {
            throw new IllegalArgumentException("the launch of " + source.kernelName() + " has no global size: call globalSize(n)");
        }
        long[] local = launch.localSizes();
        if (local != null) {
            if (local.length != global.length) {
                throw new IllegalArgumentException("the launch of " + source.kernelName() + " has " + global.length + " global sizes " + Arrays.toString(global)
                        + " but " + local.length + " local sizes " + Arrays.toString(local));
            }
            for (int d = 0; d < global.length; d++) {
                if (global[d] % local[d] != 0) {
                    throw new IllegalArgumentException("the launch of " + source.kernelName() + " has " + global[d] + " work-items in dimension " + d
                            + ", not a multiple of its local size " + local[d]);
                }
            }
            if (launch.perEnqueue() % local[global.length - 1] != 0) {
                throw new IllegalArgumentException("the launch of " + source.kernelName() + " enqueues " + launch.perEnqueue()
                        + " work-items of dimension " + (global.length - 1) + " at a time, not a multiple of its local size " + local[global.length - 1]);
            }
        }
        long buildStart = System.nanoTime();
        try {
            program = context.programs().program(source); // a lease: an evicted program is released only after its last launch
        } catch (CLException e) {
            throw context.failure("getting the program for kernel " + source.kernelName(), e);
        }
        buildNanos = System.nanoTime() - buildStart;
    }

    /**
     * Binds every argument and enqueues the kernel, the status read (into {@code words}) and the
     * copy-backs on this launch's queue, waiting for none of them.
     *
     * @return where the status words will land, or null when the kernel has none
     */
    private StatusWords enqueue(StatusWords words) {
        checkAllBound(program);
        kernel = program.take();
        status = bindAll(kernel);
        long[] global = launch.globalSizes();
        if (allPositive(global)) {
            step = "enqueuing the kernel";
            FaultInjection.check(Fault.ENQUEUE_KERNEL);
            long[] local = localSizes();
            int dimensions = global.length;
            int outermost = dimensions - 1;
            long total = global[outermost];
            // A large NDRange goes in slabs along its outermost dimension, each slab whole in the others.
            long piece = launch.perEnqueue() > 0 ? launch.perEnqueue() : total;
            int base = launch.baseIndexArgument();
            // Sends of inputs made by other launches, on their queues, finish before the first piece.
            cl_event[] after = events.waitList();
            long first = launch.firstItem();
            for (long offset = 0; offset < total; offset += piece) {
                long[] globalOffset = null;
                long start = first + offset;
                if (base >= 0) {
                    if (start != 0) { // the binding set 0 for the first piece
                        DriverCalls.count(DriverCalls.Call.SET_KERNEL_ARG);
                        clSetKernelArg(kernel.kernel(), base, Sizeof.cl_long, Pointer.to(new long[] {start}));
                    }
                } else if (start != 0) {
                    globalOffset = new long[dimensions];
                    globalOffset[outermost] = start;
                }
                long[] slab = global;
                if (piece < total) { // a slab of the range: its own sizes (the whole range needs no copy)
                    slab = global.clone();
                    slab[outermost] = Math.min(piece, total - offset);
                }
                boolean waits = offset == 0 && after != null;
                DriverCalls.count(DriverCalls.Call.ENQUEUE_KERNEL);
                clEnqueueNDRangeKernel(events.queue(), kernel.kernel(), dimensions, globalOffset, slab, local,
                        waits ? after.length : 0, waits ? after : null, events.next(Kind.KERNEL, 0));
                KernelLaunches.recordOne(!source.requiredLocalSize().isEmpty());
            }
            if (base >= 0 && (piece < total || first != 0)) {
                // back to what the kernel object remembers having set (it skips unchanged arguments)
                DriverCalls.count(DriverCalls.Call.SET_KERNEL_ARG);
                clSetKernelArg(kernel.kernel(), base, Sizeof.cl_long, Pointer.to(new long[] {0L}));
            }
        }
        if (!inSequence) {
            program.giveBack(kernel); // the arguments were captured by the enqueue
            kernel = null;
        } // else the sequence gives it back after its last launch (givesBackKernels)
        markWritten();
        StatusWords statusWords = null;
        if (statusBuffer != null) {
            statusWords = words;
            readStatus(statusBuffer, statusWords);
        }
        for (int r = 0; r < readBacks.size(); r++) {
            ReadBack readBack = readBacks.get(r);
            step = "reading back a written array";
            if (readBack.bytes() > 0) {
                FaultInjection.check(Fault.TRANSFER);
                // Non-blocking into direct memory, like the status words: the launch's one wait covers it.
                DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
                BufferCommands.read(events.queue(), readBack.buffer().memory(), false, 0, readBack.bytes(), Pointer.to(readBack.target()), 0, null,
                        events.next(Kind.DEVICE_TO_HOST, readBack.bytes()));
            }
        }
        for (KernelLaunch.PlacedCopyBack back : launch.placedCopyBacks()) {
            step = "copying a placed part back to the host";
            if (back.to() > back.from()) {
                context.transfers().toHost(launch.placed(back.buffer()), back.from(), back.buffer().leasedMemory().asSlice(back.from(), back.to() - back.from()), events, false);
            }
        }
        if (!launch.keepsResultOnDevice()) {
            step = "bringing the results back";
            for (int b = 0; b < launch.bindings().size(); b++) {
                Binding binding = launch.bindings().get(b);
                if (binding instanceof WriteBuffer write && !launch.isPlaced(write.buffer())) {
                    DeviceResidency.of(context, write.buffer()).copyBack(write.buffer(), events);
                }
            }
        }
        return statusWords;
    }

    /**
     * Enqueues the read of {@code buffer}'s two status words into {@code words} (direct memory),
     * non-blocking: the launch's one wait covers it. Its event is counted in the profile's transfers
     * to the host but not timed: two profiling calls for 8 bytes cost more than they tell.
     */
    private void readStatus(DeviceBuffer buffer, StatusWords words) {
        step = "reading the status buffer";
        FaultInjection.check(Fault.TRANSFER);
        DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
        BufferCommands.read(events.queue(), buffer.memory(), false, 0, StatusBuffers.BYTES, words.pointer(), 0, null,
                events.next(Kind.DEVICE_TO_HOST, StatusBuffers.BYTES, false));
    }

    /**
     * The launch's local sizes, or null for the driver's choice. Where the launch lets them shrink,
     * each is halved (a power of two stays a divisor of its global size and of the slab size) until
     * it fits the device's limit in its dimension ({@code CL_DEVICE_MAX_WORK_ITEM_SIZES}) and the
     * whole group fits the kernel's ({@code CL_KERNEL_WORK_GROUP_SIZE}): a work-group size the
     * driver would refuse never fails a launch that only chose it for speed. Where the launch lets
     * them be tuned, the group is then the size {@link WorkGroupTuning} chooses within that fit.
     */
    private long[] localSizes() {
        long[] local = launch.localSizes();
        if (local == null || !launch.localSizesMayShrink()) {
            return local;
        }
        long[] fitted = local.clone();
        for (int d = 0; d < fitted.length; d++) {
            while (fitted[d] > context.maxWorkItemSize(d) && fitted[d] % 2 == 0) {
                fitted[d] /= 2;
            }
        }
        if (launch.localSizesTuned()) {
            WorkGroupShape.shrinkTo(fitted, Long.highestOneBit(Math.max(1, program.maxWorkGroupSize()))); // dimension 0 keeps its width longest
        }
        while (product(fitted) > program.maxWorkGroupSize()) {
            int largest = -1;
            for (int d = 0; d < fitted.length; d++) {
                if (fitted[d] % 2 == 0 && (largest < 0 || fitted[d] > fitted[largest])) {
                    largest = d;
                }
            }
            if (largest < 0) {
                break; // odd sizes cannot shrink and stay divisors: the driver says what is wrong
            }
            fitted[largest] /= 2;
        }
        if (launch.localSizesTuned() && !program.workGroupTuning().fixedByKernel() && allPowersOfTwo(fitted)) {
            long ceiling = product(fitted);
            workGroupChoice = program.workGroupTuning().choose(launch.globalSize(), ceiling);
            WorkGroupShape.shrinkTo(fitted, workGroupChoice.groupSize());
        }
        return fitted;
    }

    /** Whether every size is positive (plain loops on the apply path: no stream pipelines to allocate). */
    private static boolean allPositive(long[] sizes) {
        for (long size : sizes) {
            if (size <= 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean allPowersOfTwo(long[] sizes) {
        for (long size : sizes) {
            if (Long.bitCount(size) != 1) {
                return false;
            }
        }
        return true;
    }

    /** The work-items of a group of {@code sizes}. */
    private static long product(long[] sizes) {
        long product = 1;
        for (long size : sizes) {
            product = Math.multiplyExact(product, size);
        }
        return product;
    }

    /** After the wait: reads the status, gives back what the launch borrowed, and reports its profile. */
    private LaunchResult complete(StatusWords statusWords, long start) {
        events.await(); // returns at once; reports a failed command as CLException
        if (statusWords != null) {
            status[0] = statusWords.reason();
            status[1] = statusWords.element();
        }
        if (statusBuffer != null) {
            context.statusBuffers().giveBack(statusBuffer, status[0] != 0 || status[1] != 0);
            statusBuffer = null;
        }
        LaunchProfile profile = profile(buildNanos, System.nanoTime() - start);
        if (events.deviceTimesLate()) { // not a plain queue's launch, which measures nothing by choice
            Explain.lateEvents(context.device().name());
        }
        // a launch on a plain queue measured nothing: the expected time and the tuning keep what timed launches found
        if (events.measuresDeviceTimes()) {
            program.recordDeviceNanos(launch.globalSize(), profile.hostToDeviceNanos() + profile.kernelNanos() + profile.deviceToHostNanos());
            if (workGroupChoice != null) {
                String settled = program.workGroupTuning().record(workGroupChoice, profile.kernelNanos());
                if (settled != null) {
                    Explain.tuned(kernelDescription() + " on " + context.device().name() + " runs in " + settled);
                }
            }
        }
        sendsFinished();
        releaseTemporaries();
        return new LaunchResult(status, profile);
    }

    /** The kernel as the generator's header names it ("Generated by JPAI from map of lambda at Saxpy.java:42"), else its name. */
    private String kernelDescription() {
        String header = "// Generated by JPAI from ";
        String text = source.text();
        if (text.startsWith(header)) {
            int end = text.indexOf('\n');
            return "kernel " + source.kernelName() + " of " + text.substring(header.length(), end < 0 ? text.length() : end).strip();
        }
        return "kernel " + source.kernelName();
    }

    private LaunchInterruptedException interrupted() {
        return new LaunchInterruptedException("interrupted while waiting for kernel " + source.kernelName() + " on " + context.device().name()
                + "; its results are discarded, and the memory it uses is released when the device has finished it");
    }

    /**
     * The thread stopped waiting while the launch's commands may still run: everything they read or
     * write (leases, temporaries, the status buffer and the status words it is read into, the queue,
     * the program) is released by {@link AbandonedLaunches} once they have finished.
     */
    private void abandon(BuiltProgram program, BufferLeases leases, StatusWords statusWords) {
        abandoned = true;
        if (statusWords != null) {
            STATUS_WORDS.remove(); // the driver may still write these words: this thread's next launch gets others
        }
        LaunchEvents abandonedEvents = events;
        DeviceBuffer abandonedStatus = statusBuffer;
        statusBuffer = null;
        AbandonedLaunches.releaseWhenFinished(abandonedEvents, () -> {
            try {
                sendsFinished();
                releaseTemporaries();
                if (abandonedStatus != null) {
                    context.bufferPool().release(abandonedStatus); // its contents are unknown
                }
            } finally {
                abandonedEvents.release();
                context.poolOf(abandonedEvents.queue()).giveBack(abandonedEvents.queue());
                program.release();
                leases.close();
                // The words are direct memory the collector frees: reachable until the driver has
                // written them (BufferCommands enqueues without JOCL's reference keeping); the
                // read-back buffers stay reachable through this launch, which the task holds.
                Reference.reachabilityFence(statusWords);
            }
        });
    }

    /** Other launches need not wait for this launch's sends any more: it has seen them finish. */
    private void sendsFinished() {
        for (int j = 0; j < touched.size(); j++) {
            Touched t = touched.get(j);
            if (t.sent() != null) {
                t.residency().sendFinished(t.sent());
            }
        }
    }

    private void checkAllBound(BuiltProgram program) {
        int count = program.argumentCount();
        int highest = launch.highestIndex();
        if (highest >= count) {
            throw new IllegalArgumentException("kernel " + source.kernelName() + " has " + count + " arguments; argument " + highest + " does not exist");
        }
        // KernelLaunch binds each index at most once: as many bindings as arguments, all below the count, bind them all
        if (launch.bindings().size() < count) {
            int unbound = 0;
            while (launch.isBound(unbound)) {
                unbound++;
            }
            throw new IllegalArgumentException("argument " + unbound + " of kernel " + source.kernelName() + " is not bound");
        }
    }

    /** Sets every argument, sending what must be sent; returns the status words to read into, or null. */
    private int[] bindAll(KernelObject kernel) {
        int[] status = null;
        for (int b = 0; b < launch.bindings().size(); b++) {
            Binding binding = launch.bindings().get(b);
            stepBinding = binding;
            // each arm reads its record's index: a call through the interface would enter every
            // record's accessor as a compiled method of its own (an entry barrier each after a full
            // collection: docs/runtime.md); on the record's own type it is inlined
            switch (binding) {
                case ReadBuffer read when launch.isPlaced(read.buffer()) -> kernel.setBuffer(read.index(), launch.placed(read.buffer()));
                case UpdateBuffer update when launch.isPlaced(update.buffer()) -> kernel.setBuffer(update.index(), launch.placed(update.buffer()));
                case WriteBuffer write when launch.isPlaced(write.buffer()) -> kernel.setBuffer(write.index(), launch.placed(write.buffer()));
                case ReadBuffer read -> kernel.setBuffer(read.index(), sentBuffer(read.buffer()));
                case UpdateBuffer update -> kernel.setBuffer(update.index(), sentBuffer(update.buffer()));
                case WriteBuffer write -> {
                    DeviceResidency residency = DeviceResidency.of(context, write.buffer());
                    touched.add(new Touched(residency, residency.isDeviceNewer(), null));
                    residency.prepareForKernelWrite(write.buffer());
                    kernel.setBuffer(write.index(), residency.memory());
                }
                case ReadArray array -> kernel.setBuffer(array.index(), sentArray(array.array()).memory());
                case WrittenValues written -> {
                    DeviceBuffer buffer = temporary(written.readBack().capacity());
                    if (readBacks.isEmpty()) {
                        readBacks = new ArrayList<>();
                    }
                    readBacks.add(new ReadBack(buffer, written.readBack(), written.readBack().capacity()));
                    kernel.setBuffer(written.index(), buffer.memory());
                }
                case ReadWriteArray array -> {
                    DeviceBuffer buffer = sentArray(array.array());
                    if (readBacks.isEmpty()) {
                        readBacks = new ArrayList<>();
                    }
                    readBacks.add(new ReadBack(buffer, array.readBack(), ArrayData.byteSize(array.array())));
                    kernel.setBuffer(array.index(), buffer.memory());
                }
                case Scalar scalar -> {
                    kernel.setScalar(scalar.index(), scalar);
                }
                case Local local -> {
                    kernel.setLocal(local.index(), local.bytes());
                }
                case UnwrittenStatus s -> kernel.setBuffer(s.index(), context.statusBuffers().unwritten().memory());
                case Status s -> {
                    status = new int[2];
                    if (sequenceStatus != null) {
                        kernel.setBuffer(s.index(), sequenceStatus.memory());
                    } else {
                        FaultInjection.check(Fault.TRANSFER);
                        // Status buffers are kept zeroed between launches: only a launch whose kernel wrote one
                        // pays for zeroing it again, and the common launch makes no driver call for it here.
                        statusBuffer = context.statusBuffers().take(events);
                        kernel.setBuffer(s.index(), statusBuffer.memory());
                    }
                }
            }
        }
        stepBinding = null;
        return status;
    }

    /** The device copy of {@code buffer}, sent first if stale, recorded as touched. */
    private cl_mem sentBuffer(ComponentBuffer buffer) {
        DeviceResidency residency = DeviceResidency.of(context, buffer);
        boolean wasNewer = residency.isDeviceNewer();
        int at = touched.size();
        touched.add(new Touched(residency, wasNewer, null));
        cl_event sent = residency.prepareForKernelRead(buffer, events);
        if (sent != null) {
            touched.set(at, new Touched(residency, wasNewer, sent));
        }
        return residency.memory();
    }

    private String stepDescription() {
        if (stepBinding == null) {
            return step;
        }
        int index = stepBinding.index();
        return switch (stepBinding) {
            case ReadBuffer read -> "sending argument " + index + " (" + read.buffer().byteSize() + " bytes)";
            case WriteBuffer write -> "allocating argument " + index + " (" + write.buffer().byteSize() + " bytes)";
            case UpdateBuffer update -> "sending argument " + index + " (" + update.buffer().byteSize() + " bytes)";
            case ReadArray array -> "sending captured array argument " + index;
            case ReadWriteArray array -> "sending array argument " + index;
            case WrittenValues written -> "binding written values' argument " + index;
            case Scalar scalar -> "setting scalar argument " + index;
            case Local local -> "setting local argument " + index;
            case Status status -> "preparing the status buffer";
            case UnwrittenStatus status -> "binding the unwritten status buffer";
        };
    }

    /** A temporary buffer holding a copy of a Java array, sent now. */
    private DeviceBuffer sentArray(Object array) {
        DeviceBuffer buffer = temporary(ArrayData.byteSize(array));
        long bytes = ArrayData.byteSize(array);
        if (bytes > 0) {
            FaultInjection.check(Fault.TRANSFER);
            // Blocking: JOCL cannot leave a Java heap array to a command still in flight.
            DriverCalls.count(DriverCalls.Call.ENQUEUE_TRANSFER);
            clEnqueueWriteBuffer(events.queue(), buffer.memory(), true, 0, bytes, ArrayData.pointerTo(array), 0, null, events.next(Kind.HOST_TO_DEVICE, bytes));
        }
        return buffer;
    }

    private DeviceBuffer temporary(long bytes) {
        DeviceBuffer buffer = context.bufferPool().acquire(Math.max(1, bytes));
        if (temporaries.isEmpty()) {
            temporaries = new ArrayList<>();
        }
        temporaries.add(buffer);
        return buffer;
    }

    private void markWritten() {
        for (int b = 0; b < launch.bindings().size(); b++) {
            Binding binding = launch.bindings().get(b);
            if (binding instanceof WriteBuffer write && !launch.isPlaced(write.buffer())) {
                DeviceResidency.of(context, write.buffer()).kernelWrote();
                write.buffer().deviceWritten();
            } else if (binding instanceof UpdateBuffer update && !launch.isPlaced(update.buffer())) {
                DeviceResidency.of(context, update.buffer()).kernelWrote();
                update.buffer().deviceWritten();
            }
        }
    }

    private LaunchProfile profile(long buildNanos, long wallNanos) {
        LaunchProfile profile = new LaunchProfile(buildNanos,
                events.nanos(Kind.HOST_TO_DEVICE), events.bytes(Kind.HOST_TO_DEVICE), events.count(Kind.HOST_TO_DEVICE),
                events.nanos(Kind.KERNEL),
                events.nanos(Kind.DEVICE_TO_HOST), events.bytes(Kind.DEVICE_TO_HOST), events.count(Kind.DEVICE_TO_HOST),
                wallNanos);
        Profiler.device(context.device().name());
        if (!events.measuresDeviceTimes()) {
            Profiler.deviceTimesNotMeasured();
        }
        Profiler.hostToDevice(profile.hostToDeviceNanos(), profile.hostToDeviceBytes(), profile.hostToDeviceCount());
        Profiler.kernel(profile.kernelNanos(), events.count(Kind.KERNEL));
        Profiler.deviceToHost(profile.deviceToHostNanos(), profile.deviceToHostBytes(), profile.deviceToHostCount());
        return profile;
    }

    private void releaseTemporaries() {
        for (int i = 0; i < temporaries.size(); i++) {
            DeviceBuffer buffer = temporaries.get(i);
            context.bufferPool().release(buffer);
        }
        temporaries = List.of();
    }

    /**
     * Leaves nothing behind: waits for the commands already enqueued (they may still read the
     * temporaries or the host memory), gives the kernel object and the temporaries back, and
     * forgets device copies this launch was making. Written buffers lose their device copy (the
     * fallback computes them on the host); inputs keep theirs only if it was the newer copy before.
     */
    private void cleanUpAfterFailure(BuiltProgram program, KernelObject kernel, CLException cause) {
        try {
            DriverCalls.count(DriverCalls.Call.FLUSH);
            clFinish(events.queue()); // this launch's commands only: the queue is its own
        } catch (CLException e) {
            // The queue itself failed: nothing more will run on it.
        }
        if (kernel != null) {
            kernel.forgetArguments();
            program.giveBack(kernel);
        }
        for (Touched t : touched) {
            if (t.sent() != null) {
                t.residency().sendFinished(t.sent());
            }
            t.residency().discardAfterFailure(t.wasDeviceNewer());
        }
        releaseTemporaries();
        if (statusBuffer != null) {
            context.bufferPool().release(statusBuffer); // its contents are unknown after a failure
            statusBuffer = null;
        }
        if (cause != null && DeviceBufferPool.isOutOfMemory(cause.getStatus())) {
            context.bufferPool().clear(); // give the next attempt the room the pool was holding
        }
    }

    /** Sizes and JOCL pointers of primitive Java arrays. */
    private static final class ArrayData {
        private ArrayData() {
        }

        static long byteSize(Object array) {
            return switch (array) {
                case byte[] a -> a.length;
                case boolean[] a -> a.length;
                case short[] a -> 2L * a.length;
                case char[] a -> 2L * a.length;
                case int[] a -> 4L * a.length;
                case float[] a -> 4L * a.length;
                case long[] a -> 8L * a.length;
                case double[] a -> 8L * a.length;
                default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
            };
        }

        static Pointer pointerTo(Object array) {
            return switch (array) {
                case byte[] a -> Pointer.to(a);
                case boolean[] a -> Pointer.to(bytesOf(a));
                case short[] a -> Pointer.to(a);
                case char[] a -> Pointer.to(a);
                case int[] a -> Pointer.to(a);
                case float[] a -> Pointer.to(a);
                case long[] a -> Pointer.to(a);
                case double[] a -> Pointer.to(a);
                default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass().getSimpleName());
            };
        }

        private static byte[] bytesOf(boolean[] values) {
            byte[] bytes = new byte[values.length];
            for (int i = 0; i < values.length; i++) {
                bytes[i] = (byte) (values[i] ? 1 : 0);
            }
            return bytes;
        }
    }
}
