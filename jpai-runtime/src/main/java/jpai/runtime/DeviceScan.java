package jpai.runtime;

import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.PArray;
import jpai.ocl.ClearKernel;
import jpai.ocl.KernelSource;
import jpai.ocl.ScanKernelSpec;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * Runs a scan on a device in JPAI's scan order (docs/java-semantics.md, "Scans"): in one pass
 * ({@link #runSinglePass}, where the device has 64-bit atomics) or as reduce, then scan, every pass
 * on the device. Level 0 is the input in leaves of {@link CombiningTree#LEAF}; the
 * reduction's passes ({@link DeviceReduce}'s kernel) give each work-group's value, the elements of
 * level 1, and so on until a level fits one work-group. Then the scan kernel runs each level from
 * the top down: the top's one group from the identity, each level's outputs (exclusive) the carries
 * into the groups of the level below, level 0's outputs the result. All passes are enqueued before
 * the host waits, once. The input is read twice (by the first reduce pass and by level 0's scan) and
 * the output written once: at best two thirds of a copy's bandwidth (docs/backend.md).
 */
final class DeviceScan {

    /** A power of two: each group's value must be a node of the tree. */
    private static final long WORK_GROUP = 256;

    /** The single pass's work-group size, a power of two. */
    private static final long SINGLE_PASS_WORK_GROUP = 512;

    /** Local memory left to the OpenCL compiler besides the scan's own scratch. */
    private static final long LOCAL_MEMORY_RESERVE = 1024;

    private DeviceScan() {
    }

    /** Slots of local memory per work-item and component at a level of {@code leafWidth}: its padded tile and its tree slot. */
    static long localSlotsPerWorkItem(long leafWidth) {
        return leafWidth + 2;
    }

    /**
     * @param totals the operator's reduce kernel over the element type (the groups' values)
     * @param scan the operator's scan kernel
     */
    static <T> void run(DeviceChoice.OpenCL device, KernelCache.Compiled totals, KernelCache.Compiled scan, T identity, DataType type, PArray<?> input, PArray<?> output,
                    boolean exclusive) {
        run(device, totals, scan, totals, scan, identity, type, input, output, exclusive);
    }

    /**
     * As above, level 0 (the input's elements) with its own kernels: {@code firstTotals} and
     * {@code firstScan} map each input element first (maps fused in front of the scan), the levels
     * above scan the groups' values with {@code totals} and {@code scan}.
     */
    static <T> void run(DeviceChoice.OpenCL device, KernelCache.Compiled firstTotals, KernelCache.Compiled firstScan, KernelCache.Compiled totals, KernelCache.Compiled scan, T identity,
                    DataType type, PArray<?> input, PArray<?> output, boolean exclusive) {
        long length = input.length();
        if (length == 0) {
            return;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = localSize(context, type, false);
        List<PArray<?>> owned = new ArrayList<>();
        List<KernelSource> sources = new ArrayList<>();
        List<KernelLaunch> launches = new ArrayList<>();
        try {
            // The levels' elements, bottom up: level 0 is the input, level k + 1 the groups' values of level k.
            List<PArray<?>> levels = new ArrayList<>();
            List<Long> widths = new ArrayList<>();
            levels.add(input);
            widths.add((long) CombiningTree.LEAF);
            while (groups(levels.get(levels.size() - 1).length(), widths.get(widths.size() - 1), localSize) > 1) {
                PArray<?> elements = levels.get(levels.size() - 1);
                long width = widths.get(widths.size() - 1);
                long groups = groups(elements.length(), width, localSize);
                PArray<?> values = PArray.allocateUninitialized(type, groups);
                owned.add(values);
                KernelCache.Compiled levelTotals = levels.size() == 1 ? firstTotals : totals;
                KernelBinding binding = new KernelBinding(levelTotals).common(elements).reduction(identity, values, localSize, width);
                binding.launch().localSize(localSize).globalSize(groups * localSize);
                sources.add(levelTotals.kernel());
                launches.add(binding.launch());
                levels.add(values);
                widths.add(1L);
            }
            // The top level's one group starts from the identity.
            PArray<?> carries = PArray.allocateUninitialized(type, 1);
            owned.add(carries);
            @SuppressWarnings("unchecked")
            PArray<Object> top = (PArray<Object>) carries;
            top.put(0, identity);
            for (int level = levels.size() - 1; level >= 0; level--) {
                PArray<?> elements = levels.get(level);
                long width = widths.get(level);
                PArray<?> outputs = level == 0 ? output : PArray.allocateUninitialized(type, elements.length());
                if (level > 0) {
                    owned.add(outputs);
                }
                long groups = groups(elements.length(), width, localSize);
                KernelCache.Compiled levelScan = level == 0 ? firstScan : scan;
                KernelBinding binding = new KernelBinding(levelScan).common(elements).scanLevel(identity, carries, outputs, localSize, width, level > 0 || exclusive);
                binding.launch().localSize(localSize).globalSize(groups * localSize);
                sources.add(levelScan.kernel());
                launches.add(binding.launch());
                carries = outputs;
            }
            for (LaunchResult result : context.launchSequence(sources, launches)) {
                KernelBinding.checkStatus(result);
            }
        } finally {
            for (int i = owned.size() - 1; i >= 0; i--) {
                owned.get(i).close();
            }
        }
    }

    /**
     * Whether scans run in one pass: where the device has the 64-bit atomics its node words need and
     * no single-pass kernel gave up waiting there ({@link SinglePass}), unless {@code -Djpai.scan.singlePass=false}. It assumes that started work-groups keep running
     * while later ones wait for them, which OpenCL does not promise but NVIDIA's GPUs and PoCL's
     * threads give (docs/runtime.md, "Scans and filters"); on the H100 it reads and writes 2^28
     * floats at 86 % of a copy's kernel bandwidth, the reduce-then-scan at 58 %.
     */
    static boolean singlePass(DeviceChoice.OpenCL device) {
        return SinglePass.allowed(device, "jpai.scan.singlePass");
    }

    /**
     * The work-group size: {@code jpai.scan.workGroup}, or 512 for the single pass (fewer groups
     * waiting for each other: 1.12 against 1.24 ms at 256 for 2^28 floats on the H100) and 256 for the
     * reduce-then-scan; at most what the device and local memory allow.
     */
    private static long localSize(DeviceContext context, DataType type, boolean singlePass) {
        long requested = Math.max(1, Long.getLong("jpai.scan.workGroup", singlePass ? SINGLE_PASS_WORK_GROUP : WORK_GROUP));
        long elementBytes = 0;
        for (JavaKind kind : KernelShapes.kinds(type)) {
            elementBytes += Math.max(1, kind.getByteCount());
        }
        long fits = (context.device().localMemoryBytes() - LOCAL_MEMORY_RESERVE) / (localSlotsPerWorkItem(CombiningTree.LEAF) * elementBytes);
        long localSize = Long.highestOneBit(Math.max(1, Math.min(Math.min(requested, context.device().maxWorkGroupSize()), fits)));
        if (localSize < 2) {
            throw new OpenCLRuntimeException("a scan needs work-groups of at least 2 work-items; " + context.device().name() + " allows " + context.device().maxWorkGroupSize()
                            + " work-items and " + context.device().localMemoryBytes() + " bytes of local memory (" + elementBytes + " bytes per element)"
                            + (requested < 2 ? ", and jpai.scan.workGroup asks for " + requested : ""));
        }
        return localSize;
    }

    /**
     * The single-pass scan: the flags zeroed, then one launch of the scan kernel over the input,
     * its work-groups passing the tree's nodes over the groups' values through {@code nodes} and
     * {@code flags} (OpenCLKernelGenerator.scan). Reads the input once and writes the output once.
     */
    static <T> void runSinglePass(DeviceChoice.OpenCL device, KernelCache.Compiled scan, T identity, DataType type, PArray<?> input, PArray<?> output, boolean exclusive) {
        long length = input.length();
        if (length == 0) {
            return;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = localSize(context, type, true);
        long groups = groups(length, CombiningTree.LEAF, localSize);
        long wordInts = new ScanKernelSpec(KernelShapes.kinds(type), CombiningTree.LEAF, true).singlePassWordInts(groups);
        try (PArray<?> words = PArray.allocateUninitialized(jpai.ElementType.INT, wordInts)) {
            KernelCache.Compiled clear = KernelCache.Compiled.of(CLEAR, "the single-pass scan's node words", List.of());
            KernelBinding zero = new KernelBinding(clear).common(words).outputs(words);
            zero.launch().localSize(localSize).globalSize(roundUp(words.length(), localSize));
            KernelBinding binding = new KernelBinding(scan).common(input).scanLevel(identity, null, output, localSize, CombiningTree.LEAF, exclusive).singlePass(words);
            binding.launch().localSize(localSize).globalSize(groups * localSize);
            for (LaunchResult result : context.launchSequence(List.of(CLEAR, scan.kernel()), List.of(zero.launch(), binding.launch()))) {
                KernelBinding.checkStatus(result);
            }
        }
    }

    private static final KernelSource CLEAR = ClearKernel.source();

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** The work-groups of a level of {@code elements} in leaves of {@code width}. */
    private static long groups(long elements, long width, long localSize) {
        long leaves = (elements + width - 1) / width;
        return (leaves + localSize - 1) / localSize;
    }
}
