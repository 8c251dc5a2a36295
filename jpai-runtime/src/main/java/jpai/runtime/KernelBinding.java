package jpai.runtime;

import java.lang.reflect.Array;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.PArray;
import jpai.Tuple;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelStatus;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * Binds a generated kernel's parameters, by their roles, to an apply's data: input and output
 * components, captured values (read from the functional objects at each launch, so a captured array
 * changed between applies is seen), identities, partial results, local scratch, the length and the
 * status words.
 */
final class KernelBinding {

    private final KernelLaunch launch = new KernelLaunch();
    private final List<KernelParameter> parameters;
    private final Object[] captureValues;

    /** The 2-D captured arrays of this launch, flattened once per slot. */
    private final FlatRows[] flattened;

    /** A rectangular 2-D array as the kernel takes it: its rows one after the other, their number and length. */
    private record FlatRows(Object elements, int rows, int rowLength) {
    }

    private final List<ComponentBuffer> capturedBuffers = new java.util.ArrayList<>();

    KernelBinding(KernelCache.Compiled compiled) {
        this.parameters = compiled.kernel().parameters();
        this.captureValues = compiled.captureValues();
        this.flattened = new FlatRows[captureValues.length];
    }

    /**
     * The value of captured slot {@code slot} for this launch. An object on the way to it that is
     * null means the kernel cannot run this apply: Java runs it (and throws where an element reads
     * through the null object).
     */
    private Object capture(int slot) {
        Object value = captureValues[slot];
        if (value instanceof KernelShapes.NullOnPath nullOnPath) {
            throw new KernelDeoptimizedException(nullOnPath.reason());
        }
        return value;
    }

    KernelLaunch launch() {
        return launch;
    }

    /** The buffers of the captured {@code PArray}s bound by {@link #common}, which the kernel may read at any index. */
    List<ComponentBuffer> capturedBuffers() {
        return capturedBuffers;
    }

    /** Binds the roles every skeleton has: inputs, captured values, the length and the status. */
    KernelBinding common(PArray<?> input) {
        return common(input, input.length());
    }

    /**
     * {@link #common(PArray)} with the length argument {@code lengthBound} (at most the input's
     * length): work-items from there on do nothing. A part of a split map ends there.
     */
    KernelBinding common(PArray<?> input, long lengthBound) {
        for (KernelParameter parameter : parameters) {
            int index = parameter.index();
            switch (parameter.role()) {
                case INPUT_BUFFER -> launch.readBuffer(index, PArrayStorage.buffer(input, parameter.slot()));
                case CAPTURED_SCALAR -> {
                    Object value = capture(parameter.slot());
                    // a null box passes 0, and -1 as its length argument, which its null checks test
                    launch.scalar(index, parameter.kind(), value != null ? value : zeroOf(parameter.kind()));
                }
                case CAPTURED_ARRAY -> {
                    Object value = capture(parameter.slot());
                    if (value instanceof Object[] rows) {
                        launch.readArray(index, flat(parameter.slot(), rows).elements());
                    } else if (value instanceof PArray<?> array) {
                        launch.readBuffer(index, PArrayStorage.buffer(array, 0));
                        capturedBuffers.add(PArrayStorage.buffer(array, 0));
                    } else if (value == null) {
                        // a null array: its length argument is -1, which the kernel's null checks test
                        launch.readArray(index, NULL_ARRAY_STAND_IN);
                    } else {
                        launch.readArray(index, value);
                    }
                }
                case CAPTURED_ARRAY_LENGTH -> {
                    Object value = capture(parameter.slot());
                    launch.scalar(index, JavaKind.Int, value instanceof Object[] rows ? flat(parameter.slot(), rows).rows() : lengthOf(value));
                }
                case CAPTURED_ROW_LENGTH -> {
                    // a null 2-D array has no rows to read; its length argument, -1, makes every use exit first
                    Object value = capture(parameter.slot());
                    launch.scalar(index, JavaKind.Int, value instanceof Object[] rows ? flat(parameter.slot(), rows).rowLength() : 0);
                }
                case LENGTH -> launch.scalar(index, JavaKind.Long, Math.min(lengthBound, input.length()));
                case BASE_INDEX -> launch.scalar(index, JavaKind.Long, 0L).baseIndexArgument(index);
                case STATUS -> launch.status(index);
                case UNWRITTEN_STATUS -> launch.unwrittenStatus(index);
                default -> {
                    // the skeleton's own roles, bound by its methods below
                }
            }
        }
        return this;
    }

