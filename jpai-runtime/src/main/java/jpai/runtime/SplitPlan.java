package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jpai.Devices;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.Discovery;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.profile.Profiler;

/**
 * How a function split over several devices ({@code on(Devices)}) cuts each apply: the devices of
 * the set (found at the first apply), each device's share of the work, and the bounds of the last
 * cut. The shares follow the parts' measured times ({@link #rebalanced}); a new cut that moves its
 * bounds only a little keeps the old one, so that parts stay where their data is. Used by
 * {@link SplitMap} (rows) and {@link SplitReduce} (aligned blocks of the combining tree).
 *
 * <p>Thread-safe; concurrent applies of one function may record their times in any order: a cut is
 * only a guess, never a result.
 */
final class SplitPlan {

    /**
     * Test hook (documented in docs/java-semantics.md, "Several devices"): {@code -Djpai.test.splitSlowdown=K:F}
     * makes the part on the set's device {@code K} wait after its kernel for {@code F - 1} times the
     * kernel's time (a device whose kernels take {@code F} times as long, its fixed costs unchanged),
     * so that tests see the split follow a slower device on a host whose devices are alike.
     */
    static final String SLOWDOWN = "jpai.test.splitSlowdown";

    private final Devices devices;
    /** The devices resolved at the first apply (and again when that failed). */
    private List<DeviceChoice.OpenCL> resolved;
    /** Per device of the set: its share of the rows (they sum to 1), equal before the first apply. */
    private double[] shares;
    /** The last apply's bounds and its row count: kept while the speeds move them by less than {@link #KEEP_SPLIT}. */
    private long[] lastBounds;
    private long lastRows = -1;
    /**
     * A new split moves no bound by less than this share of the rows: a part that stays put keeps its
     * data on its device, and the measured speeds jitter by a percent or two from apply to apply.
     */
    private static final double KEEP_SPLIT = 0.02;

    /**
     * A split whose parts' device work (their kernels and transfers, summed) stayed below this runs
     * its next applies on one device, the one with the largest share, until that device's work
     * exceeds twice as much: every part beyond the first costs the host a thread, a launch and a wait
     * (about 0.05-0.1 ms on 4 H200s), more than kernels of tens of microseconds gain from being cut
     * (Monte Carlo's, 2^24 samples over 4 GPUs: 0.36 ms split, 0.21 ms on one). The results are the
     * same either way (the same kernel everywhere). {@code -Djpai.split.minWorkMicros=N} (0: always
     * split), read at each decision.
     */
    static final String MIN_WORK = "jpai.split.minWorkMicros";

    private static long minWorkNanos() {
        return Long.getLong(MIN_WORK, 200) * 1_000;
    }

    /** The device of the set running whole applies alone (their parts were too short), or -1. */
    private int alone = -1;

    SplitPlan(Devices devices) {
        this.devices = devices;
    }

    Devices devices() {
        return devices;
    }

    /**
     * The devices of the set, or null after saying why the operation runs in Java instead (a JVM
     * set-up problem, a set that cannot be met).
     */
    List<DeviceChoice.OpenCL> devicesOrFallBack(java.util.function.Supplier<String> operation) {
        String missing = JvmSetup.problem();
        if (missing != null) {
            Explain.notice(missing);
            Offload.fallBack(operation.get(), missing);
            return null;
        }
        try {
            return resolve();
        } catch (IllegalArgumentException e) { // DeviceSelectionException among them
            Offload.fallBack(operation.get(), e.getMessage());
            return null;
        }
    }

    /**
     * The buffers of {@code input} that a part reads only in its own range: all of its components but
     * those the kernel ({@code probe}'s binding) also reads as a captured array, anywhere, which every
     * device then holds whole.
     */
    static List<jpai.runtime.memory.ComponentBuffer> partInputs(jpai.PArray<?> input, KernelBinding probe) {
        List<jpai.runtime.memory.ComponentBuffer> parts = new ArrayList<>();
        for (int c = 0; c < input.componentCount(); c++) {
            jpai.runtime.memory.ComponentBuffer buffer = jpai.runtime.memory.PArrayStorage.buffer(input, c);
            if (!probe.capturedBuffers().contains(buffer)) {
                parts.add(buffer);
            }
        }
        return parts;
    }

