package jpai.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.PArray;
import jpai.compiler.loops.ReductionOperator;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;
import jpai.ocl.KeyedReduceKernels;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.runtime.exec.KeyedChunks;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;

/**
 * Runs a keyed reduction's combining step on a device, the keys (an {@code int} array) and values
 * computed already: with atomics for {@code int} values and an operator recognised as
 * order-independent, else in {@link KeyedChunks}' fixed order (two kernels, one wait). A key out of
 * range, or an exit of the combiner, throws {@link KernelDeoptimizedException}: the caller re-runs
 * the operation in Java, which throws Java's exception at Java's element.
 */
final class DeviceKeyedReduce {

    /** Work-items per group of the atomic kernel. */
    private static final long ATOMIC_GROUP = 256;

    /** Groups of the atomic kernel per compute unit: each loops over elements with the global size as its stride. */
    private static final long GROUPS_PER_COMPUTE_UNIT = 8;

    /** Local memory left to the OpenCL compiler besides the atomic kernel's bins. */
    private static final long LOCAL_MEMORY_RESERVE = 1024;

    /** Work-items per group of the ordered kernels (one chunk or one key each). */
    private static final long ORDERED_GROUP = 64;

    /** The atomic kernels, generated once per operator and bin placement (they contain no user code). */
    private static final ConcurrentHashMap<List<Object>, KernelSource> ATOMIC_KERNELS = new ConcurrentHashMap<>();

    private DeviceKeyedReduce() {
    }

    /** Whether {@link #atomic} runs values of {@code type} combined with {@code operator}. */
    static boolean atomicApplies(DataType type, ReductionOperator operator) {
        return type == jpai.ElementType.INT && KeyedReduceKernels.hasAtomic(JavaKind.Int, operator);
    }

    /**
     * {@code result[keys[i]] = operator(result[keys[i]], values[i])} with atomics, {@code result}
     * starting at {@code identity} everywhere; returns the {@code keyCount} results ({@code keyCount}
     * at least 1).
     */
    static int[] atomic(DeviceContext context, ReductionOperator operator, int identity, PArray<Integer> keys, PArray<Integer> values, int keyCount) {
        int[] result = new int[keyCount];
        java.util.Arrays.fill(result, identity);
        long n = keys.length();
        if (n == 0) {
            return result;
        }
        long localSize = Long.highestOneBit(Math.min(ATOMIC_GROUP, context.device().maxWorkGroupSize()));
        boolean localBins = (long) keyCount * Integer.BYTES <= context.device().localMemoryBytes() - LOCAL_MEMORY_RESERVE;
        KernelSource source = ATOMIC_KERNELS.computeIfAbsent(List.of(operator, localBins),
                        key -> new KeyedReduceKernels(new OpenCLKernelGenerator()).atomic(JavaKind.Int, operator, localBins));
        long groups = Math.max(1, Math.min((n + localSize - 1) / localSize, GROUPS_PER_COMPUTE_UNIT * Math.max(1, context.device().maxComputeUnits())));
        ByteBuffer readBack = ByteBuffer.allocateDirect(keyCount * Integer.BYTES).order(ByteOrder.nativeOrder());
        KernelLaunch launch = new KernelLaunch();
        for (KernelParameter parameter : source.parameters()) {
            int index = parameter.index();
            switch (parameter.role()) {
                case KEY_BUFFER -> launch.readBuffer(index, PArrayStorage.buffer(keys, 0));
                case INPUT_BUFFER -> launch.readBuffer(index, PArrayStorage.buffer(values, 0));
                case KEYED_RESULT -> launch.readWriteArray(index, result, readBack);
                case LOCAL_SCRATCH -> launch.local(index, localBins ? Math.max(1, keyCount) * (long) Integer.BYTES : Integer.BYTES);
                case KEY_COUNT -> launch.scalar(index, JavaKind.Int, keyCount);
                case LENGTH -> launch.scalar(index, JavaKind.Long, n);
                case STATUS -> launch.status(index);
                default -> throw new IllegalStateException("the atomic keyed kernel has an argument of role " + parameter.role());
            }
        }
        launch.localSize(localSize).globalSize(groups * localSize);
        LaunchResult launched = context.launch(source, launch);
        KernelBinding.checkStatus(launched);
        readBack.asIntBuffer().get(result);
        return result;
    }

    /**
     * The per-key results in {@link KeyedChunks}' order: {@code chunks} folds each chunk into a row of
     * partial values, {@code combine} folds the rows; returns an array of {@code keyCount} values
     * the caller owns.
     */
    static PArray<?> ordered(DeviceContext context, KernelCache.Compiled chunks, KernelCache.Compiled combine, Object identity, DataType type, PArray<Integer> keys,
                    PArray<?> values, int keyCount) {
        long n = keys.length();
        long chunkLength = KeyedChunks.chunkLength(n, keyCount);
        long chunkCount = KeyedChunks.chunks(n, chunkLength);
        long localSize = Long.highestOneBit(Math.min(ORDERED_GROUP, context.device().maxWorkGroupSize()));
        PArray<?> result = PArray.allocateUninitialized(type, keyCount); // every key is written
        try (PArray<?> partials = PArray.allocateUninitialized(type, chunkCount * keyCount)) {
            KernelBinding first = new KernelBinding(chunks).common(values).reduction(identity, partials, localSize, chunkLength).keyed(keys, keyCount);
            first.launch().localSize(localSize).globalSize(DeviceMap.roundUp(chunkCount, localSize));
            KernelBinding second = new KernelBinding(combine).common(partials).reduction(identity, result, localSize, 1).keyed(null, keyCount);
            second.launch().localSize(localSize).globalSize(DeviceMap.roundUp(keyCount, localSize));
            List<LaunchResult> launched = context.launchSequence(List.of(chunks.kernel(), combine.kernel()), List.of(first.launch(), second.launch()));
            for (LaunchResult one : launched) {
                KernelBinding.checkStatus(one);
            }
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }
}