    /** A map's output components. */
    KernelBinding outputs(PArray<?> output) {
        for (KernelParameter parameter : parameters) {
            if (parameter.role() == KernelParameter.Role.OUTPUT_BUFFER) {
                launch.writeBuffer(parameter.index(), PArrayStorage.buffer(output, parameter.slot()));
            }
        }
        return this;
    }

    /** A map's index space: the extent of each dimension, outermost first ({@code PArrayStorage.rangeExtents}). */
    KernelBinding indexExtents(int[] extents) {
        for (KernelParameter parameter : parameters) {
            if (parameter.role() == KernelParameter.Role.INDEX_EXTENT) {
                launch.scalar(parameter.index(), JavaKind.Long, (long) extents[parameter.slot()]);
            }
        }
        return this;
    }

    /**
     * A reduction pass's identity, partial-result buffers, local scratch for {@code localSize}
     * work-items ({@link DeviceReduce#localSlotsPerWorkItem} each) and leaf width.
     */
    KernelBinding reduction(Object identity, PArray<?> partials, long localSize, long leafWidth) {
        return reduction(identity, partials, localSize, leafWidth, localSize);
    }

    /** As {@link #reduction(Object, PArray, long, long)}, each work-group folding and combining {@code leavesPerGroup} leaves (a kernel that declares {@code LEAVES_PER_GROUP}). */
    KernelBinding reduction(Object identity, PArray<?> partials, long localSize, long leafWidth, long leavesPerGroup) {
        long slots = localSize * DeviceReduce.localSlotsPerWorkItem(leafWidth);
        for (KernelParameter parameter : parameters) {
            int slot = parameter.slot();
            switch (parameter.role()) {
                case IDENTITY -> launch.scalar(parameter.index(), parameter.kind(), identity instanceof Tuple tuple ? tuple.get(slot) : identity);
                case PARTIAL_BUFFER -> launch.writeBuffer(parameter.index(), PArrayStorage.buffer(partials, slot));
                case LOCAL_SCRATCH -> launch.local(parameter.index(), slots * Math.max(1, parameter.kind().getByteCount()));
                case LEAF_WIDTH -> launch.scalar(parameter.index(), JavaKind.Long, leafWidth);
                case LEAVES_PER_GROUP -> launch.scalar(parameter.index(), JavaKind.Long, leavesPerGroup);
                default -> {
                }
            }
        }
        return this;
    }

    /**
     * A keyed reduction's per-chunk kernel (a work-item or a work-group per chunk): the identity, the
     * chunks' rows of partial values, the chunk length, the number of keys and, for each local
     * scratch, {@code localSlots} values of its kind.
     */
    KernelBinding keyedChunks(Object identity, PArray<?> partials, long chunkLength, int keyCount, long localSlots) {
        for (KernelParameter parameter : parameters) {
            int slot = parameter.slot();
            switch (parameter.role()) {
                case IDENTITY -> launch.scalar(parameter.index(), parameter.kind(), identity instanceof Tuple tuple ? tuple.get(slot) : identity);
                case PARTIAL_BUFFER -> launch.writeBuffer(parameter.index(), PArrayStorage.buffer(partials, slot));
                case LEAF_WIDTH -> launch.scalar(parameter.index(), JavaKind.Long, chunkLength);
                case KEY_COUNT -> launch.scalar(parameter.index(), JavaKind.Int, keyCount);
                case LOCAL_SCRATCH -> launch.local(parameter.index(), localSlots * Math.max(1, parameter.kind().getByteCount()));
                default -> {
                }
            }
        }
        return this;
    }

    /**
     * A keyed reduction's number of keys and, for the atomic kernel, its result ({@code result}, the
     * identity everywhere, sent and read back into {@code readBack}) and {@code localBytes} of local bins.
     */
    KernelBinding keyed(int keyCount, Object result, java.nio.ByteBuffer readBack, long localBytes) {
        for (KernelParameter parameter : parameters) {
            switch (parameter.role()) {
                case KEY_COUNT -> launch.scalar(parameter.index(), JavaKind.Int, keyCount);
                case KEYED_RESULT -> launch.readWriteArray(parameter.index(), result, readBack);
                case LOCAL_SCRATCH -> launch.local(parameter.index(), localBytes);
                default -> {
                }
            }
        }
        return this;
    }

