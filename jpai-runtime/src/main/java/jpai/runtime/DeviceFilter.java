package jpai.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import jpai.ElementType;
import jpai.PArray;
import jpai.ocl.ClearKernel;
import jpai.ocl.FilterKernel;
import jpai.ocl.KernelSource;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Runs a filter as one kernel ({@link FilterKernel}): the predicate evaluated, the kept elements
 * ranked and written in order, the input read once. How many elements are kept is known only when
 * the kernel has finished, so it writes into room for every element (device memory only: the room's
 * host side is untouched {@code malloc} memory), and the result, of the kept length, then takes that
 * device memory over ({@link DeviceContext#moveDeviceCopy}): nothing is copied, and the result stays
 * on the device until the host reads it.
 */
final class DeviceFilter {

    /**
     * Work-items per group, a power of two: {@code -Djpai.filter.workGroup} (tests) or this (0.85 ms
     * for 2^28 floats on the H100, against 0.88 ms at 256).
     */
    private static final long WORK_GROUP = 512;

    private static final KernelSource CLEAR = ClearKernel.source();

    private DeviceFilter() {
    }

    /**
     * Whether filters run in one pass on {@code device} ({@link SinglePass}: unless
     * {@code -Djpai.filter.singlePass=false}, where the device has the 64-bit atomics the kernel's
     * status words need); else the flags, count and scatter kernels of {@link DeviceCompaction}.
     */
    static boolean applies(DeviceChoice.OpenCL device) {
        return SinglePass.allowed(device, "jpai.filter.singlePass");
    }

    /** The elements of {@code input} for which {@code compiled}'s predicate holds, in order; a new array the caller owns. */
    static <T> PArray<T> run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<T> input) {
        return run(device, compiled, input, input.type());
    }

    /** As above, the kernel keeping elements of {@code elementType} that maps fused into it make of {@code input}'s. */
    @SuppressWarnings("unchecked")
    static <T> PArray<T> run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, jpai.DataType elementType) {
        long length = input.length();
        if (length == 0) {
            return (PArray<T>) PArray.allocate(elementType, 0);
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long requested = Math.max(FilterKernel.MIN_LOCAL_SIZE, Long.getLong("jpai.filter.workGroup", WORK_GROUP));
        long localSize = Math.max(FilterKernel.MIN_LOCAL_SIZE, Long.highestOneBit(Math.min(requested, context.device().maxWorkGroupSize())));
        long groups = FilterKernel.groups(length, localSize);
        ByteBuffer totalReadBack = ByteBuffer.allocateDirect(Long.BYTES).order(ByteOrder.nativeOrder());
        try (PArray<?> words = PArray.allocateUninitialized(ElementType.INT, FilterKernel.nodeWordInts(groups));
                        PArray<?> room = PArrayStorage.allocateUninitializedPlain(elementType, length)) {
            KernelBinding zero = new KernelBinding(KernelCache.Compiled.of(CLEAR, "the single-pass filter's node words", List.of())).common(words).outputs(words);
            zero.launch().localSize(localSize).globalSize(DeviceMap.roundUp(words.length(), localSize));
            KernelBinding filter = new KernelBinding(compiled).common(input).singlePassFilter(room, words, totalReadBack, localSize);
            filter.launch().localSize(localSize).globalSize(groups * localSize);
            for (LaunchResult result : context.launchSequence(List.of(CLEAR, compiled.kernel()), List.of(zero.launch(), filter.launch()))) {
                KernelBinding.checkStatus(result);
            }
            long kept = totalReadBack.getLong(0);
            if (kept < 0 || kept > length) {
                throw new IllegalStateException("the single-pass filter of " + length + " elements reported " + kept + " kept");
            }
            PArray<T> output = (PArray<T>) PArray.allocateUninitialized(elementType, kept);
            try {
                if (kept > 0) {
                    for (int c = 0; c < output.componentCount(); c++) {
                        context.moveDeviceCopy(PArrayStorage.buffer(room, c), PArrayStorage.buffer(output, c));
                    }
                }
                return output;
            } catch (RuntimeException | Error e) {
                output.close();
                throw e;
            }
        }
    }
}
