package jpai.ocl;

import jdk.vm.ci.meta.JavaKind;

/**
 * One argument of a generated kernel, in the order {@code clSetKernelArg} takes them.
 *
 * @param index the argument index
 * @param name the name in the OpenCL source
 * @param role what the runtime binds to it
 * @param kind the Java kind of a buffer's elements, or of a scalar ({@code int} for
 *            {@link Role#CAPTURED_ARRAY_LENGTH} and {@link Role#STATUS}, {@code long} for
 *            {@link Role#LENGTH})
 * @param slot which component or captured value it is (see each {@link Role}); 0 where the role has
 *            only one parameter
 */
public record KernelParameter(int index, String name, Role role, JavaKind kind, int slot) {

    /** What the runtime passes. */
    public enum Role {
        /** {@code __global const T *}: component {@code slot} of the flattened input elements, one value per element. */
        INPUT_BUFFER,
        /** {@code __global T *}: component {@code slot} of the flattened output elements, one value per element. */
        OUTPUT_BUFFER,
        /** {@code const T}: captured value {@code slot} (a primitive, or the value of a boxed primitive). */
        CAPTURED_SCALAR,
        /** {@code __global const T *}: the elements of captured array {@code slot}, read-only. */
        CAPTURED_ARRAY,
        /**
         * {@code __global T *}: the elements of array argument {@code slot} of an accelerated method,
         * which the kernel writes (and may read): sent before the launch, and copied back into the
         * Java array after it only when the kernel finished without an exit.
         */
        WRITTEN_ARRAY,
        /**
         * {@code const int}: the length of captured array {@code slot}, -1 for a null array (for a
         * 2-D array its number of rows; for a captured box 1, or -1 for null).
         */
        CAPTURED_ARRAY_LENGTH,
        /**
         * {@code const int}: the length of every row of captured 2-D array {@code slot}, whose
         * {@link #CAPTURED_ARRAY} holds the rows one after the other (the runtime sends only
         * rectangular arrays).
         */
        CAPTURED_ROW_LENGTH,
        /** {@code const T}: component {@code slot} of the reduction's identity element. */
        IDENTITY,
        /** {@code __global T *}: component {@code slot} of each work-group's partial result, one value per work-group. */
        PARTIAL_BUFFER,
        /**
         * {@code __local T *}: scratch for component {@code slot}; the runtime passes a null pointer
         * and a size of local size × element size, times leaf width + 1 for a pass whose leaf width is
         * more than one (the first pass's padded tile).
         */
        LOCAL_SCRATCH,
        /**
         * {@code const long base}: the index of a map launch's first element (for a map over a 2-D or
         * 3-D index space, its first index in the outermost dimension). The runtime sets it for
         * each enqueue of a launch split into several, instead of a global work offset: how wide a
         * driver keeps offsets and ids past 2^31 is its own choice (issue 11, element 2^31 on the H100).
         */
        BASE_INDEX,
        /**
         * {@code const long extent<slot>}: the number of indices in dimension {@code slot} of a map's
         * index space, the outermost (row) dimension being slot 0 (see
         * {@link MapKernelSpec#indexDimensions()}).
         */
        INDEX_EXTENT,
        /**
         * {@code __global const T *}: component {@code slot} of the carry into each work-group of a
         * scan level (one value per work-group; see {@code OpenCLKernelGenerator.scan}).
         */
        CARRY_BUFFER,
        /** {@code const int exclusive}: 1 for a scan level whose outputs exclude their own element (every level above the first), else 0. */
        SCAN_EXCLUSIVE,
        /**
         * {@code __global int *}: the single-pass scan's counter of started work-groups ({@code [0]}),
         * a pad, then the nodes of the tree over the work-groups' values as 64-bit words that flag
         * themselves ({@link ScanKernelSpec#singlePassWordInts}); zero before the launch.
         */
        NODE_WORDS,
        /**
         * {@code __global int *jpai_status} of a kernel none of whose functions can exit (no exception
         * path, no guard): its code never writes it, so it is bound to a buffer nobody zeroes or reads.
         */
        UNWRITTEN_STATUS,
        /** {@code __global const uchar *}: a filter's flags, 1 for each element kept, 0 for the others (see {@link CompactionKernels}). */
        KEPT_FLAGS,
        /** {@code __global int *}: the number of kept elements of each work-group of a compaction. */
        GROUP_COUNTS,
        /** {@code __global long *}: where each work-group's kept elements start in the output, then the total (one value more than the groups). */
        GROUP_OFFSETS,
        /**
         * {@code const long spinLimit}: the most polls of a single-pass kernel's wait for an earlier
         * work-group before it gives up ({@link DeoptReason#NO_FORWARD_PROGRESS}); negative: give up at
         * the first wait (tests).
         */
        SPIN_LIMIT,
        /** {@code __global long *}: where a single-pass filter ({@link FilterKernel}) leaves the number of elements it kept. */
        KEPT_TOTAL,
        /** {@code const long leafWidth}: a reduction pass's elements per leaf (see {@code OpenCLKernelGenerator.reduce}). */
        LEAF_WIDTH,
        /**
         * {@code const long leavesPerGroup}: the leaves one work-group of a reduction's first pass folds
         * and combines, a power of two: the local size divided by the leaf width in a kernel whose mapper
         * has loops (one element mapped per work-item), the local size in the passes after the first. A
         * reduce kernel has it only where it maps one element per work-item ({@code OpenCLKernelGenerator.reduce}).
         */
        LEAVES_PER_GROUP,
        /** {@code const int keyCount}: the number of keys of a keyed reduction ({@code KeyedReduceKernels}), the length of its result. */
        KEY_COUNT,
        /**
         * {@code __global T *result}: a keyed reduction's result, which the kernel updates with atomics:
         * the runtime sends it filled with the identity and reads it back after the kernel.
         */
        KEYED_RESULT,
        /** {@code const long n}: the number of elements. */
        LENGTH,
        /**
         * {@code __global int *jpai_status}: two ints the runtime zeroes before the launch. After
         * it, {@code [0]} is 0 or a {@link DeoptReason#code()} (the first work-item to fail wins), and
         * {@code [1]} the index of that work-item's element, saturated to {@code Integer.MAX_VALUE}.
         */
        STATUS
    }
}
