package jpai.runtime;

import java.util.Arrays;
import java.util.List;

import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.HostReadHint;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.opencl.WorkGroupShape;

/**
 * Runs a compiled map kernel on a device. The output stays on the device until the host reads it;
 * an input already there and unchanged is not sent again. A map over a 2-D or 3-D index space
 * ({@code PArray.range(rows, columns)}, ...) is a 2-D or 3-D NDRange whose dimension 0 runs along
 * the innermost index.
 */
final class DeviceMap {

    /**
     * The largest work-group a map launch allows; the launcher measures which power of two up to it
     * (and up to what the kernel and device allow) is fastest for each kernel ({@code WorkGroupTuning}).
     * Work-items past the last element do nothing.
     */
    private static final long LARGEST_WORK_GROUP = 1024;
    /** One enqueue covers at most this many work-items (rounded down to whole work-groups); more elements take several, with global offsets. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    /** At most 2^30 work-items per enqueue; {@code jpai.map.maxWorkItemsPerEnqueue} lowers it (tests split small maps so). */
    private static long maxWorkItemsPerEnqueue() {
        return Math.max(1, Math.min(MAX_WORK_ITEMS, Long.getLong("jpai.map.maxWorkItemsPerEnqueue", MAX_WORK_ITEMS)));
    }

    private DeviceMap() {
    }

