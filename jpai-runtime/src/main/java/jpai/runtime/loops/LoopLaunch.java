package jpai.runtime.loops;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.AF;
import jpai.PArray;
import jpai.ocl.DeoptReason;
import jpai.ocl.KernelParameter;
import jpai.runtime.Explain;
import jpai.runtime.Offload;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * One call of an accelerated method on the device: the iterations {@code first..limit-1} as
 * work-items, the arguments bound by their kernel parameters' roles. Arrays are copied per call: each
 * array argument is sent with the launch, and each one the kernel writes is read back, into the
 * caller's array only when no iteration met a Java exception path; otherwise the caller's arrays are
 * untouched and the original body runs from the start ({@link AcceleratedMethods#NOT_RUN}). A
 * reduction's contributions, one per iteration, stay on the device and are combined there by
 * {@code AF.reduce}.
 */
final class LoopLaunch {

    /** Work-group size, as a map's. */
    private static final long WORK_GROUP = 256;
    /** Work-items per enqueue at most, as a map's. */
    private static final long MAX_WORK_ITEMS = 1L << 30;

    private record WrittenArray(Object array, ByteBuffer readBack) {
    }

    private LoopLaunch() {
    }

    static Object run(DeviceChoice.OpenCL device, CompiledLoop loop, Object[] arguments, String name) {
        long first = loop.first().valueFor(arguments);
        long limit = loop.limit().valueFor(arguments);
        long iterations = limit - first;
        if (iterations <= 0) {
            Explain.methodInJava(name, "the loop has no iteration for these arguments");
            return AcceleratedMethods.NOT_RUN;
        }
        DeviceContext context = OpenCLRuntime.context(device);
        long localSize = Math.min(WORK_GROUP, context.device().maxWorkGroupSize());
        KernelLaunch launch = new KernelLaunch();
        List<WrittenArray> written = new ArrayList<>();
        PArray<?> contributions = null;
        try {
            for (KernelParameter parameter : loop.kernel().parameters()) {
                int index = parameter.index();
                switch (parameter.role()) {
                    case CAPTURED_SCALAR -> launch.scalar(index, parameter.kind(), arguments[parameter.slot()]);
                    case CAPTURED_ARRAY -> launch.readArray(index, arguments[parameter.slot()]);
                    case WRITTEN_ARRAY -> {
                        Object array = arguments[parameter.slot()];
                        ByteBuffer readBack = ArrayReadBack.bufferFor(array);
                        launch.readWriteArray(index, array, readBack);
                        written.add(new WrittenArray(array, readBack));
                    }
                    case CAPTURED_ARRAY_LENGTH -> launch.scalar(index, JavaKind.Int, Array.getLength(arguments[parameter.slot()]));
                    case OUTPUT_BUFFER -> {
                        contributions = PArray.allocate(parameter.kind().toBoxedJavaClass(), iterations);
                        launch.writeBuffer(index, PArrayStorage.buffer(contributions, 0));
                    }
                    case BASE_INDEX -> launch.scalar(index, JavaKind.Long, 0L).baseIndexArgument(index);
                    case LENGTH -> launch.scalar(index, JavaKind.Long, iterations);
                    case STATUS -> launch.status(index);
                    default -> throw new IllegalStateException("a loop kernel has no parameter of role " + parameter.role());
                }
            }
            long globalSize = (iterations + localSize - 1) / localSize * localSize;
            launch.localSize(localSize).globalSize(globalSize).perEnqueue(MAX_WORK_ITEMS / localSize * localSize);
            LaunchResult result = context.launch(loop.kernel(), launch);
            if (result.hasStatus() && result.status(0) != 0) {
                int element = result.status(1);
                String at = element == Integer.MAX_VALUE ? "at an iteration past 2^31 - 1" : "at iteration i = " + (first + element);
                Offload.methodDeoptimized(name, at + ", " + DeoptReason.fromCode(result.status(0)).message() + "; the call re-ran in Java from the start");
                return AcceleratedMethods.NOT_RUN;
            }
            for (WrittenArray array : written) {
                ArrayReadBack.copyInto(array.readBack(), array.array());
            }
            Explain.methodOnDevice(name, context.device().name());
            return loop.reduction() == null ? null : combine(loop, contributions, arguments);
        } finally {
            if (contributions != null) {
                contributions.close();
            }
        }
    }

    /** The {@code @Reduce} variable's final value: its initial value combined with every iteration's contribution. */
    @SuppressWarnings("unchecked")
    private static Object combine(CompiledLoop loop, PArray<?> contributions, Object[] arguments) {
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