    /**
     * Leases every array {@code launch} reads (adding it to {@code leased}, which the caller releases
     * when the parts are done: a close meanwhile frees nothing a part may still use) and makes its
     * host copy current, which the parts' devices are sent from.
     */
    static void leaseReadArrays(jpai.runtime.opencl.KernelLaunch launch, List<jpai.runtime.memory.ComponentBuffer> leased) {
        for (jpai.runtime.memory.ComponentBuffer buffer : launch.boundBuffers()) {
            if (!launch.writes(buffer)) {
                buffer.acquireLease();
                leased.add(buffer);
                buffer.leasedForHostRead();
            }
        }
    }

    /** What placing a part's arrays on its device sent ({@link #place}). */
    record Sent(long bytes, long nanos) {
    }

    /**
     * Places every array {@code launch} binds on {@code context}, in the arrays' {@link
     * jpai.runtime.opencl.DeviceReplicas}: one the kernel writes as the copy it writes elements
     * {@code [writeFrom, writeTo)} of, which the launch then copies back into the array's host memory
     * within its one wait ({@code KernelLaunch.copyPlacedBack}); one of {@code partInputs} as a copy
     * current for elements {@code [readFrom, readTo)}; any other (a captured array) as a copy current
     * in full. Sends what the copies lack, blocking.
     */
    static Sent place(jpai.runtime.opencl.KernelLaunch launch, jpai.runtime.opencl.DeviceContext context, List<jpai.runtime.memory.ComponentBuffer> partInputs,
                    long readFrom, long readTo, long writeFrom, long writeTo) {
        long start = System.nanoTime();
        long sent = 0;
        launch.measureDeviceTimes(); // the shares and the minimum split work follow each part's device times
        for (jpai.runtime.memory.ComponentBuffer buffer : launch.boundBuffers()) {
            long elementBytes = buffer.type().byteSize();
            jpai.runtime.opencl.DeviceReplicas replicas = jpai.runtime.opencl.DeviceReplicas.of(buffer);
            if (launch.writes(buffer)) {
                launch.place(buffer, replicas.forPartWrite(context, buffer, writeFrom * elementBytes, writeTo * elementBytes));
                launch.copyPlacedBack(buffer, writeFrom * elementBytes, writeTo * elementBytes);
            } else {
                boolean part = partInputs.contains(buffer);
                sent += replicas.makeReadable(context, buffer, part ? readFrom * elementBytes : 0, part ? readTo * elementBytes : buffer.byteSize());
                launch.place(buffer, replicas.memory(context, buffer));
            }
        }
        return new Sent(sent, sent > 0 ? System.nanoTime() - start : 0);
    }

    /** What every part of a split apply reports: its device's position in the set, its elements, its time and its launch's profile. */
    interface PartReport {
        int device();

        long elements();

        long nanos();

        jpai.runtime.opencl.LaunchProfile profile();

        /** What the caller placed on the part's device for it ({@link #place}). */
        Sent sent();
    }

