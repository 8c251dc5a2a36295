package jpai.runtime;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;

import jpai.DataType;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.ClaimedChunks;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.exec.JavaReduce;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * Tiering's first apply of a reduction, or of a fused map then reduce ({@code -Djpai.tiering=true},
 * {@code AUTO} only), whose kernel is not compiled yet: Java threads compute the nodes of
 * {@link CombiningTree}'s tree over chunks of whole leaves claimed in order; the kernel's compilation
 * starts during the apply when Java threads' pace says they outlast it ({@link TieringPace}), else
 * after the apply; and once the kernel is ready the device takes over the elements not claimed yet.
 * The device's first pass gives the node of each of its work-groups, aligned blocks of the tree, so
 * its part starts at a whole group: the few leaves between the last claimed chunk and that group run
 * on Java threads meanwhile. The host pushes Java's nodes and then the device's into one
 * {@link CombiningTree.Accumulator}: the tree is the one every executor computes, so the result has
 * the bits of Java's and of the device's whole runs.
 *
 * <p>The device takes over only a kernel whose bits are the JVM's ({@link KernelCache.Compiled#differsFromJvm()}
 * null): one result is not made of nodes of two roundings. Exceptions are those of the apply run
 * wholly in Java: whatever a Java chunk, the host's combines or the device's part (a kernel exit) met,
 * the reduction runs again as the Java path runs it ({@code inJava}), which throws Java's exception
 * (for a fused map then reduce: the first failing element of the first failing map, as unfused).
 * Lambdas are free of side effects here, as everywhere a kernel may run them.
 */
final class TieredReduce extends TieredTakeover {

    private final KernelCache kernels;
    private final DataType type;
    private final FusedMappers mappers;
    private final Object identity;
    private final DeviceChoice.OpenCL device;
    private final PArray<?> input;
    /** The caches of every function in the kernel, told of its exits. */
    private final KernelCache[] functions;
    private JavaReduce.TieredNodes javaNodes;
    /** Where the device's part begins (a whole work-group), or -1 when it ran none. */
    private long deviceFrom = -1;
    private Object[] deviceNodes;
    private int deviceLevel;

    private TieredReduce(KernelCache kernels, DataType type, FusedMappers mappers, Object identity, DeviceChoice.OpenCL device, PArray<?> input, Supplier<String> operation,
                    KernelCache[] functions) {
        super(operation, "one result must not be made of nodes of both", null);
        this.kernels = kernels;
        this.type = type;
        this.mappers = mappers;
        this.identity = identity;
        this.device = device;
        this.input = input;
        this.functions = functions;
    }

    /** What a tiered reduction computed, and how long Java threads ran before the device took over (for the cost model's pace). */
    record Result(Object value, ClaimedChunks.Outcome outcome) {
    }

    /**
     * Reduces {@code input} as the class says.
     *
     * @param kernels the reduction's kernel cache (whose kernel, with {@code mappers} fused, takes over)
     * @param javaMapper the fused maps as Java runs them ({@link MapChainInJava}), or null for a plain reduction
     * @param inJava the whole reduction as its Java path runs it: after any exception, so that the
     *        exception thrown is that path's
     * @param functions the caches of every function in the kernel (the maps' and the reduction's)
     */
    static Result run(BinaryOperator<?> operator, Object identity, DataType type, Function<Object, Object> javaMapper, FusedMappers mappers, KernelCache kernels,
                    DeviceChoice.OpenCL device, PArray<?> input, Supplier<String> operation, Supplier<Object> inJava, KernelCache... functions) {
        TieredReduce tiered = new TieredReduce(kernels, type, mappers, identity, device, input, operation, functions);
        Offload.ranTiered(operation);
        ClaimedChunks.Outcome outcome;
        Object value;
        try (JavaReduce.TieredNodes nodes = JavaReduce.tieredNodes(operator, identity, input, javaMapper)) {
            tiered.javaNodes = nodes;
            try {
                outcome = nodes.runUntilTakenOver(tiered);
                @SuppressWarnings("unchecked")
                CombiningTree.Accumulator tree = new CombiningTree.Accumulator((BinaryOperator<Object>) operator);
                if (tiered.deviceNodes != null) {
                    nodes.pushInto(tree, tiered.deviceFrom);
                    for (Object node : tiered.deviceNodes) {
                        tree.push(node, tiered.deviceLevel);
                    }
                } else {
                    nodes.pushInto(tree, nodes.length());
                }
                value = tree.root(identity);
            } catch (Throwable e) { // a lambda's exception, maybe a checked one thrown sneakily: Java's path meets it as written
                Explain.tieredTakeover(() -> operation.get() + ": its first apply met an exception (" + e + "); it ran again as Java runs it, which throws Java's exception");
                return new Result(inJava.get(), null);
            }
        } finally {
            AfterApply.defer(() -> tiered.startCompilation(0)); // for the next apply, if this one never needed it
        }
        if (tiered.deviceNodes != null) {
            long from = tiered.deviceFrom;
            Profiler.device("Java threads, then " + device.device().name() + " (tiering)");
            Explain.tieredTakeover(() -> operation.get() + ": elements 0 to " + (from - 1) + " ran on Java threads while its kernel compiled, " + from + " to "
                            + (input.length() - 1) + " on the device; their nodes of the one combining tree were combined on the host");
        } else {
            tiered.explainNoTakeover();
        }
        return new Result(value, outcome);
    }

