package jpai.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.ElementType;
import jpai.PArray;
import jpai.compiler.loops.ReductionOperator;
import jpai.ocl.KeyedReduceKernels;
import jpai.runtime.exec.KeyedChunks;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchResult;

/**
 * Runs a keyed reduction on a device, each element's key and value computed inside the kernels
 * ({@code KeyedReduceKernels}): with atomics for {@code int} values ({@code long}s where the device
 * has 64-bit atomics) and an operator recognised as order-independent, else in {@link KeyedChunks}' fixed order (two kernels, one wait). A key out of
 * range, or an exit of one of the functions, throws {@link KernelDeoptimizedException}: the caller
 * re-runs the operation in Java, which throws Java's exception at Java's element.
 */
final class DeviceKeyedReduce {

    /** Work-items per group of the atomic kernel. */
    private static final long ATOMIC_GROUP = 256;

    /**
     * Groups of the atomic kernel per compute unit: each loops over elements with the global size as
     * its stride, so that each group's local bins are set up and added to the result once for many
     * elements.
     */
    private static final long GROUPS_PER_COMPUTE_UNIT = 8;

    /** Local memory left to the OpenCL compiler besides the atomic kernel's bins. */
    private static final long LOCAL_MEMORY_RESERVE = 1024;

    /** Work-items per group of the ordered kernels (one chunk or one key each). */
    private static final long ORDERED_GROUP = 64;

    /** Work-items per group of the shared-chunk kernel (a chunk per group, the keys shared out among them). */
    private static final long SHARED_GROUP = 256;

    /**
     * Chunks per compute unit below which the ordered strategy gives each chunk a work-group on a
     * device that is not a CPU ({@code KeyedReduceKernels.sharedChunks}): with many keys few chunks
     * fit in the partial values' memory ({@link KeyedChunks}), and a work-item per chunk leaves most of
     * a GPU idle (65,536 float keys of 2^28 elements took 1.4 s on the H200: 64 work-items). A CPU's
     * few cores are busy with a work-item per chunk, and the shared kernel's walk of every tile by
     * every work-item costs it ten times more (PoCL, 2^20 elements).
     */
    static final long SHARED_CHUNKS_BELOW_PER_COMPUTE_UNIT = 64;

    /**
     * Whether {@link #ordered} gives each chunk a work-group, for {@code keyCount} keys over
     * {@code n} elements; {@code -Djpai.keyed.sharedChunks=true|false} forces either kernel
     * (measurements, tests).
     */
    static boolean sharedChunks(DeviceContext context, long n, int keyCount) {
        String forced = System.getProperty("jpai.keyed.sharedChunks");
        if (forced != null) {
            return Boolean.parseBoolean(forced);
        }
        if (context.device().kind() == jpai.runtime.device.DeviceKind.CPU) {
            return false;
        }
        long chunks = KeyedChunks.chunks(n, KeyedChunks.chunkLength(n, keyCount));
        return chunks < SHARED_CHUNKS_BELOW_PER_COMPUTE_UNIT * Math.max(1, context.device().maxComputeUnits());
    }

    /** The shared-chunk kernel's work-group size: a power of two the device and its local memory allow. */
    private static long sharedLocalSize(DeviceContext context, DataType type) {
        long bytesPerSlot = Integer.BYTES;
        for (JavaKind kind : KernelShapes.kinds(type)) {
            bytesPerSlot += Math.max(1, kind.getByteCount());
        }
        long fits = (context.device().localMemoryBytes() - LOCAL_MEMORY_RESERVE) / (bytesPerSlot * KeyedReduceKernels.SHARED_ELEMENTS_PER_WORK_ITEM);
        return Long.highestOneBit(Math.max(1, Math.min(Math.min(SHARED_GROUP, context.device().maxWorkGroupSize()), fits)));
    }

    private DeviceKeyedReduce() {
    }

    /**
     * Whether values of {@code type} combined with {@code operator} run with atomics on this device:
     * {@code int}s always, {@code long}s where the device lists the 64-bit atomics extension the
     * operator needs.
     */
    static boolean atomicApplies(DeviceContext context, DataType type, ReductionOperator operator) {
        if (type == ElementType.INT) {
            return KeyedReduceKernels.hasAtomic(JavaKind.Int, operator);
        }
        return type == ElementType.LONG && KeyedReduceKernels.hasAtomic(JavaKind.Long, operator) && context.hasExtension(KeyedReduceKernels.INT64_BASE_ATOMICS)
                        && context.hasExtension(KeyedReduceKernels.int64Extension(operator));
    }

