package jpai.runtime;


import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.PArray;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * Runs a reduction on a device in {@link CombiningTree}'s order, every pass on the device: the first
 * pass folds leaves of {@link CombiningTree#LEAF} elements (mapped first, for a fused map then
 * reduce) and combines each work-group's leaves by the aligned binary tree; each further pass takes
 * the previous pass's partial results as its elements (leaves of one) with the combiner's own
 * kernel, until one work-group is left. All passes are enqueued on one queue before the host waits,
 * once ({@code DeviceContext.launchSequence}): a wait per pass cost 0.1 to 0.4 ms on the H100, more
 * than the later passes themselves. Partial results stay on the device; only the last pass's one
 * value comes back.
 */
final class DeviceReduce {

    /** A power of two (each group's value must be a node of the tree), as large as devices commonly allow. */
    private static final long WORK_GROUP = 256;

    /** Local memory left to the OpenCL compiler besides the reduction's own scratch. */
    private static final long LOCAL_MEMORY_RESERVE = 1024;

    private DeviceReduce() {
    }

    /**
     * Slots of local memory a reduction kernel needs per work-item and element component in a pass
     * of {@code leafWidth}: the first pass's padded tile (one slot more than a leaf), one slot in the
     * passes after it (OpenCLKernelGenerator.reduce).
     */
    static long localSlotsPerWorkItem(long leafWidth) {
        return leafWidth > 1 ? leafWidth + 1 : 1;
    }

    /**
     * The work-group size of a reduction of {@code type}'s elements on {@code context}'s device: a
     * power of two, at most {@code jpai.reduce.workGroup} (256 unless set), whose first pass's tile
     * fits in local memory.
     *
     * @throws OpenCLRuntimeException if the device allows no group of two work-items
     */
    static long localSize(DeviceContext context, DataType type) {
        // jpai.reduce.workGroup: tests show that the result does not depend on it
        long requested = Math.max(1, Long.getLong("jpai.reduce.workGroup", WORK_GROUP));
        long elementBytes = 0;
        for (int c = 0; c < type.components().size(); c++) { // no list of kinds per apply
            elementBytes += Math.max(1, KernelShapes.kind(type.components().get(c)).getByteCount());
        }
        // the first pass's tile must fit in local memory, with room for what the compiler keeps there
        long tileFits = (context.device().localMemoryBytes() - LOCAL_MEMORY_RESERVE) / (localSlotsPerWorkItem(CombiningTree.LEAF) * elementBytes);
        long localSize = Long.highestOneBit(Math.max(1, Math.min(Math.min(requested, context.device().maxWorkGroupSize()), tileFits)));
        if (localSize < 2) {
            // a group of one leaf combines nothing: the passes after the first would never end
            throw new OpenCLRuntimeException("a reduction needs work-groups of at least 2 work-items; " + context.device().name() + " allows " + context.device().maxWorkGroupSize()
                            + " work-items and " + context.device().localMemoryBytes() + " bytes of local memory (" + elementBytes + " bytes per element)"
                            + (requested < 2 ? ", and jpai.reduce.workGroup asks for " + requested : ""));
        }
        return localSize;
    }

    /**
     * Leaves per work-group of the first pass of {@code kernel} in groups of {@code localSize}: one
     * per work-item, or, for a first pass whose mapper has loops (it maps one element per work-item),
     * {@code localSize / LEAF} (a power of two, so that each group's value is still a node of the tree).
     */
    static long firstPassLeavesPerGroup(KernelCache.Compiled kernel, long localSize) {
        return kernel.kernel().declares(KernelParameter.Role.LEAVES_PER_GROUP) ? Math.max(1, localSize / CombiningTree.LEAF) : localSize;
    }

    /**
     * @param first the first pass's kernel (with the mapper of a fused map then reduce, or the combiner's own)
     * @param partials the kernel of the passes after the first: the combiner's own reduce kernel over the element type
     */
    static <T> T run(DeviceChoice.OpenCL device, KernelCache.Compiled first, KernelCache.Compiled partials, T identity, DataType type, PArray<?> input) {
        long length = input.length();
        if (length == 0) {
            return identity;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = localSize(context, type);
        // Every pass's partial results, allocated now: all passes are enqueued before the one wait.
        // Room for the passes of up to localSize^3 * LEAF elements (two or three passes, mostly): grown beyond.
        List<PArray<?>> passResults = new ArrayList<>(3);
        List<KernelSource> sources = new ArrayList<>(3);
        List<KernelLaunch> launches = new ArrayList<>(3);
        try {
            KernelCache.Compiled kernel = first;
            PArray<?> elements = input;
            long elementCount = length;
            long leafWidth = CombiningTree.LEAF;
            while (true) {
                long leaves = (elementCount + leafWidth - 1) / leafWidth;
                // A first pass whose mapper has loops maps one element per work-item: its groups hold
                // localSize / LEAF leaves (a power of two, so each group's value is still a node of the tree).
                long leavesPerGroup = leafWidth > 1 ? firstPassLeavesPerGroup(kernel, localSize) : localSize;
                long groups = (leaves + leavesPerGroup - 1) / leavesPerGroup;
                boolean last = groups == 1;
                PArray<?> results = PArray.allocateUninitialized(type, groups); // every group writes its value
                passResults.add(results);
                KernelBinding binding = new KernelBinding(kernel).common(elements).reduction(identity, results, localSize, leafWidth, leavesPerGroup);
                binding.launch().localSize(localSize).globalSize(groups * localSize).keepResultOnDevice(!last);
                sources.add(kernel.kernel());
                launches.add(binding.launch());
                if (last) {
                    break;
                }
                kernel = partials;
                elements = results;
                elementCount = groups;
                leafWidth = 1;
            }
            List<LaunchResult> results = context.launchSequence(sources, launches);
            for (int r = 0; r < results.size(); r++) {
                KernelBinding.checkStatus(results.get(r));
            }
            @SuppressWarnings("unchecked")
            T value = (T) passResults.get(passResults.size() - 1).get(0);
            return value;
        } finally {
            // the last pass's first: the pool hands out the buffer given back last first, so the next
            // apply's passes get the buffers they had, which their kernel objects are already bound to
            for (int i = passResults.size() - 1; i >= 0; i--) {
                passResults.get(i).close();
            }
        }
    }
}
