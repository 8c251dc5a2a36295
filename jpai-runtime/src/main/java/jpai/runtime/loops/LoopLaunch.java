package jpai.runtime.loops;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import jdk.vm.ci.meta.JavaKind;
import jpai.AF;
import jpai.PArray;
import jpai.compiler.loops.LoopBound;
import jpai.ocl.DeoptReason;
import jpai.ocl.KernelStatus;
import jpai.compiler.Speculation;
import jpai.runtime.SpeculationHistory;
import jpai.runtime.profile.Profiler;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;
import jpai.runtime.Explain;
import jpai.runtime.Offload;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.InPlaceUpdate;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.WorkGroupShape;

/**
 * One call of an accelerated method on the device: the iterations {@code first..limit-1} as
 * work-items, or for a perfect nest of 2 or 3 {@code @Parallel} loops the box of their iterations as
 * a 2-D or 3-D NDRange (NDRange dimension 0 along the innermost loop, so that neighbouring
 * work-items touch neighbouring elements of a row; the global sizes rounded up to whole work-groups,
 * the kernel's guard leaving out the work-items past the extents), the arguments bound by their kernel parameters' roles. Arrays are copied per call: each
 * array argument is sent with the launch, and each one the kernel writes is read back, into the
 * caller's array only when no iteration met a Java exception path; otherwise the caller's arrays are
 * untouched and the original body runs from the start ({@link AcceleratedMethods#NOT_RUN}). A 2-D
 * array goes as one buffer of its rows ({@link RectangularArguments}), copied back into each row. A
 * {@code PArray} is not copied: the kernel reads its resident device copy, and writes it in place
 * with an {@link InPlaceUpdate} that undoes the writes when an iteration exits. A
 * reduction's contributions, one per iteration, stay on the device and are combined there by
 * {@code AF.reduce}.
 */
final class LoopLaunch {

