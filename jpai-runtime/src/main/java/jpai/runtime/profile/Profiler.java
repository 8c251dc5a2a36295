package jpai.runtime.profile;

import java.util.concurrent.atomic.AtomicLong;

import jpai.ApplyProfile;
import jpai.runtime.JpaiOptions;

/**
 * Collects an {@link ApplyProfile} per {@code apply}, per thread. The API layer opens a collection
 * around each apply:
 *
 * <pre>{@code
 * Profiler.begin("map of " + description);
 * try {
 *     ... compile, launch or fall back ...
 * } finally {
 *     ApplyProfile profile = Profiler.end();   // also this thread's last profile
 * }
 * }</pre>
 *
 * and the runtime adds what it measures (compile phases, builds, transfers, kernels) to the
 * collection open on the calling thread, if any. Collections nest: the profile of an inner apply
 * (a composed function applying its stages) is also added to the outer one.
 *
 * <p>Copy-backs the host causes after an apply (the first read of a result that stayed on the
 * device) belong to no apply: they add to the process-wide {@link #lazyDeviceToHost()} counter.
 *
 * <p>With {@code -Djpai.profile=true} each ended profile is printed to standard error as one table
 * row (header before the first).
 *
 * <p>Thread-safe: collections are thread-confined; the lazy counter and the header flag are atomic.
 */
public final class Profiler {

    private static final java.util.concurrent.atomic.AtomicLong TIERED_APPLIES = new java.util.concurrent.atomic.AtomicLong();
    private static final java.util.concurrent.atomic.AtomicLong COST_ROUTED_APPLIES = new java.util.concurrent.atomic.AtomicLong();
    private static final ThreadLocal<Collector> OPEN = new ThreadLocal<>();
    private static final ThreadLocal<ApplyProfile> LAST = new ThreadLocal<>();
    /** A finished collection this thread opens again for its next apply, or null: one collector per apply would be garbage on every apply. */
    private static final ThreadLocal<Collector> SPARE = new ThreadLocal<>();
    private static final AtomicLong LAZY_NANOS = new AtomicLong();
    private static final AtomicLong LAZY_BYTES = new AtomicLong();
    private static final AtomicLong LAZY_COUNT = new AtomicLong();
    private static volatile boolean headerPrinted;

    /** Totals of the copy-backs made outside any apply, since the JVM started. */
    public record LazyTransfers(long nanos, long bytes, long count) {
    }

    private Profiler() {
    }

    /** Opens a collection on this thread for one apply of {@code operation}. */
    public static void begin(String operation) {
        Collector collector = SPARE.get();
        if (collector == null) {
            collector = new Collector();
        } else {
            SPARE.set(null); // an inner apply's collection, opened before this one ends, gets a new one
        }
        collector.open(operation, OPEN.get());
        OPEN.set(collector);
    }

    /**
     * Closes this thread's innermost collection and returns its profile, which becomes
     * {@link #last()}.
     *
     * @throws IllegalStateException if no collection is open on this thread
     */
    public static ApplyProfile end() {
        Collector collector = OPEN.get();
        if (collector == null) {
            throw new IllegalStateException("Profiler.end() without Profiler.begin() on this thread");
        }
        ApplyProfile profile = collector.finish(System.nanoTime());
        OPEN.set(collector.parent);
        if (collector.parent != null) {
            collector.parent.add(profile);
        }
        LAST.set(profile);
        collector.open(null, null); // forgets what it held
        SPARE.set(collector);
        if (JpaiOptions.profile()) {
            print(profile);
        }
        return profile;
    }

    /**
     * Runs {@code work} inside a collection of its own that is then dropped: for a part of an apply
     * run on another thread (a split function's part), whose caller takes what it needs from the
     * part's launch profile into its own collection. Without it the part's launch would report its
     * copies back as a host read after an apply ({@link #lazyDeviceToHost()}), counting them twice.
     */
    public static <V> V uncollected(java.util.concurrent.Callable<V> work) throws Exception {
        begin("a part of an apply on another thread");
        Collector collector = OPEN.get();
        try {
            return work.call();
        } finally {
            OPEN.set(collector.parent);
            collector.open(null, null);
            SPARE.set(collector);
        }
    }

    /** The profile of the last apply that ended on this thread, or null. */
    public static ApplyProfile last() {
        return LAST.get();
    }