    /**
     * Records the parts' times (unless one built its program: a device's first apply says nothing of
     * its pace), and tells the profile's device and explain how the apply was cut: each device with
     * its flat index, its share of the elements and its kernel's time ({@code NVIDIA H200 [1] 50 %
     * 0.712 ms + ...}), from which the split's imbalance can be read; and adds the parts' kernels
     * and transfers to the profile (the longest part's times, every part's bytes).
     */
    void report(List<? extends PartReport> parts, java.util.function.Supplier<String> operation) {
        List<DeviceChoice.OpenCL> set = resolve();
        double[] nanos = new double[set.size()];
        boolean built = false;
        long elements = 0;
        for (PartReport part : parts) {
            built |= part.profile().buildNanos() > BUILT_NANOS;
            nanos[part.device()] = part.nanos();
            elements += part.elements();
        }
        record(nanos, built);
        long work = 0;
        for (PartReport part : parts) {
            jpai.runtime.opencl.LaunchProfile profile = part.profile();
            work += profile.kernelNanos() + profile.hostToDeviceNanos() + profile.deviceToHostNanos();
        }
        String alone = built ? null : decideAlone(parts.size(), work);
        if (alone != null) {
            Explain.split(() -> operation.get() + ": " + alone);
        }
        StringBuilder split = new StringBuilder();
        for (PartReport part : parts) {
            DeviceChoice.OpenCL device = set.get(part.device());
            split.append(split.isEmpty() ? "" : " + ").append(String.format(java.util.Locale.ROOT, "%s [%d] %.0f %% %.3f ms", device.device().name().strip(),
                            device.device().globalIndex(), 100.0 * part.elements() / Math.max(1, elements), part.profile().kernelNanos() / 1e6));
        }
        Profiler.device(split + " (split)");
        Explain.split(() -> operation.get() + " split over " + parts.size() + " devices by their measured speed: " + split + " of its elements");
        long kernel = 0;
        long toDevice = 0;
        long toDeviceBytes = 0;
        long toHost = 0;
        long toHostBytes = 0;
        for (PartReport part : parts) {
            jpai.runtime.opencl.LaunchProfile profile = part.profile();
            // the parts run at once: the apply waits for the longest of each
            kernel = Math.max(kernel, profile.kernelNanos());
            toDevice = Math.max(toDevice, profile.hostToDeviceNanos() + part.sent().nanos());
            toDeviceBytes += profile.hostToDeviceBytes() + part.sent().bytes();
            toHost = Math.max(toHost, profile.deviceToHostNanos()); // written rows or a reduction's nodes, copied back within the launch
            toHostBytes += profile.deviceToHostBytes();
        }
        Profiler.hostToDevice(toDevice, toDeviceBytes, parts.size());
        Profiler.kernel(kernel, parts.size());
        Profiler.deviceToHost(toHost, toHostBytes, parts.size());
    }

