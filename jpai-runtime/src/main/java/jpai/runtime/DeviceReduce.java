package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

import jpai.DataType;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaReduce;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Runs a compiled reduce kernel on a device: each work-group folds a share of the elements and
 * combines its work-items' values in local memory; the host then combines the groups' partial
 * results, in order, with the same Java operator.
 */
final class DeviceReduce {

    private static final long WORK_GROUP = 256;
    /** Enough groups to fill a large GPU; few enough that the host's final combine is negligible. */
    private static final long MAX_GROUPS = 1024;

    private DeviceReduce() {
    }

    static <T> T run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, BinaryOperator<T> operator, T identity, DataType type, PArray<?> input) {
        long length = input.length();
        if (length == 0) {
            return identity;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = Long.highestOneBit(Math.min(WORK_GROUP, context.device().maxWorkGroupSize())); // the tree needs a power of two
        long groups = Math.min(MAX_GROUPS, (length + localSize - 1) / localSize);
        try (PArray<?> partials = PArray.allocateUninitialized(type, groups)) { // every group writes its partial
            KernelBinding binding = new KernelBinding(compiled).common(input).reduction(identity, partials, localSize);
            // The host needs the partials at once: they come back in the launch's one wait, with the status words.
            binding.launch().localSize(localSize).globalSize(groups * localSize).keepResultOnDevice(false);
            LaunchResult result = context.launch(compiled.kernel(), binding.launch());
            KernelBinding.checkStatus(result);
            List<T> values = new ArrayList<>((int) groups);
            for (long g = 0; g < groups; g++) {
                @SuppressWarnings("unchecked")
                T partial = (T) partials.get(g);
                values.add(partial);
            }
            return JavaReduce.combineAll(operator, identity, values);
        }
    }
}