    /**
     * @param indexSpace the extents of the input's index space, outermost first, when the kernel
     *            was compiled for one of 2 or 3 dimensions; else null
     * @param resultReads the function's record of whether the host reads its results, told about
     *            this output; when its last result was read, this one is copied back in the launch
     *            (one wait for kernel and copy); null: the output is an intermediate, left on the device
     */
    static void run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, HostReadHint resultReads) {
        run(device, compiled, input, output, indexSpace, 0, resultReads);
    }

    /**
     * Tiering's takeover: runs the map from element {@code first} to the end (Java threads computed
     * the elements before it into {@code output}'s host memory) and copies the part it computed back
     * into the host memory, which is then the result's only current copy. {@code first} starts a
     * whole row (outermost index) of a 2-D or 3-D index space.
     */
    static void runFrom(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, long first) {
        long rowLength = rowLength(indexSpace);
        if (first % rowLength != 0) {
            throw new IllegalArgumentException("a takeover starts at a whole row of the index space: element " + first + ", rows of " + rowLength);
        }
        try {
            run(device, compiled, input, output, indexSpace, first / rowLength, null);
        } finally {
            // also after a kernel exit: the elements before the exit are the kernel's, and Java's from there on
            for (int c = 0; c < output.componentCount(); c++) {
                jpai.runtime.memory.ComponentBuffer buffer = PArrayStorage.buffer(output, c);
                jpai.runtime.memory.DeviceMirror mirror = buffer.mirror();
                if (mirror != null) {
                    mirror.takeBackFrom(buffer, first * buffer.type().byteSize());
                }
            }
        }
    }

    /** Elements per row of the outermost index of {@code indexSpace} (1 for a 1-D map, {@code indexSpace} null). */
    static long rowLength(int[] indexSpace) {
        long row = 1;
        for (int d = 1; indexSpace != null && d < indexSpace.length; d++) {
            row *= indexSpace[d];
        }
        return row;
    }

    /** {@link #run}, from row {@code firstRow} of the outermost index (from element {@code firstRow} of a 1-D map) to the end. */
    private static void run(DeviceChoice.OpenCL device, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, long firstRow, HostReadHint resultReads) {
        long length = input.length();
        if (length == 0) {
            return;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        KernelBinding binding = bindRows(context, compiled, input, output, indexSpace, firstRow, rows(input, indexSpace));
        if (resultReads != null) {
            binding.launch().keepResultOnDevice(!resultReads.readAhead());
            for (int c = 0; c < output.componentCount(); c++) {
                PArrayStorage.buffer(output, c).reportReadTo(resultReads);
            }
        }
        LaunchResult result = context.launch(compiled.kernel(), binding.launch());
        KernelBinding.checkStatus(result, indexSpace);
    }

    /** Rows of the outermost index of the map's index space (its elements, for a 1-D map). */
    static long rows(PArray<?> input, int[] indexSpace) {
        return indexSpace != null && indexSpace.length > 1 ? indexSpace[0] : input.length();
    }

    /**
     * The launch of the map's rows {@code [firstRow, endRow)} of the outermost index (elements, for
     * a 1-D map) on {@code context}, bound and shaped: work-items outside those rows do nothing. For
     * the whole map, a takeover's end of it, or a split map's part.
     */
    static KernelBinding bindRows(DeviceContext context, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, long firstRow, long endRow) {
        long maxGroup = Long.highestOneBit(Math.min(LARGEST_WORK_GROUP, context.device().maxWorkGroupSize()));
        boolean indexSpaceMap = indexSpace != null && indexSpace.length > 1;
        KernelBinding binding = new KernelBinding(compiled).common(input, indexSpaceMap ? input.length() : endRow).outputs(output);
        // A tiled kernel was written for one work-group size (its __local tiles): exactly that, never shrunk.
        long[] required = requiredLocalSizes(compiled.kernel().requiredLocalSize());
        long group = 1;
        for (long size : required) {
            group = Math.multiplyExact(group, size);
        }
        if (group > context.device().maxWorkGroupSize()) {
            throw new OpenCLRuntimeException("its kernel reads through __local tiles in work-groups of " + group + " work-items, more than the device's "
                            + context.device().maxWorkGroupSize() + " (-Djpai.tiling=false makes kernels without tiles)");
        }
        if (indexSpaceMap) {
            // the outermost extent ends at the last row: the kernel's guard then stops the work-items past it
            int[] extents = indexSpace.clone();
            extents[0] = (int) endRow;
            binding.indexExtents(extents);
            shapeIndexSpace(binding.launch(), extents, firstRow, required.length > 0 ? required : null, maxGroup);
        } else {
            // One work-item per element (the map kernel has no loop); no larger a group than the elements need,
            // unless the kernel was written for one size (its __local tiles).
            long items = endRow - firstRow;
            long localSize = required.length > 0 ? required[0] : Math.min(maxGroup, WorkGroupShape.powerOfTwoAtLeast(items));
            binding.launch().localSize(localSize).globalSize(roundUp(items, localSize)).perEnqueue(maxWorkItemsPerEnqueue() / localSize * localSize);
        }
        binding.launch().firstItem(firstRow);
        if (required.length == 0) {
            // A tiled kernel keeps its size; the launcher never tunes one built with reqd_work_group_size either.
            binding.launch().localSizeTuned();
        }
        return binding;
    }

    /**
     * One work-item per index from row {@code firstRow} of the outermost index on: NDRange dimension
     * {@code d} covers index {@code dimensions - 1 - d} (dimension 0 the innermost), rounded up to whole work-groups; a launch of more than
     * {@link #maxWorkItemsPerEnqueue()} work-items is cut into slabs along the outermost index, each
     * whole groups tall (at least one group, when one row of groups is larger already).
     */
    private static void shapeIndexSpace(KernelLaunch launch, int[] indexSpace, long firstRow, long[] requiredLocal, long maxGroup) {
        int dimensions = indexSpace.length;
        long[] workItems = new long[dimensions];
        for (int d = 0; d < dimensions; d++) {
            workItems[d] = indexSpace[dimensions - 1 - d];
        }
        workItems[dimensions - 1] -= firstRow; // the rows before it are not launched (the launch's first item)
        long[] local = requiredLocal != null ? requiredLocal : WorkGroupShape.localSizes(workItems, maxGroup);
        long[] global = new long[dimensions];
        for (int d = 0; d < dimensions; d++) {
            global[d] = roundUp(workItems[d], local[d]);
        }
        long slab = Arrays.stream(global, 0, dimensions - 1).reduce(1, Math::multiplyExact);
        long outerLocal = local[dimensions - 1];
        long rowsPerEnqueue = Math.max(outerLocal, maxWorkItemsPerEnqueue() / slab / outerLocal * outerLocal);
        launch.globalSize(global).localSize(local).perEnqueue(rowsPerEnqueue);
    }

    private static final long[] NO_REQUIRED_SIZE = {};

    /** The kernel's {@code reqd_work_group_size}, or an empty array: plain loops, as this runs on every apply (no stream pipeline per apply). */
    private static long[] requiredLocalSizes(List<Long> required) {
        if (required.isEmpty()) {
            return NO_REQUIRED_SIZE;
        }
        long[] sizes = new long[required.size()];
        for (int d = 0; d < sizes.length; d++) {
            sizes[d] = required.get(d);
        }
        return sizes;
    }

    static long roundUp(long value, long multiple) {
        return WorkGroupShape.roundUp(value, multiple);
    }
}