    /** Whether the atomic kernel keeps per-group bins for {@code keyCount} values of {@code type} in the device's local memory. */
    static boolean localBins(DeviceContext context, DataType type, int keyCount) {
        return (long) keyCount * bytes(type) <= context.device().localMemoryBytes() - LOCAL_MEMORY_RESERVE;
    }

    private static int bytes(DataType type) {
        return type == ElementType.LONG ? Long.BYTES : Integer.BYTES;
    }

    /**
     * The {@code keyCount} (at least 1) results of the atomic kernel {@code compiled} over
     * {@code input}, each starting at {@code identity} (an {@code Integer} or a {@code Long}), as an
     * array the caller owns.
     */
    static PArray<?> atomic(DeviceContext context, KernelCache.Compiled compiled, boolean localBins, Object identity, PArray<?> input, int keyCount) {
        boolean wide = identity instanceof Long;
        int valueBytes = wide ? Long.BYTES : Integer.BYTES;
        Object result;
        if (wide) {
            long[] longs = new long[keyCount];
            java.util.Arrays.fill(longs, (Long) identity);
            result = longs;
        } else {
            int[] ints = new int[keyCount];
            java.util.Arrays.fill(ints, (Integer) identity);
            result = ints;
        }
        long n = input.length();
        long localSize = Long.highestOneBit(Math.min(ATOMIC_GROUP, context.device().maxWorkGroupSize()));
        long groups = Math.max(1, Math.min((n + localSize - 1) / localSize, GROUPS_PER_COMPUTE_UNIT * Math.max(1, context.device().maxComputeUnits())));
        ByteBuffer readBack = ByteBuffer.allocateDirect(keyCount * valueBytes).order(ByteOrder.nativeOrder());
        KernelBinding binding = new KernelBinding(compiled).common(input).keyed(keyCount, result, readBack, localBins ? (long) keyCount * valueBytes : valueBytes);
        binding.launch().localSize(localSize).globalSize(groups * localSize);
        LaunchResult launched = context.launch(compiled.kernel(), binding.launch());
        KernelBinding.checkStatus(launched);
        if (wide) {
            long[] longs = (long[]) result;
            readBack.asLongBuffer().get(longs);
            return PArray.of(longs);
        }
        int[] ints = (int[]) result;
        readBack.asIntBuffer().get(ints);
        return PArray.of(ints);
    }

    /**
     * The per-key results in {@link KeyedChunks}' order: {@code chunks} folds each chunk of
     * {@code input} into a row of partial values, {@code combine} folds the rows; returns an array of
     * {@code keyCount} values the caller owns.
     */
    static PArray<?> ordered(DeviceContext context, KernelCache.Compiled chunks, boolean shared, KernelCache.Compiled combine, Object identity, DataType type, PArray<?> input,
                    int keyCount) {
        long n = input.length();
        long chunkLength = KeyedChunks.chunkLength(n, keyCount);
        long chunkCount = KeyedChunks.chunks(n, chunkLength);
        long localSize = Long.highestOneBit(Math.min(ORDERED_GROUP, context.device().maxWorkGroupSize()));
        PArray<?> result = PArray.allocateUninitialized(type, keyCount); // every key is written
        try (PArray<?> partials = PArray.allocateUninitialized(type, chunkCount * keyCount)) {
            KernelBinding first;
            if (shared) {
                long sharedSize = sharedLocalSize(context, type);
                first = new KernelBinding(chunks).common(input).keyedChunks(identity, partials, chunkLength, keyCount, sharedSize * KeyedReduceKernels.SHARED_ELEMENTS_PER_WORK_ITEM);
                first.launch().localSize(sharedSize).globalSize(chunkCount * sharedSize);
            } else {
                first = new KernelBinding(chunks).common(input).keyedChunks(identity, partials, chunkLength, keyCount, 0);
                first.launch().localSize(localSize).globalSize(DeviceMap.roundUp(chunkCount, localSize));
            }
            KernelBinding second = new KernelBinding(combine).common(partials).reduction(identity, result, localSize, 1).keyed(keyCount, null, null, 0);
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