    /** Threads that run the parts of split applies, one per part: made when needed, gone when idle. */
    private static final java.util.concurrent.ExecutorService PARTS = java.util.concurrent.Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "jpai-split-part");
        thread.setDaemon(true);
        return thread;
    });

    /** What the parts of one apply gave, in the order they were given, and the first driver failure of any (the whole apply then runs in Java). */
    record Parts<P>(List<P> done, jpai.runtime.opencl.OpenCLRuntimeException failed) {
    }

    /**
     * Runs the parts of one apply at once: every part but the first on a thread of its own, the
     * first on the calling thread, which would only wait otherwise (one thread handoff fewer per
     * apply). Each runs inside a profile collection of its own, then dropped ({@link
     * Profiler#uncollected}): the caller reports what the parts' launches measured. Returns when
     * every part has ended, whatever any threw (the caller's leases must outlive them); rethrows
     * what a part threw other than a driver failure.
     */
    static <P> Parts<P> runAll(List<java.util.concurrent.Callable<P>> parts) {
        List<java.util.concurrent.Future<P>> running = new ArrayList<>();
        for (int p = 1; p < parts.size(); p++) {
            java.util.concurrent.Callable<P> part = parts.get(p);
            running.add(PARTS.submit(() -> Profiler.uncollected(part)));
        }
        if (!parts.isEmpty()) { // what the first part gives or throws is awaited with the others, in order
            java.util.concurrent.CompletableFuture<P> first;
            try {
                first = java.util.concurrent.CompletableFuture.completedFuture(Profiler.uncollected(parts.get(0)));
            } catch (Throwable e) {
                first = java.util.concurrent.CompletableFuture.failedFuture(e);
            }
            running.add(0, first);
        }
        List<P> done = new ArrayList<>();
        jpai.runtime.opencl.OpenCLRuntimeException failed = null;
        RuntimeException thrown = null;
        Error error = null;
        boolean interrupted = false;
        for (java.util.concurrent.Future<P> part : running) {
            while (true) {
                try {
                    done.add(part.get());
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof jpai.runtime.opencl.OpenCLRuntimeException openCL) {
                        failed = failed == null ? openCL : failed;
                    } else if (cause instanceof RuntimeException runtime) {
                        thrown = thrown == null ? runtime : thrown;
                    } else if (cause instanceof Error e2) {
                        error = error == null ? e2 : error;
                    } else {
                        thrown = thrown == null ? new IllegalStateException(cause) : thrown;
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the part still uses leased memory: wait for it all the same
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (error != null) {
            throw error;
        }
        if (thrown != null) {
            throw thrown;
        }
        return new Parts<>(done, failed);
    }

    /** The devices of the set, or throws IllegalArgumentException saying why they are not all there. */
    private synchronized List<DeviceChoice.OpenCL> resolve() {
        if (resolved != null) {
            return resolved;
        }
        Discovery discovery = OpenCLPlatforms.discover();
        List<DeviceChoice.OpenCL> found = new ArrayList<>();
        if (devices.isAllGpus()) {
            for (OpenCLDeviceInfo device : discovery.devices()) {
                if (device.kind() == DeviceKind.GPU) {
                    found.add(new DeviceChoice.OpenCL(device, "every GPU"));
                }
            }
            if (found.isEmpty()) {
                throw new IllegalArgumentException("Devices.allGpus(): no OpenCL GPU is listed" + (discovery.isEmpty() ? " (" + discovery.reason() + ")" : ""));
            }
        } else {
            for (String spec : devices.specs()) {
                DeviceChoice choice = DeviceSelector.select(spec, discovery);
                if (!(choice instanceof DeviceChoice.OpenCL device)) {
                    throw new IllegalArgumentException("Devices.of: \"" + spec + "\" names no OpenCL device (" + choice.describe() + ")");
                }
                for (DeviceChoice.OpenCL other : found) {
                    if (other.device().globalIndex() == device.device().globalIndex()) {
                        throw new IllegalArgumentException("Devices.of: \"" + spec + "\" names " + device.device().name() + " [" + device.device().globalIndex()
                                        + "] a second time; a device takes one part");
                    }
                }
                found.add(device);
            }
        }
        resolved = List.copyOf(found);
        shares = new double[resolved.size()];
        java.util.Arrays.fill(shares, 1.0 / shares.length);
        return resolved;
    }

    /**
     * The test hook {@link #SLOWDOWN}: when the part on device {@code device} is to be slowed, waits
     * its factor less one times {@code kernelNanos} (its kernel then counts as that many times slower,
     * its fixed costs unchanged) and returns the wait; else 0.
     */
    static long slowedDown(int device, long kernelNanos) {
        String hook = System.getProperty(SLOWDOWN);
        if (hook == null) {
            return 0;
        }
        String[] parts = hook.split(":");
        if (parts.length != 2 || Integer.parseInt(parts[0].strip()) != device) {
            return 0;
        }
        long extra = (long) (kernelNanos * (Double.parseDouble(parts[1].strip()) - 1));
        if (extra <= 0) {
            return 0;
        }
        long start = System.nanoTime();
        java.util.concurrent.locks.LockSupport.parkNanos(extra);
        return System.nanoTime() - start;
    }

    /**
     * The rows' bounds of each device's part ({@code bounds[d]} to {@code bounds[d + 1]}): in
     * proportion to the devices' speeds, equal before any is measured; a device not measured yet
     * counts as fast as the mean of those that are.
     */
    synchronized long[] split(long rows) {
        if (alone >= 0) {
            long[] bounds = new long[shares.length + 1];
            for (int d = alone + 1; d < bounds.length; d++) {
                bounds[d] = rows;
            }
            lastBounds = bounds;
            lastRows = rows;
            return bounds;
        }
        long[] bounds = boundsOf(rows, shares);
        int count = shares.length;
        boolean moved = lastBounds == null || lastRows != rows;
        for (int d = 0; d < count && !moved; d++) {
            long part = lastBounds[d + 1] - lastBounds[d];
            long next = bounds[d + 1] - bounds[d];
            // a small part moves as soon as it would grow or shrink by a quarter: else one drained by a
            // cold start would wait for a change of 2 % of all the rows to come back
            moved = Math.abs(bounds[d + 1] - lastBounds[d + 1]) > KEEP_SPLIT * rows || Math.abs(next - part) > part / 4 + 1;
        }
        if (!moved) {
            return lastBounds;
        }
        lastBounds = bounds;
        lastRows = rows;
        return bounds;
    }

    /** The bounds of {@code rows} cut by {@code shares} (summing to 1): whole rows, every row once, in order. */
    static long[] boundsOf(long rows, double[] shares) {
        int count = shares.length;
        double total = 0;
        for (double share : shares) {
            total += share;
        }
        long[] bounds = new long[count + 1];
        double cumulative = 0;
        for (int d = 0; d < count; d++) {
            cumulative += shares[d];
            bounds[d + 1] = d == count - 1 ? rows : Math.min(rows, Math.round(rows * cumulative / total));
        }
        return bounds;
    }

    /**
     * A launch's program time above this was a build or a load from the disk cache (a device's first
     * apply); below, a lookup in the program cache (microseconds).
     */
    static final long BUILT_NANOS = 1_000_000;

    /** No device's share falls below this: a device given nothing would never be measured again. */
    static final double SMALLEST_SHARE = 0.01;

    /**
     * The next shares after parts with these shares took these times (a part given no rows: time
     * 0, its share kept): each share is scaled by the square root of the mean time over its own time,
     * then all are normalised. A device that took longer than the others gives rows to those that
     * were quicker, half the way in log terms (so that noise does not swing the split); devices
     * whose time does not depend on their rows (a kernel whose few work-items leave the device idle
     * and wait on their own loops) keep their shares, where a rule by time per element would drain
     * the smaller part a little more on every apply. With parts of times proportional to rows, the
     * shares converge to the devices' speeds.
     */
    static double[] rebalanced(double[] shares, double[] nanos) {
        double sum = 0;
        int timed = 0;
        for (double t : nanos) {
            if (t > 0) {
                sum += t;
                timed++;
            }
        }
        double[] next = shares.clone();
        if (timed < 2) {
            return next;
        }
        double mean = sum / timed;
        double total = 0;
        for (int d = 0; d < next.length; d++) {
            if (nanos[d] > 0) {
                next[d] *= Math.sqrt(mean / nanos[d]);
            }
            total += next[d];
        }
        for (int d = 0; d < next.length; d++) {
            next[d] = Math.max(SMALLEST_SHARE, next[d] / total);
        }
        double clamped = 0;
        for (double share : next) {
            clamped += share;
        }
        for (int d = 0; d < next.length; d++) {
            next[d] /= clamped;
        }
        return next;
    }

    /**
     * After an apply of {@code parts} parts whose device work summed to {@code work}: whether the
     * next applies run on one device ({@link #MIN_WORK}); returns what changed, in words, or null.
     */
    synchronized String decideAlone(int parts, long work) {
        long minimum = minWorkNanos();
        if (alone < 0 && parts > 1 && work < minimum) {
            int largest = 0;
            for (int d = 1; d < shares.length; d++) {
                largest = shares[d] > shares[largest] ? d : largest;
            }
            alone = largest;
            return String.format(java.util.Locale.ROOT, "its %d parts did %.0f µs of device work together, less than the %.0f µs a split pays from: its next applies run on one device, [%d] of the set",
                            parts, work / 1e3, minimum / 1e3, largest);
        }
        if (alone >= 0 && work > 2 * minimum) {
            alone = -1;
            return String.format(java.util.Locale.ROOT, "one device did %.0f µs of device work, more than twice the %.0f µs a split pays from: its next applies are split again", work / 1e3,
                            minimum / 1e3);
        }
        return null;
    }

    /** Records an apply's part times (0 for a device given nothing), unless a part built its program. */
    private synchronized void record(double[] nanos, boolean built) {
        if (!built) {
            shares = rebalanced(shares, nanos);
        }
    }
}
