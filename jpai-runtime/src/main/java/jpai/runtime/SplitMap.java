package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import jpai.Devices;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.Discovery;
import jpai.runtime.device.OpenCLDeviceInfo;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.DeviceReplicas;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchProfile;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * A map split over several devices ({@code f.on(Devices)}): each apply cuts the rows of the outermost
 * index (the elements, for a 1-D map) into one part per device, by shares that follow the parts'
 * measured times (a device slower than the others gives rows to the quicker ones: {@link #rebalanced}),
 * and runs the parts at once, one
 * thread per device. A part's device holds a copy of the input rows it maps and of every captured
 * array ({@link DeviceReplicas}), kept between applies and sent again only when the array changes or
 * the part moves; its results are copied into the host result at once, and the device keeps them as
 * its copy of that part, so that a split map applied next to the result finds it there.
 *
 * <p>The same kernel runs everywhere (compiled once; built per device), so results are the JVM's, as
 * on one device. A part whose kernel exits reports its lowest exiting element; Java then runs the
 * map from the lowest such element of all parts on, which gives the sequential loop's results and
 * exception. A part that cannot run (a driver error) makes the whole apply run in Java, as a
 * single-device failure does.
 *
 * <p>Not thread-safe for its speed record, which concurrent applies of one function may update in
 * any order: a split is only a guess, never a result.
 */
final class SplitMap {

    /** Threads that run the parts: one per part, made when needed, gone when idle. */
    private static final ExecutorService PARTS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "jpai-split-part");
        thread.setDaemon(true);
        return thread;
    });

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

    SplitMap(Devices devices) {
        this.devices = devices;
    }

    Devices devices() {
        return devices;
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
     * Runs the map of {@code compiled} over {@code input} into {@code output} in parts. Returns how
     * many elements, from the first, hold the kernel's (that is, Java's) results: all of them, or,
     * after a kernel exit, those before the lowest exiting element; 0 after saying why when the map
     * must run in Java.
     */
    <T, R> long run(KernelCache kernels, KernelCache.Compiled compiled, PArray<T> input, PArray<R> output, Supplier<String> operation) {
        String missing = JvmSetup.problem();
        if (missing != null) {
            Explain.notice(missing);
            Offload.fallBack(operation.get(), missing);
            return 0;
        }
        List<DeviceChoice.OpenCL> set;
        try {
            set = resolve();
        } catch (IllegalArgumentException e) { // DeviceSelectionException among them
            Offload.fallBack(operation.get(), e.getMessage());
            return 0;
        }
        int[] indexSpace = PArrayStorage.rangeExtents(input);
        long rows = DeviceMap.rows(input, indexSpace);
        long rowLength = DeviceMap.rowLength(indexSpace);
        long[] bounds = split(rows);
        List<ComponentBuffer> leased = new ArrayList<>();
        try {
            List<DeviceContext> contexts = new ArrayList<>();
            for (DeviceChoice.OpenCL device : set) {
                contexts.add(OpenCLRuntime.context(device));
            }
            // Every array the kernel uses, leased until the parts are done (a close meanwhile frees
            // nothing a part may still use), and the host copy made current: the parts read it.
            KernelBinding probe = DeviceMap.bindRows(contexts.get(0), compiled, input, output, indexSpace, 0, rows);
            for (ComponentBuffer buffer : probe.launch().boundBuffers()) {
                buffer.acquireLease();
                leased.add(buffer);
                if (!probe.launch().writes(buffer)) {
                    buffer.leasedForHostRead();
                }
            }
            List<ComponentBuffer> partInputs = new ArrayList<>();
            if (indexSpace == null) {
                for (int c = 0; c < input.componentCount(); c++) {
                    ComponentBuffer buffer = PArrayStorage.buffer(input, c);
                    if (!probe.capturedBuffers().contains(buffer)) { // a captured input is read anywhere: copied whole
                        partInputs.add(buffer);
                    }
                }
            }
            List<Future<Part>> running = new ArrayList<>();
            for (int d = 0; d < set.size(); d++) {
                if (bounds[d + 1] > bounds[d]) {
                    int device = d;
                    DeviceContext context = contexts.get(d);
                    running.add(PARTS.submit(() -> runPart(device, context, compiled, input, output, indexSpace, bounds[device], bounds[device + 1], rowLength, partInputs)));
                }
            }
            List<Part> parts = new ArrayList<>();
            OpenCLRuntimeException failed = null;
            for (Future<Part> part : running) {
                try {
                    parts.add(part.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof OpenCLRuntimeException openCL) {
                        failed = failed == null ? openCL : failed;
                    } else if (e.getCause() instanceof RuntimeException | e.getCause() instanceof Error) {
                        throw sneaky(e.getCause());
                    } else {
                        throw new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while a split map's parts ran", e);
                }
            }
            for (int c = 0; c < output.componentCount(); c++) {
                ComponentBuffer buffer = PArrayStorage.buffer(output, c);
                buffer.hostWritten();
                DeviceReplicas.of(buffer).partsWritten(buffer);
            }
            if (failed != null) {
                Offload.fallBack(operation.get(), failed.getMessage());
                return 0;
            }
            report(parts, set, rows, operation);
            long exited = input.length();
            KernelDeoptimizedException firstExit = null;
            for (Part part : parts) {
                if (part.exit() != null && part.javaFrom() < exited) {
                    exited = part.javaFrom();
                    firstExit = part.exit();
                }
            }
            if (firstExit != null) {
                long from = exited;
                KernelExits.handle(operation.get(), firstExit, "elements " + from + " to " + (input.length() - 1) + " re-ran in Java (the parts' results before element " + from
                                + " are Java's and were kept)", input.length() - from, kernels);
            }
            return exited;
        } finally {
            for (ComponentBuffer buffer : leased) {
                buffer.releaseLease();
            }
        }
    }

    /** What one part did: its device's position in the set, its elements, its time, and the element Java must run from after an exit (with the exit), else null. */
    private record Part(int device, long elements, long nanos, LaunchProfile profile, long sentBytes, long sendNanos, long copiedBackBytes, long copyBackNanos, long javaFrom,
                    KernelDeoptimizedException exit) {
    }

    private static Part runPart(int device, DeviceContext context, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, long firstRow,
                    long endRow, long rowLength, List<ComponentBuffer> partInputs) {
        long start = System.nanoTime();
        KernelBinding binding = DeviceMap.bindRows(context, compiled, input, output, indexSpace, firstRow, endRow);
        KernelLaunch launch = binding.launch();
        long firstElement = firstRow * rowLength;
        long endElement = endRow * rowLength;
        long sent = 0;
        long sendStart = System.nanoTime();
        for (ComponentBuffer buffer : launch.boundBuffers()) {
            long elementBytes = buffer.type().byteSize();
            DeviceReplicas replicas = DeviceReplicas.of(buffer);
            if (launch.writes(buffer)) {
                launch.place(buffer, replicas.forPartWrite(context, buffer, firstElement * elementBytes, endElement * elementBytes));
            } else {
                boolean part = partInputs.contains(buffer);
                sent += replicas.makeReadable(context, buffer, part ? firstElement * elementBytes : 0, part ? endElement * elementBytes : buffer.byteSize());
                launch.place(buffer, replicas.memory(context, buffer));
            }
        }
        long sendNanos = sent > 0 ? System.nanoTime() - sendStart : 0;
        LaunchResult result = context.launch(compiled.kernel(), launch);
        KernelDeoptimizedException exit = null;
        long javaFrom = endElement;
        try {
            KernelBinding.checkStatus(result, indexSpace);
        } catch (KernelDeoptimizedException e) {
            exit = e;
            javaFrom = e.kernelExited() ? Math.max(firstElement, e.element()) : firstElement;
        }
        long copiedBack = 0;
        long copyStart = System.nanoTime();
        for (ComponentBuffer buffer : launch.boundBuffers()) {
            if (launch.writes(buffer)) {
                long elementBytes = buffer.type().byteSize();
                copiedBack += DeviceReplicas.of(buffer).copyBack(context, buffer, firstElement * elementBytes, Math.min(endElement, Math.max(firstElement, javaFrom)) * elementBytes);
            }
        }
        long copyBackNanos = System.nanoTime() - copyStart;
        long nanos = System.nanoTime() - start;
        nanos += slowedDown(device, result.profile().kernelNanos());
        return new Part(device, endElement - firstElement, nanos, result.profile(), sent, sendNanos, copiedBack, copyBackNanos, exit == null ? Long.MAX_VALUE : javaFrom, exit);
    }

    /**
     * The test hook {@link #SLOWDOWN}: when the part on device {@code device} is to be slowed, waits
     * its factor less one times {@code kernelNanos} (its kernel then counts as that many times slower,
     * its fixed costs unchanged) and returns the wait; else 0.
     */
    private static long slowedDown(int device, long kernelNanos) {
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
    private synchronized long[] split(long rows) {
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
    private static final long BUILT_NANOS = 1_000_000;

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

    /** Records each part's pace (smoothed over applies), and tells the profile and explain how this apply was split. */
    private synchronized void report(List<Part> parts, List<DeviceChoice.OpenCL> set, long rows, Supplier<String> operation) {
        long kernel = 0;
        long toDevice = 0;
        long toDeviceBytes = 0;
        long toHost = 0;
        long toHostBytes = 0;
        StringBuilder split = new StringBuilder();
        long elements = 0;
        for (Part part : parts) {
            elements += part.elements();
        }
        double[] nanos = new double[shares.length];
        boolean built = false;
        for (Part part : parts) {
            built |= part.profile().buildNanos() > BUILT_NANOS;
            if (part.elements() > 0) {
                nanos[part.device()] = part.nanos();
            }
        }
        if (!built) { // a part that built its program (a device's first apply) says nothing of the device's pace
            shares = rebalanced(shares, nanos);
        }
        for (Part part : parts) {
            LaunchProfile profile = part.profile();
            // the parts run at once: the apply waits for the longest of each
            kernel = Math.max(kernel, profile.kernelNanos());
            toDevice = Math.max(toDevice, profile.hostToDeviceNanos() + part.sendNanos());
            toDeviceBytes += profile.hostToDeviceBytes() + part.sentBytes();
            toHost = Math.max(toHost, profile.deviceToHostNanos() + part.copyBackNanos());
            toHostBytes += profile.deviceToHostBytes() + part.copiedBackBytes();
            split.append(split.isEmpty() ? "" : " + ").append(String.format(Locale.ROOT, "%s [%d] %.0f %%", set.get(part.device()).device().name().strip(),
                            set.get(part.device()).device().globalIndex(), 100.0 * part.elements() / Math.max(1, elements)));
        }
        Profiler.device(split + " (split)");
        Profiler.hostToDevice(toDevice, toDeviceBytes, parts.size());
        Profiler.kernel(kernel, parts.size());
        Profiler.deviceToHost(toHost, toHostBytes, parts.size());
        Explain.split(() -> operation.get() + " split over " + parts.size() + " devices by their measured speed: " + split + " of its elements");
    }

    /** Rethrows an unchecked throwable as it is. */
    private static RuntimeException sneaky(Throwable t) {
        if (t instanceof Error error) {
            throw error;
        }
        return (RuntimeException) t;
    }
}