    /** The largest work-group, as a map's: the launcher measures which power of two up to it is fastest per kernel. */
    private static final long LARGEST_WORK_GROUP = 1024;
    /** Work-items per enqueue at most, as a map's. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    private record WrittenArray(Object array, ByteBuffer readBack) {
    }

    private LoopLaunch() {
    }

    /**
     * @param arguments the call's arguments (an instance method's receiver first): what the loop bounds read
     * @param values the kernel's captured values by slot ({@link ReceiverFields#values})
     * @param speculations what the method's kernels speculate: learns from a failed speculation, so
     *            that the next call runs a kernel compiled without it
     */
    static Object run(DeviceChoice.OpenCL device, CompiledLoop loop, Object[] arguments, Object[] values, String name, SpeculationHistory speculations) {
        Object[] boundArguments = boundArguments(arguments);
        int dimensions = loop.dimensions();
        long[] firsts = new long[dimensions];
        long[] extents = new long[dimensions];
        long iterations = 1;
        for (int d = 0; d < dimensions; d++) {
            try {
                firsts[d] = loop.firsts().get(d).valueFor(boundArguments);
                extents[d] = loop.limits().get(d).valueFor(boundArguments) - firsts[d];
            } catch (ArithmeticException e) {
                Explain.methodInJava(name, "a loop bound divides by zero for these arguments, which Java throws at");
                return AcceleratedMethods.NOT_RUN;
            } catch (IndexOutOfBoundsException | NullPointerException e) {
                Explain.methodInJava(name, "a loop bound reads a row these arguments lack (" + e.getMessage() + "), which Java throws at");
                return AcceleratedMethods.NOT_RUN;
            }
            if (extents[d] <= 0) {
                Explain.methodInJava(name, "the loop has no iteration for these arguments");
                return AcceleratedMethods.NOT_RUN;
            }
            iterations = Math.multiplyExact(iterations, extents[d]);
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = Long.highestOneBit(Math.min(LARGEST_WORK_GROUP, context.device().maxWorkGroupSize()));
        KernelLaunch launch = new KernelLaunch();
        List<WrittenArray> written = new ArrayList<>();
        List<InPlaceUpdate> updates = new ArrayList<>();
        boolean mayExit = mayExit(loop, extents, values);
        // no exit possible for these lengths: the kernel without the index checks, when there is one
        KernelSource kernel = loop.kernelFor(!mayExit);
        PArray<?> contributions = null;
        boolean launched = false;
        try {
            for (KernelParameter parameter : kernel.parameters()) {
                int index = parameter.index();
                switch (parameter.role()) {
                    case CAPTURED_SCALAR -> launch.scalar(index, parameter.kind(), values[parameter.slot()]);
                    case CAPTURED_ARRAY -> {
                        if (values[parameter.slot()] instanceof PArray<?> resident) {
                            launch.readBuffer(index, PArrayStorage.buffer(resident, 0));
                        } else if (values[parameter.slot()] instanceof Object[] rows) {
                            launch.readArray(index, RectangularArguments.flatten(rows));
                        } else {
                            launch.readArray(index, values[parameter.slot()]);
                        }
                    }
                    case WRITTEN_ARRAY -> {
                        if (values[parameter.slot()] instanceof PArray<?> resident) {
                            ComponentBuffer buffer = PArrayStorage.buffer(resident, 0);
                            launch.updateBuffer(index, buffer);
                            if (mayExit) {
                                updates.add(context.inPlaceUpdate(buffer));
                            }
                        } else {
                            Object array = values[parameter.slot()];
                            Object sent = array instanceof Object[] rows ? RectangularArguments.flatten(rows) : array;
                            ByteBuffer readBack = ArrayReadBack.bufferFor(sent);
                            launch.readWriteArray(index, sent, readBack);
                            written.add(new WrittenArray(array, readBack));
                        }
                    }
                    case CAPTURED_ARRAY_LENGTH -> launch.scalar(index, JavaKind.Int, lengthOf(values[parameter.slot()]));
                    case CAPTURED_ROW_LENGTH -> launch.scalar(index, JavaKind.Int, RectangularArguments.rowLength((Object[]) values[parameter.slot()]));
                    case OUTPUT_BUFFER -> {
                        contributions = PArray.allocate(parameter.kind().toBoxedJavaClass(), iterations);
                        launch.writeBuffer(index, PArrayStorage.buffer(contributions, 0));
                    }
                    case BASE_INDEX -> launch.scalar(index, JavaKind.Long, 0L).baseIndexArgument(index);
                    case LENGTH -> launch.scalar(index, JavaKind.Long, iterations);
                    case INDEX_EXTENT -> launch.scalar(index, JavaKind.Long, extents[parameter.slot()]);
                    // a call that cannot exit runs a kernel without a status to write (kernelFor)
                    case STATUS -> launch.status(index);
                    case UNWRITTEN_STATUS -> launch.unwrittenStatus(index);
                    default -> throw new IllegalStateException("a loop kernel has no parameter of role " + parameter.role());
                }
            }
            // A tiled kernel was written for one work-group size (its __local tiles): exactly that, never shrunk.
            long[] required = kernel.requiredLocalSize().stream().mapToLong(Long::longValue).toArray();
            if (dimensions == 1) {
                long group = required.length > 0 ? required[0] : Math.min(localSize, WorkGroupShape.powerOfTwoAtLeast(iterations));
                long globalSize = (iterations + group - 1) / group * group;
                launch.localSize(group).globalSize(globalSize).perEnqueue(MAX_WORK_ITEMS / group * group);
            } else {
                shapeIndexSpace(launch, extents, required.length > 0 ? required : null, localSize);
            }
            if (required.length == 0) {
                launch.localSizeTuned(); // a tiled kernel keeps the size its tiles were written for
            }
            launched = true;
            LaunchResult result = context.launch(kernel, launch);
            if (result.hasStatus() && result.status(0) != 0) {
                int element = KernelStatus.element(result.status(0), result.status(1));
                String at = element == Integer.MAX_VALUE ? "at an iteration past 2^31 - 1" : "at iteration " + iteration(element, firsts, extents);
                undo(updates);
                DeoptReason reason = DeoptReason.fromCode(result.status(0));
                Speculation failed = reason.speculation();
                Profiler.kernelExit(failed != null);
                Profiler.reexecuted(iterations);
                String learnt = failed == null ? "" : "; " + speculations.learn(failed);
                Offload.methodDeoptimized(name, at + ", " + reason.message() + "; the call re-ran in Java from the start" + learnt);
                return AcceleratedMethods.NOT_RUN;
            }
            for (WrittenArray array : written) {
                if (array.array() instanceof Object[] rows) {
                    RectangularArguments.copyInto(array.readBack(), rows);
                } else {
                    ArrayReadBack.copyInto(array.readBack(), array.array());
                }
            }
            Explain.methodOnDevice(name, context.device().name() + (kernel != loop.kernel() ? ", without its index checks (the arrays they check are at least as long as the loop)" : ""));
            return loop.reduction() == null ? null : combine(loop, contributions, boundArguments);
        } catch (InPlaceUpdate.UndoFailedException e) {
            throw e;
        } catch (RuntimeException | Error e) {
            if (launched) {
                try {
                    undo(updates); // the launch failed: no device write of this call may stay
                } catch (InPlaceUpdate.UndoFailedException undoFailed) {
                    undoFailed.addSuppressed(e);
                    throw undoFailed;
                }
            }
            throw e;
        } finally {
            for (InPlaceUpdate update : updates) {
                update.close();
            }
            if (contributions != null) {
                contributions.close();
            }
        }
    }

    /**
     * The arguments as the loop bounds read them: a {@code PArray} as a {@link LongSupplier} of its
     * length (the compiler knows no API class; {@code LoopBound.ArrayLength}), anything else as it is.
     */
    private static Object[] boundArguments(Object[] arguments) {
        Object[] bound = arguments;
        for (int k = 0; k < arguments.length; k++) {
            if (arguments[k] instanceof PArray<?> array) {
                if (bound == arguments) {
                    bound = arguments.clone();
                }
                bound[k] = (LongSupplier) array::length;
            }
        }
        return bound;
    }

    /**
     * Whether the kernel may leave the device path for these arguments: it has an exit (a status
     * argument), and, when its only exits are checks of its index against array lengths, one of
     * those arrays is shorter than the loop's extent. A kernel that cannot exit needs no
     * {@link InPlaceUpdate} for the {@code PArray}s it writes.
     */
    private static boolean mayExit(CompiledLoop loop, long[] extents, Object[] values) {
        if (!loop.kernel().declares(KernelParameter.Role.STATUS)) {
            return false;
        }
        if (loop.indexExitLengths() == null) {
            return true;
        }
        for (int capture : loop.indexExitLengths()) {
            if (extents[0] > lengthOf(values[capture])) {
                return true;
            }
        }
        return false;
    }

    /** The {@code int} length argument of a captured value: an array's or a {@code PArray}'s length (checked to fit), 1 for a wrapper. */
    private static int lengthOf(Object value) {
        if (value instanceof PArray<?> array) {
            return (int) array.length();
        }
        return value.getClass().isArray() ? Array.getLength(value) : 1;
    }

    /** Makes every {@code PArray} the kernel wrote in place as it was before the call. */
    private static void undo(List<InPlaceUpdate> updates) {
        for (InPlaceUpdate update : updates) {
            update.undo();
        }
    }

    /**
     * One work-item per iteration of the nest: NDRange dimension {@code d} covers loop
     * {@code dimensions - 1 - d} (dimension 0 the innermost), rounded up to whole work-groups; more
     * than {@link #MAX_WORK_ITEMS} work-items are cut into slabs along the outermost loop, each whole
     * groups tall (as a map over an index space is).
     */
    private static void shapeIndexSpace(KernelLaunch launch, long[] extents, long[] requiredLocal, long maxGroup) {
        int dimensions = extents.length;
        long[] workItems = new long[dimensions];
        for (int d = 0; d < dimensions; d++) {
            workItems[d] = extents[dimensions - 1 - d];
        }
        long[] local = requiredLocal != null ? requiredLocal : WorkGroupShape.localSizes(workItems, maxGroup);
        long[] global = new long[dimensions];
        long slab = 1;
        for (int d = 0; d < dimensions; d++) {
            global[d] = WorkGroupShape.roundUp(workItems[d], local[d]);
            if (d < dimensions - 1) {
                slab = Math.multiplyExact(slab, global[d]);
            }
        }
        long outerLocal = local[dimensions - 1];
        long rowsPerEnqueue = Math.max(outerLocal, MAX_WORK_ITEMS / slab / outerLocal * outerLocal);
        launch.globalSize(global).localSize(local).perEnqueue(rowsPerEnqueue);
    }

    /** The loop indices of the kernel's element at row-major {@code position}: "i = 3" or "(3, 5)", outermost first. */
    private static String iteration(long position, long[] firsts, long[] extents) {
        if (firsts.length == 1) {
            return "i = " + (firsts[0] + position);
        }
        long[] indices = new long[firsts.length];
        long rest = position;
        for (int d = firsts.length - 1; d >= 0; d--) {
            indices[d] = firsts[d] + rest % extents[d];
            rest /= extents[d];
        }
        return java.util.Arrays.toString(indices).replace('[', '(').replace(']', ')');
    }

    /** The {@code @Reduce} variable's final value: its initial value combined with every iteration's contribution. */
    @SuppressWarnings("unchecked")
    private static Object combine(CompiledLoop loop, PArray<?> contributions, Object[] arguments) {
        if (loop.reductionKind() == JavaKind.Float) {
            // initial + T(contributions): the loop's first operand, then the tree of the iterations' values
            var operator = ReductionCombiners.ofFloat(loop.reduction());
            try (PArray<Float> reduced = AF.reduce(operator, (Float) ReductionCombiners.identity(loop.reduction(), JavaKind.Float)).apply((PArray<Float>) contributions)) {
                float initial = loop.reductionInitial() instanceof LoopBound.Parameter p ? (Float) arguments[p.index()] : Float.intBitsToFloat((int) loop.reductionInitial().valueFor(arguments));
                return operator.apply(initial, reduced.get(0));
            }
        }
        if (loop.reductionKind() == JavaKind.Double) {
            var operator = ReductionCombiners.ofDouble(loop.reduction());
            try (PArray<Double> reduced = AF.reduce(operator, (Double) ReductionCombiners.identity(loop.reduction(), JavaKind.Double)).apply((PArray<Double>) contributions)) {
                double initial = loop.reductionInitial() instanceof LoopBound.Parameter p ? (Double) arguments[p.index()] : Double.longBitsToDouble(loop.reductionInitial().valueFor(arguments));
                return operator.apply(initial, reduced.get(0));
            }
        }
        long initial = loop.reductionInitial().valueFor(arguments);
        if (loop.reductionKind() == JavaKind.Int) {
            var operator = ReductionCombiners.ofInt(loop.reduction());
            try (PArray<Integer> reduced = AF.reduce(operator, (Integer) ReductionCombiners.identity(loop.reduction(), JavaKind.Int)).apply((PArray<Integer>) contributions)) {
                return operator.apply((int) initial, reduced.get(0));
            }
        }
        var operator = ReductionCombiners.ofLong(loop.reduction());
        try (PArray<Long> reduced = AF.reduce(operator, (Long) ReductionCombiners.identity(loop.reduction(), JavaKind.Long)).apply((PArray<Long>) contributions)) {
            return operator.apply(initial, reduced.get(0));
        }
    }
}
