package jpai.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import jpai.AF;
import jpai.PArray;
import jpai.ApplyProfile;
import jpai.runtime.profile.Profiler;

/**
 * A JPAI version: inputs already in PArrays (where a JPAI user keeps data, prepared before timing),
 * {@code ArrayFunction}s built once by the program, and per call: a body that applies them and
 * returns the result PArrays, then the read of those results into the version's Java output arrays
 * (results stay on the device until the host reads them, so the read is where the device→host copy
 * happens; it is inside the timed call, as every other version's copy-back is). Where it ran is
 * decided and reported by the {@link Harness}.
 *
 * <p>Each call also collects JPAI's own profile ({@link AF#lastProfile()} of each apply, plus the
 * device→host copies the read caused, from {@link Profiler#lazyDeviceToHost()} deltas), which
 * {@link JpaiProfiler#current()} hands to the harness.
 */
final class JpaiRun implements Run {

    /** The profiles of the applies of the call in progress on this thread (see {@link #profiled()}). */
    private static final ThreadLocal<List<ApplyProfile>> APPLIES = ThreadLocal.withInitial(ArrayList::new);
    /** The split of the last call on this thread, for {@link JpaiProfiler#current()}. */
    private static final ThreadLocal<Map<String, Long>> LAST_SPLIT = new ThreadLocal<>();

    private final List<? extends PArray<?>> inputs;
    private final Supplier<List<PArray<?>>> body;
    private final Consumer<List<PArray<?>>> readBack;
    private final Supplier<Output> output;
    private final String note;
    private List<PArray<?>> last = List.of();

    /**
     * @param inputs   closed with the run
     * @param body     one call: applies the functions (built once, outside) and returns the results,
     *                 which the run owns; a body with several applies calls {@link #profiled()} after
     *                 each but the last
     * @param readBack copies the results into the version's output arrays (untimed: the timed part ends
     *            when the results are in their PArrays' host memory)
     * @param output   the output arrays as an {@link Output} (not timed)
     * @param note     what the report should know about how this version is written, or null
     */
    JpaiRun(List<? extends PArray<?>> inputs, Supplier<List<PArray<?>>> body, Consumer<List<PArray<?>>> readBack, Supplier<Output> output, String note) {
        this.inputs = inputs;
        this.body = body;
        this.readBack = readBack;
        this.output = output;
        this.note = note;
    }

    /**
     * Keeps the profile of the apply just made, for a body that applies more than one function (the
     * next apply replaces {@link AF#lastProfile()}).
     */
    /** The devices the suite's JPAI versions split their maps over ({@link SplitScaling}), or null for one device. */
    private static volatile jpai.Devices splitOver;

    /** Makes the JPAI versions created from now on split their maps over {@code devices} (null: one device). */
    static void splitOver(jpai.Devices devices) {
        splitOver = devices;
    }

    /** {@code f}, split over the devices {@link #splitOver(jpai.Devices)} named, as a JPAI user would write {@code f.on(devices)}. */
    static <T, R> jpai.ArrayFunction<T, R> placed(jpai.ArrayFunction<T, R> f) {
        jpai.Devices devices = splitOver;
        return devices == null ? f : f.on(devices);
    }

    static void profiled() {
        ApplyProfile profile = AF.lastProfile();
        List<ApplyProfile> applies = APPLIES.get();
        if (profile != null && (applies.isEmpty() || applies.get(applies.size() - 1) != profile)) {
            applies.add(profile);
        }
    }

    @Override
    public long run() {
        List<ApplyProfile> applies = APPLIES.get();
        applies.clear();
        ApplyProfile before = AF.lastProfile();
        Profiler.LazyTransfers lazyBefore = Profiler.lazyDeviceToHost();
        long start = System.nanoTime();
        last = body.get();
        if (AF.lastProfile() != before) {
            profiled();
        }
        long readStart = System.nanoTime();
        // Timed: the results reach the host memory of their PArrays (a lazy copy-back), which is where
        // the hand-written version's results end up too (its pinned buffers). Copying them on into the
        // version's Java arrays is bookkeeping for validation, done untimed by output().
        for (PArray<?> result : last) {
            if (result.length() > 0) {
                result.get(0);
            }
        }
        long end = System.nanoTime();
        Profiler.LazyTransfers lazyAfter = Profiler.lazyDeviceToHost();

        long graal = 0, codegen = 0, build = 0, h2d = 0, kernel = 0, d2h = 0, h2dBytes = 0, d2hBytes = 0;
        boolean onDevice = !applies.isEmpty();
        for (ApplyProfile p : applies) {
            graal += p.graalNanos();
            codegen += p.codeGenerationNanos();
            build += p.driverBuildNanos();
            h2d += p.hostToDeviceNanos();
            kernel += p.kernelNanos();
            d2h += p.deviceToHostNanos();
            h2dBytes += p.hostToDeviceBytes();
            d2hBytes += p.deviceToHostBytes();
            onDevice &= !p.fellBack() && p.kernelCount() > 0;
        }
        // A result not read ahead is copied back at the host read after the apply, outside any apply's
        // profile; the runtime counts it in Profiler.lazyDeviceToHost() (device event time and bytes).
        // (A tiered apply launches no kernel, so such a call never counts as on the device.)
        d2h += lazyAfter.nanos() - lazyBefore.nanos();
        d2hBytes += lazyAfter.bytes() - lazyBefore.bytes();
        long wall = end - start;
        Map<String, Long> split = new LinkedHashMap<>();
        split.put("graal", graal);
        split.put("codegen", codegen);
        split.put("driver-build", build);
        split.put("h2d", h2d);
        split.put("kernel", kernel);
        split.put("d2h", d2h);
        split.put("read", end - readStart);
        split.put("rest", Math.max(0, wall - graal - codegen - build - h2d - kernel - d2h));
        split.put("h2d-bytes", h2dBytes);
        split.put("d2h-bytes", d2hBytes);
        LAST_SPLIT.set(applies.isEmpty() ? null : split);
        return onDevice ? kernel : NO_KERNEL_TIME;
    }

    /** The split of the last call on this thread, or null. */
    static Map<String, Long> lastSplit() {
        return LAST_SPLIT.get();
    }

    @Override
    public Output output() {
        readBack.accept(last);
        return output.get();
    }

    @Override
    public String ranOn() {
        return JpaiExecution.where();
    }

    @Override
    public String note() {
        return note;
    }

    @Override
    public void discard() {
        last.forEach(PArray::close);
        last = List.of();
    }

    @Override
    public void close() {
        discard();
        inputs.forEach(PArray::close);
    }

    /** 0, 1, ..., n-1: the input of a map over indices (a range: the device reads no index buffer). */
    static PArray<Integer> indices(int n) {
        return PArray.range(n);
    }

    /** Copies component {@code index} of {@code result} (a scalar array: 0) into {@code target}. */
    static void copy(PArray<?> result, int index, Object target) {
        if (result.isTuples()) {
            result.component(index).copyTo(0, target);
        } else {
            result.copyTo(0, target);
        }
    }
}
