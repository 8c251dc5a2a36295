package jpai.runtime;


import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.ElementType;
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
 * than the later passes themselves. Partial results stay on the device; only the last pass's values
 * come back.
 *
 * <p>The last pass is the first one that leaves at most {@value #HOST_COMBINED_NODES} work-groups:
 * their values (nodes of the tree, one level each) come back and the host combines them with the
 * operator in the tree's order ({@link CombiningTree.Accumulator}), as a hand-written reduction adds
 * its groups' partial sums on the host. A kernel launch more (with its events and time queries) costs
 * an apply more than combining a thousand values in Java; the bits are the same, the tree being one.
 * The device still computes every element and every group's node: nothing is routed to Java by cost.
 */
final class DeviceReduce {

    /** A power of two (each group's value must be a node of the tree), as large as devices commonly allow. */
    private static final long WORK_GROUP = 256;

    /**
     * At most this many work-group values of a pass are combined on the host instead of by another
     * pass on the device (see the class comment); a power of two, so that it never depends on more
     * than the element count and the device's work-group size.
     */
    static final long HOST_COMBINED_NODES = 1024;

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
     * The root of the tree over {@code nodes}, consecutive nodes of one level from the left (the last
     * may cover fewer leaves), combined by {@code operator} in the tree's order. A combiner that
     * throws here would have made the device's next pass exit: the operation re-runs in Java, which
     * throws Java's exception at Java's element.
     */
    @SuppressWarnings("unchecked")
    private static <T> T combinedOnHost(PArray<?> nodes, BinaryOperator<T> operator, T identity, Object operation) {
        Object[] values = valuesOf(nodes);
        CombiningTree.Accumulator tree = new CombiningTree.Accumulator((BinaryOperator<Object>) operator);
        try {
            for (Object value : values) {
                // every node is of the same level, so which one is immaterial: the accumulator combines equal levels
                tree.push(value, 0);
            }
            return (T) tree.root(identity);
        } catch (RuntimeException e) {
            throw new KernelDeoptimizedException("the combiner of " + operation + " threw " + e + " combining its work-groups' values on the host");
        }
    }

    /**
     * The elements of {@code nodes}, boxed as {@code PArray.get} boxes them, read in one bulk copy per
     * component: element reads one by one switch a result array to its shared memory segment after a
     * few hundred, whose release at {@code close} is a handshake of every Java thread (on the H100's
     * host 1,024 reads that way cost an apply 0.1-0.2 ms after a collection).
     */
    private static Object[] valuesOf(PArray<?> nodes) {
        int count = Math.toIntExact(nodes.length());
        if (!nodes.isTuples()) {
            return boxed(nodes, count);
        }
        Object[][] components = new Object[nodes.componentCount()][];
        for (int c = 0; c < components.length; c++) {
            components[c] = boxed(nodes.component(c), count);
        }
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            Object[] parts = new Object[components.length];
            for (int c = 0; c < parts.length; c++) {
                parts[c] = components[c][i];
            }
            values[i] = jpai.Tuple.of(parts);
        }
        return values;
    }

    /** A scalar array's {@code count} elements, boxed as {@code PArray.get} boxes them ({@code ElementType.get}: {@code valueOf}). */
    private static Object[] boxed(PArray<?> scalars, int count) {
        ElementType type = scalars.elementType();
        // a long[]'s segment: aligned for every element type's layout
        MemorySegment copy = MemorySegment.ofArray(new long[Math.toIntExact((count * type.byteSize() + 7) / 8)]);
        scalars.copyTo(0, count, copy);
        Object[] values = new Object[count];
        for (int i = 0; i < count; i++) {
            values[i] = type.get(copy, i);
        }
        return values;
    }

    /**
     * @param first the first pass's kernel (with the mapper of a fused map then reduce, or the combiner's own)
     * @param partials the kernel of the passes after the first: the combiner's own reduce kernel over the element type,
     *            asked for only when a second pass is needed (it may throw {@link OpenCLRuntimeException})
     * @param operator the combiner, which the host applies to the last pass's work-group values
     * @param operation the operation, named by its {@code toString()} (only in the message when the combiner throws there)
     */
    static <T> T run(DeviceChoice.OpenCL device, KernelCache.Compiled first, Supplier<KernelCache.Compiled> partials, BinaryOperator<T> operator, T identity, DataType type, PArray<?> input,
                    Object operation) {
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
                boolean last = groups <= HOST_COMBINED_NODES;
                PArray<?> results = PArray.allocateUninitialized(type, groups); // every group writes its value
                passResults.add(results);
                KernelBinding binding = new KernelBinding(kernel).common(elements).reduction(identity, results, localSize, leafWidth, leavesPerGroup);
                binding.launch().localSize(localSize).globalSize(groups * localSize).keepResultOnDevice(!last);
                sources.add(kernel.kernel());
                launches.add(binding.launch());
                if (last) {
                    break;
                }
                kernel = partials.get();
                elements = results;
                elementCount = groups;
                leafWidth = 1;
            }
            List<LaunchResult> results = context.launchSequence(sources, launches);
            for (int r = 0; r < results.size(); r++) {
                KernelBinding.checkStatus(results.get(r));
            }
            PArray<?> nodes = passResults.get(passResults.size() - 1);
            if (nodes.length() == 1) {
                @SuppressWarnings("unchecked")
                T value = (T) nodes.get(0);
                return value;
            }
            return combinedOnHost(nodes, operator, identity, operation);
        } finally {
            // the last pass's first: the pool hands out the buffer given back last first, so the next
            // apply's passes get the buffers they had, which their kernel objects are already bound to
            for (int i = passResults.size() - 1; i >= 0; i--) {
                passResults.get(i).close();
            }
        }
    }
}