    @Override
    KernelCache.Compiled readyKernel() {
        return kernels.reduceKernelIfReady(type, mappers);
    }

    /**
     * The device's part, from the first whole work-group at or after {@code first}; the leaves
     * before that group run on Java threads meanwhile. Returns {@code length} when the device ran its
     * part, {@code first} when Java must run everything from there (a kernel exit, a failed launch).
     */
    @Override
    public long run(long first, long length) {
        DeviceContext context;
        long localSize;
        try {
            context = OpenCLRuntime.context(device);
            localSize = DeviceReduce.localSize(context, type);
        } catch (OpenCLRuntimeException e) {
            declined = "its launch cannot be made: " + e.getMessage();
            return first;
        }
        long leavesPerGroup = DeviceReduce.firstPassLeavesPerGroup(kernel, localSize);
        long groupElements = CombiningTree.LEAF * leavesPerGroup;
        long from = (first + groupElements - 1) / groupElements * groupElements;
        if (from >= length) {
            declined = "too few elements were left for one of its work-groups";
            return first;
        }
        // the leaves before the device's first group: on Java threads (the workers, as they finish their chunks) while the device runs
        ForkJoinTask<?> gap = from > first ? ForkJoinPool.commonPool().submit(() -> javaNodes.runOnThreads(first, from)) : null;
        boolean ran = false;
        try {
            ran = runOnDevice(context, localSize, leavesPerGroup, from, length);
        } finally {
            if (gap != null) {
                gap.join(); // rethrows a Java exception of the gap, which lies before the device's part
            }
            if (!ran) {
                javaNodes.discardFrom(first);
            }
        }
        return ran ? length : first;
    }

    /** The first pass over the groups from element {@code from} on; false (said why) when Java must run them. */
    private boolean runOnDevice(DeviceContext context, long localSize, long leavesPerGroup, long from, long length) {
        long groupElements = CombiningTree.LEAF * leavesPerGroup;
        long firstGroup = from / groupElements;
        long endGroup = (length + groupElements - 1) / groupElements;
        try (PArray<?> partials = PArray.allocateUninitialized(type, endGroup)) {
            KernelBinding binding = new KernelBinding(kernel).common(input).reduction(identity, partials, localSize, CombiningTree.LEAF, leavesPerGroup);
            KernelLaunch launch = binding.launch();
            // the groups' nodes come back within the launch: the host combines them at once
            launch.localSize(localSize).globalSize((endGroup - firstGroup) * localSize).firstItem(firstGroup * localSize).keepResultOnDevice(false);
            LaunchResult result = context.launch(kernel.kernel(), launch);
            KernelBinding.checkStatus(result);
            Object[] nodes = new Object[Math.toIntExact(endGroup - firstGroup)];
            for (int g = 0; g < nodes.length; g++) {
                nodes[g] = partials.get(firstGroup + g);
            }
            deviceNodes = nodes;
            deviceLevel = Long.numberOfTrailingZeros(leavesPerGroup);
            deviceFrom = from;
            return true;
        } catch (KernelDeoptimizedException e) {
            KernelExits.handle(operation.get(), e, "its elements from " + from + " on re-ran in Java", length - from, functions);
            declined = "its kernel exited";
            return false;
        } catch (OpenCLRuntimeException e) {
            launchFailed(e);
            return false;
        }
    }

    @Override
    void compile(long delayNanos) {
        kernels.startReduceCompilation(type, mappers, () -> OpenCLRuntime.context(device), delayNanos);
    }
}