    /** Whether a collection is open on this thread. */
    public static boolean isCollecting() {
        return OPEN.get() != null;
    }

    /** The copy-backs made outside any apply so far. */
    public static LazyTransfers lazyDeviceToHost() {
        return new LazyTransfers(LAZY_NANOS.get(), LAZY_BYTES.get(), LAZY_COUNT.get());
    }

    // ---------------------------------------------------------------------------------------------
    // What the runtime reports; each is ignored when no collection is open on the calling thread.

    /** The device (or "Java threads") the apply runs on. */
    public static void device(String device) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.device = device;
        }
    }

    public static void graal(long nanos) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.graal += nanos;
        }
    }

    public static void codeGeneration(long nanos) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.codeGeneration += nanos;
        }
    }

    /** A program built from source ({@code fromDiskCache} false) or loaded from the disk cache. */
    public static void driverBuild(long nanos, boolean fromDiskCache) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.driverBuild += nanos;
            if (fromDiskCache) {
                collector.diskCacheLoads++;
            } else {
                collector.driverBuilds++;
            }
        }
    }

    public static void hostToDevice(long nanos, long bytes, int count) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.hostToDevice += nanos;
            collector.hostToDeviceBytes += bytes;
            collector.hostToDeviceCount += count;
        }
    }

    public static void kernel(long nanos, int count) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.kernel += nanos;
            collector.kernelCount += count;
        }
    }

    /**
     * Data brought back to the host: part of the open apply, or, with none open (the host read a
     * result after its apply), added to the lazy counter.
     */
    public static void deviceToHost(long nanos, long bytes, int count) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.deviceToHost += nanos;
            collector.deviceToHostBytes += bytes;
            collector.deviceToHostCount += count;
        } else {
            LAZY_NANOS.addAndGet(nanos);
            LAZY_BYTES.addAndGet(bytes);
            LAZY_COUNT.addAndGet(count);
        }
    }

    /** The apply runs on Java threads instead, because of {@code reason}. */
    public static void fellBack(String reason) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.fallbackReason = reason;
            collector.device = "Java threads";
        }
    }

    /**
     * A launch of the open apply has no device times: it ran on a queue without profiling
     * ({@code jpai.deviceTimes=sampled}), or its events were late; the apply's device times leave it out.
     */
    public static void deviceTimesNotMeasured() {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.deviceTimed = false;
        }
    }

    public static void tiered() {
        TIERED_APPLIES.incrementAndGet();
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.tiered = true;
            collector.device = "Java threads (tiering)";
        }
    }

    /**
     * {@code AUTO}'s cost model chose where this apply runs ({@code choice}: the executor and why);
     * {@code onJava}: Java threads, which the test run's proof counts as it counts tiered applies.
     */
    public static void costChoice(String choice, boolean onJava) {
        if (onJava) {
            COST_ROUTED_APPLIES.incrementAndGet();
        }
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.costChoice = choice;
            if (onJava) {
                collector.device = "Java threads (cost model)";
            }
        }
    }

    /** How many applies of this process the cost model sent to Java threads. */
    public static long costRoutedApplies() {
        return COST_ROUTED_APPLIES.get();
    }

    /**
     * What the open apply has spent so far: on device work (kernels and transfers) and on
     * compilation (Graal, code generation, program builds), in nanoseconds; zeros when no apply is open.
     */
    public static Spent spent() {
        Collector collector = OPEN.get();
        if (collector == null) {
            return new Spent(0, 0);
        }
        return new Spent(collector.kernel + collector.hostToDevice + collector.deviceToHost, collector.graal + collector.codeGeneration + collector.driverBuild);
    }

    /** {@link #spent()}'s answer. */
    public record Spent(long deviceWorkNanos, long compilationNanos) {
    }

    /** How many applies of this process ran tiered (for the test run's proof that only the tiering tests did). */
    public static long tieredApplies() {
        return TIERED_APPLIES.get();
    }

    /** A kernel exited at an element that left the device's path; {@code failedSpeculation}: a speculation failed, not a Java exception path. */
    public static void kernelExit(boolean failedSpeculation) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.kernelExits++;
            if (failedSpeculation) {
                collector.failedSpeculations++;
            }
        }
    }

    /** A kernel was compiled again because a speculation of the one before failed. */
    public static void recompiled() {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.recompiles++;
        }
    }

    /** Java ran {@code elements} elements again after a kernel exit. */
    public static void reexecuted(long elements) {
        Collector collector = OPEN.get();
        if (collector != null) {
            collector.reexecutedElements += elements;
        }
    }

    private static void print(ApplyProfile profile) {
        synchronized (Profiler.class) {
            if (!headerPrinted) {
                headerPrinted = true;
                System.err.println("jpai profile: " + ApplyProfile.tableHeader());
            }
            System.err.println("jpai profile: " + profile.toTableRow());
        }
    }

    /**
     * One open collection; confined to its thread, and opened again by it for a later apply
     * ({@link #open}, which sets every field).
     */
    private static final class Collector {
        String operation;
        Collector parent;
        long start;
        String device;
        long graal;
        long codeGeneration;
        long driverBuild;
        int driverBuilds;
        int diskCacheLoads;
        long hostToDevice;
        long hostToDeviceBytes;
        int hostToDeviceCount;
        long kernel;
        int kernelCount;
        long deviceToHost;
        long deviceToHostBytes;
        int deviceToHostCount;
        String fallbackReason;
        int kernelExits;
        int failedSpeculations;
        int recompiles;
        long reexecutedElements;
        boolean tiered;
        /** Whether every launch of the apply measured its device times ({@code jpai.deviceTimes=sampled} leaves some unmeasured). */
        boolean deviceTimed = true;
        String costChoice;

        /** Starts a collection of {@code operation}, nested in {@code parent} (or null): every field as new. */
        void open(String operation, Collector parent) {
            this.operation = operation;
            this.parent = parent;
            start = System.nanoTime();
            device = "Java threads";
            graal = 0;
            codeGeneration = 0;
            driverBuild = 0;
            driverBuilds = 0;
            diskCacheLoads = 0;
            hostToDevice = 0;
            hostToDeviceBytes = 0;
            hostToDeviceCount = 0;
            kernel = 0;
            kernelCount = 0;
            deviceToHost = 0;
            deviceToHostBytes = 0;
            deviceToHostCount = 0;
            fallbackReason = null;
            kernelExits = 0;
            failedSpeculations = 0;
            recompiles = 0;
            reexecutedElements = 0;
            tiered = false;
            deviceTimed = true;
            costChoice = null;
        }

        ApplyProfile finish(long now) {
            return new ApplyProfile(operation, device, now - start, graal, codeGeneration, driverBuild, driverBuilds, diskCacheLoads,
                    hostToDevice, hostToDeviceBytes, hostToDeviceCount, kernel, kernelCount, deviceToHost, deviceToHostBytes,
                    deviceToHostCount, fallbackReason != null, fallbackReason, kernelExits, failedSpeculations, recompiles, reexecutedElements, tiered, costChoice,
                    deviceTimed);
        }

        /** An inner apply's share, added to this outer one (its wall time is already inside ours). */
        void add(ApplyProfile inner) {
            graal += inner.graalNanos();
            codeGeneration += inner.codeGenerationNanos();
            driverBuild += inner.driverBuildNanos();
            driverBuilds += inner.driverBuilds();
            diskCacheLoads += inner.diskCacheLoads();
            hostToDevice += inner.hostToDeviceNanos();
            hostToDeviceBytes += inner.hostToDeviceBytes();
            hostToDeviceCount += inner.hostToDeviceCount();
            kernel += inner.kernelNanos();
            kernelCount += inner.kernelCount();
            deviceToHost += inner.deviceToHostNanos();
            deviceToHostBytes += inner.deviceToHostBytes();
            deviceToHostCount += inner.deviceToHostCount();
            kernelExits += inner.kernelExits();
            failedSpeculations += inner.failedSpeculations();
            recompiles += inner.recompiles();
            reexecutedElements += inner.reexecutedElements();
            tiered |= inner.tiered();
            deviceTimed &= inner.deviceTimed();
            if (costChoice == null) {
                costChoice = inner.costChoice();
            }
            if (inner.fellBack() && fallbackReason == null) {
                fallbackReason = inner.fallbackReason();
            }
            if (!inner.fellBack()) {
                device = inner.device();
            }
        }
    }
}