    /**
     * A scan level's identity, carries into its groups, outputs, local scratch for {@code localSize}
     * work-items ({@link DeviceScan#localSlotsPerWorkItem} each), leaf width and whether its outputs
     * are exclusive.
     */
    KernelBinding scanLevel(Object identity, PArray<?> carries, PArray<?> outputs, long localSize, long leafWidth, boolean exclusive) {
        long slots = localSize * DeviceScan.localSlotsPerWorkItem(leafWidth);
        for (KernelParameter parameter : parameters) {
            int slot = parameter.slot();
            switch (parameter.role()) {
                case IDENTITY -> launch.scalar(parameter.index(), parameter.kind(), identity instanceof Tuple tuple ? tuple.get(slot) : identity);
                case CARRY_BUFFER -> launch.readBuffer(parameter.index(), PArrayStorage.buffer(carries, slot)); // none in a single-pass scan
                case OUTPUT_BUFFER -> launch.writeBuffer(parameter.index(), PArrayStorage.buffer(outputs, slot));
                case LOCAL_SCRATCH -> launch.local(parameter.index(), slots * Math.max(1, parameter.kind().getByteCount()));
                case LEAF_WIDTH -> launch.scalar(parameter.index(), JavaKind.Long, leafWidth);
                case SCAN_EXCLUSIVE -> launch.scalar(parameter.index(), JavaKind.Int, exclusive ? 1 : 0);
                default -> {
                }
            }
        }
        return this;
    }

    /** The single-pass scan's node words ({@code ScanKernelSpec.singlePassWordInts}), written and read by the kernel. */
    KernelBinding singlePass(PArray<?> words) {
        for (KernelParameter parameter : parameters) {
            if (parameter.role() == KernelParameter.Role.NODE_WORDS) {
                launch.writeBuffer(parameter.index(), PArrayStorage.buffer(words, 0));
            } else if (parameter.role() == KernelParameter.Role.SPIN_LIMIT) {
                launch.scalar(parameter.index(), JavaKind.Long, SinglePass.spinLimit());
            }
        }
        return this;
    }

    /**
     * A single-pass filter's ({@code FilterKernel}) outputs (room for every element), node words
     * (zeroed), the kept total (written by the kernel, read back into {@code totalReadBack}) and
     * local memory for {@code localSize} work-items.
     */
    KernelBinding singlePassFilter(PArray<?> output, PArray<?> words, java.nio.ByteBuffer totalReadBack, long localSize) {
        for (KernelParameter parameter : parameters) {
            int index = parameter.index();
            switch (parameter.role()) {
                case OUTPUT_BUFFER -> launch.writeBuffer(index, PArrayStorage.buffer(output, parameter.slot()));
                case NODE_WORDS -> launch.writeBuffer(index, PArrayStorage.buffer(words, 0));
                case KEPT_TOTAL -> launch.writtenValues(index, totalReadBack);
                case SPIN_LIMIT -> launch.scalar(index, JavaKind.Long, SinglePass.spinLimit());
                case LOCAL_SCRATCH -> launch.local(index, jpai.ocl.FilterKernel.localBytes(localSize));
                default -> {
                }
            }
        }
        return this;
    }

    /**
     * A compaction kernel's flags, group counts, group offsets and output components (each bound
     * where the kernel has the role; those in {@code written} as buffers the kernel writes, the
     * others as buffers it reads) and local scratch of {@code scratchPerWorkItem} values per work-item of {@code localSize}.
     */
    KernelBinding compaction(PArray<?> kept, PArray<?> groupCounts, PArray<?> groupOffsets, PArray<?> output, long localSize, long scratchPerWorkItem,
                    java.util.Set<KernelParameter.Role> written) {
        for (KernelParameter parameter : parameters) {
            int index = parameter.index();
            PArray<?> array = switch (parameter.role()) {
                case KEPT_FLAGS -> kept;
                case GROUP_COUNTS -> groupCounts;
                case GROUP_OFFSETS -> groupOffsets;
                case OUTPUT_BUFFER -> output;
                default -> null;
            };
            if (array != null) {
                ComponentBuffer buffer = PArrayStorage.buffer(array, parameter.role() == KernelParameter.Role.OUTPUT_BUFFER ? parameter.slot() : 0);
                if (written.contains(parameter.role())) {
                    launch.writeBuffer(index, buffer);
                } else {
                    launch.readBuffer(index, buffer);
                }
            } else if (parameter.role() == KernelParameter.Role.LOCAL_SCRATCH) {
                launch.local(index, localSize * scratchPerWorkItem * parameter.kind().getByteCount());
            }
        }
        return this;
    }

