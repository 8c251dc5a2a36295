package jpai.runtime;


import jpai.DataType;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * Runs a reduction on a device in {@link CombiningTree}'s order, every pass on the device: the first
 * pass folds leaves of {@link CombiningTree#LEAF} elements (mapped first, for a fused map then
 * reduce) and combines each work-group's leaves by the aligned binary tree; each further pass takes
 * the previous pass's partial results as its elements (leaves of one) with the combiner's own
 * kernel, until one work-group is left. Partial results stay on the device; only the last pass's one
 * value comes back, in that launch's wait with the status words.
 */
final class DeviceReduce {

    /** A power of two (each group's value must be a node of the tree), as large as devices commonly allow. */
    private static final long WORK_GROUP = 256;

    private DeviceReduce() {
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
        // jpai.reduce.workGroup: tests show that the result does not depend on it
        long requested = Math.max(1, Long.getLong("jpai.reduce.workGroup", WORK_GROUP));
        long localSize = Long.highestOneBit(Math.min(requested, context.device().maxWorkGroupSize()));
        if (localSize < 2) {
            // a group of one leaf combines nothing: the passes after the first would never end
            throw new OpenCLRuntimeException("a reduction needs work-groups of at least 2 work-items; " + context.device().name() + " allows " + context.device().maxWorkGroupSize()
                            + (requested < 2 ? " and jpai.reduce.workGroup asks for " + requested : ""));
        }
        KernelCache.Compiled kernel = first;
        PArray<?> elements = input;
        long elementCount = length;
        long leafWidth = CombiningTree.LEAF;
        try {
            while (true) {
                long leaves = (elementCount + leafWidth - 1) / leafWidth;
                long groups = (leaves + localSize - 1) / localSize;
                boolean last = groups == 1;
                PArray<?> results = PArray.allocateUninitialized(type, groups); // every group writes its value
                try {
                    KernelBinding binding = new KernelBinding(kernel).common(elements).reduction(identity, results, localSize, leafWidth);
                    binding.launch().localSize(localSize).globalSize(groups * localSize).keepResultOnDevice(!last);
                    LaunchResult result = context.launch(kernel.kernel(), binding.launch());
                    KernelBinding.checkStatus(result);
                } catch (RuntimeException | Error e) {
                    results.close();
                    throw e;
                }
                if (elements != input) {
                    elements.close();
                }
                elements = results;
                if (last) {
                    @SuppressWarnings("unchecked")
                    T value = (T) results.get(0);
                    return value;
                }
                kernel = partials;
                elementCount = groups;
                leafWidth = 1;
            }
        } finally {
            if (elements != input) {
                elements.close();
            }
        }
    }
}
