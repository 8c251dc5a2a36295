package jpai.runtime;

import java.util.List;
import java.util.Set;

import jpai.PArray;
import jpai.ocl.CompactionKernels;
import jpai.ocl.KernelParameter.Role;
import jpai.ocl.KernelSource;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * A filter's compaction on the device ({@link CompactionKernels}), after the predicate's map wrote
 * one flag per element: the groups' counts and their offsets in one launch sequence, whose last
 * kernel's offsets come back to the host for the total (the output's length, known only now), then
 * the ordered scatter into an output of that length, which stays on the device.
 */
final class DeviceCompaction {

    /** A power of two, the same for counting and scattering (both cut the elements into the same groups). */
    private static final long WORK_GROUP = 256;

    private static final KernelSource COUNT = CompactionKernels.count();
    private static final KernelSource OFFSETS = CompactionKernels.offsets();

    private DeviceCompaction() {
    }

    /** The elements of {@code input} whose flag in {@code kept} is set, in order; a new array the caller owns. */
    @SuppressWarnings("unchecked")
    static <T> PArray<T> run(DeviceChoice.OpenCL device, PArray<T> input, PArray<Boolean> kept) {
        long length = input.length();
        if (length == 0) {
            return (PArray<T>) PArray.allocate(input.type(), 0);
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = Long.highestOneBit(Math.max(1, Math.min(WORK_GROUP, context.device().maxWorkGroupSize())));
        long workItems = (length + CompactionKernels.FLAGS_PER_WORK_ITEM - 1) / CompactionKernels.FLAGS_PER_WORK_ITEM;
        long groups = Math.max(1, (workItems + localSize - 1) / localSize);
        try (PArray<Integer> counts = (PArray<Integer>) PArray.allocateUninitialized(jpai.ElementType.INT, groups);
                        PArray<Long> offsets = (PArray<Long>) PArray.allocateUninitialized(jpai.ElementType.LONG, groups + 1)) {
            KernelBinding count = new KernelBinding(KernelCache.Compiled.of(COUNT, "a filter's count", List.of())).common(kept)
                            .compaction(kept, counts, offsets, null, localSize, 1, Set.of(Role.GROUP_COUNTS));
            count.launch().localSize(localSize).globalSize(groups * localSize);
            KernelBinding sum = new KernelBinding(KernelCache.Compiled.of(OFFSETS, "a filter's offsets", List.of())).common(counts)
                            .compaction(kept, counts, offsets, null, localSize, 1, Set.of(Role.GROUP_OFFSETS));
            sum.launch().localSize(localSize).globalSize(localSize).keepResultOnDevice(false);
            for (LaunchResult result : context.launchSequence(List.of(COUNT, OFFSETS), List.of(count.launch(), sum.launch()))) {
                KernelBinding.checkStatus(result);
            }
            long total = offsets.get(groups);
            PArray<T> output = (PArray<T>) PArray.allocateUninitialized(input.type(), total);
            if (total == 0) {
                return output;
            }
            try {
                KernelSource scatterKernel = CompactionKernels.scatter(KernelShapes.kinds(input.type()));
                KernelBinding scatter = new KernelBinding(KernelCache.Compiled.of(scatterKernel, "a filter's scatter", List.of())).common(input)
                                .compaction(kept, counts, offsets, output, localSize, CompactionKernels.FLAGS_PER_WORK_ITEM + 1, Set.of(Role.OUTPUT_BUFFER));
                scatter.launch().localSize(localSize).globalSize(groups * localSize);
                KernelBinding.checkStatus(context.launch(scatterKernel, scatter.launch()));
                return output;
            } catch (RuntimeException | Error e) {
                output.close();
                throw e;
            }
        }
    }
}