    /**
     * A captured 2-D primitive array {@code rows}, read now (a write into it between applies is
     * seen), as one buffer. Only a rectangular one: a null row or rows of different lengths make
     * Java run this apply, which gives Java's result or throws Java's exception at the element that
     * meets the null row or the short one.
     */
    private FlatRows flat(int slot, Object[] array) {
        if (flattened[slot] != null) {
            return flattened[slot];
        }
        Object[] rows = array.clone(); // each row read once, also when another thread replaces one meanwhile
        String type = rows.getClass().getComponentType().getComponentType().getName() + "[][]";
        int rowLength = 0;
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] == null) {
                throw new KernelDeoptimizedException("row " + i + " of a captured " + type + " is null, so the array is not rectangular and cannot be one buffer on the device");
            }
            int length = Array.getLength(rows[i]);
            if (i == 0) {
                rowLength = length;
            } else if (length != rowLength) {
                throw new KernelDeoptimizedException("the rows of a captured " + type + " have different lengths (row 0 has " + rowLength + " elements, row " + i + " has "
                                + length + "), so the array is not rectangular and cannot be one buffer on the device");
            }
        }
        long elements = (long) rows.length * rowLength;
        if (elements > Integer.MAX_VALUE) {
            throw new KernelDeoptimizedException("a captured " + type + " has " + elements + " elements, more than a kernel's int index reaches in one buffer");
        }
        Object elementsOfAllRows = Array.newInstance(rows.getClass().getComponentType().getComponentType(), (int) elements);
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, elementsOfAllRows, i * rowLength, rowLength);
        }
        flattened[slot] = new FlatRows(elementsOfAllRows, rows.length, rowLength);
        return flattened[slot];
    }

    /** Throws if the kernel left the device path at some element. */
    static void checkStatus(LaunchResult result) {
        checkStatus(result, null);
    }

    /** As {@link #checkStatus(LaunchResult)}, naming the element's indices in {@code indexSpace} (its extents, or null). */
    static void checkStatus(LaunchResult result, int[] indexSpace) {
        if (result.hasStatus() && result.status(0) != 0) {
            throw new KernelDeoptimizedException(result.status(0), KernelStatus.element(result.status(0), result.status(1)), indexSpace);
        }
    }

    /** What a null captured array's buffer argument points to: a kernel never reads it (its length is -1). */
    private static final byte[] NULL_ARRAY_STAND_IN = new byte[8];

    /** The {@code int} length argument of a captured array or box: -1 for null, 1 for a box. */
    private static Integer lengthOf(Object array) {
        if (array == null) {
            return -1;
        }
        if (!(array instanceof PArray<?>) && !array.getClass().isArray()) {
            return 1; // a box that is there
        }
        long length = array instanceof PArray<?> parray ? parray.length() : Array.getLength(array);
        if (length > Integer.MAX_VALUE) {
            throw new OpenCLRuntimeException("a captured PArray of " + length + " elements is too long for a kernel's int index");
        }
        return (int) length;
    }

    /** The zero of {@code kind} as its wrapper, for a null captured box (never read: its null check exits first). */
    private static Object zeroOf(JavaKind kind) {
        return switch (kind) {
            case Boolean -> Boolean.FALSE;
            case Byte -> (byte) 0;
            case Short -> (short) 0;
            case Char -> (char) 0;
            case Int -> 0;
            case Long -> 0L;
            case Float -> 0f;
            case Double -> 0d;
            default -> throw new IllegalArgumentException("a captured box of " + kind);
        };
    }
}
