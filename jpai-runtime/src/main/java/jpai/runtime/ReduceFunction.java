package jpai.runtime;

import java.util.Objects;
import java.util.function.BinaryOperator;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaReduce;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.reduce(operator, identity)}: combines all elements into one, returned as an array of one
 * element, in {@code CombiningTree}'s order on every executor (so the result of any associative
 * operator is the sequential fold's, and a float reduction's bits do not depend on where it ran):
 * on the device in passes of work-group trees ({@link DeviceReduce}), on Java threads in chunks that
 * are nodes of the same tree.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReduceFunction<T> implements ArrayFunction<T, T> {

    private final BinaryOperator<T> operator;
    private final T identity;
    private final DataType type;
    private final KernelCache kernels;
    /** {@code AUTO}'s measured times of this reduction on either side ({@link JpaiOptions#COST_MODEL}), shared by its placements. */
    private final CostModel costs;
    private final Executor executor;
    /** The devices an apply is split over ({@code on(Devices)}), or null for one device. */
    private final SplitReduce split;

    public ReduceFunction(BinaryOperator<T> operator, T identity) {
        this(operator, identity, typeOfIdentity(identity), new KernelCache(operator), new CostModel(), Executor.AUTO);
    }

    private ReduceFunction(BinaryOperator<T> operator, T identity, DataType type, KernelCache kernels, CostModel costs, Executor executor) {
        this(operator, identity, type, kernels, costs, executor, null);
    }

    private ReduceFunction(BinaryOperator<T> operator, T identity, DataType type, KernelCache kernels, CostModel costs, Executor executor, SplitReduce split) {
        this.operator = operator;
        this.identity = identity;
        this.type = type;
        this.kernels = kernels;
        this.costs = costs;
        this.executor = executor;
        this.split = split;
    }

    private static DataType typeOfIdentity(Object identity) {
        try {
            return DataType.of(identity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the reduce identity is a " + identity.getClass().getName()
                            + ", which a PArray cannot hold: use a Byte, Short, Character, Integer, Long, Float, Double, Boolean or a Tuple2..Tuple8 of them", e);
        }
    }

    @Override
    public PArray<T> apply(PArray<T> input) {
        Inputs.check(input, "reduce");
        Profiler.begin(kernels.labelForProfiles("reduce of "));
        try {
            return applyProfiled(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings("unchecked")
    private PArray<T> applyProfiled(PArray<T> input) {
        if (!input.type().equals(type)) {
            throw new IllegalArgumentException("reduce with identity " + identity + " (a " + type.javaName() + ") was applied to a PArray<"
                            + input.type().javaName() + ">; the identity must have the elements' type");
        }
        T result = switch (executor) {
            case SEQUENTIAL -> JavaReduce.sequential(operator, identity, input);
            case THREADS -> JavaReduce.threads(operator, identity, input);
            case AUTO, ACCELERATOR -> {
                T onDevice = runOnDevice(input);
                if (onDevice != null) {
                    yield onDevice;
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                T inJava = JavaReduce.threads(operator, identity, input);
                costs.javaRan(input.length(), timed); // Java's pace, for the cost model
                yield inJava;
            }
        };
        return resultArray(result);
    }

    /** The one-element array a reduction returns. */
    @SuppressWarnings("unchecked")
    PArray<T> resultArray(T result) {
        PArray<T> output = (PArray<T>) PArray.allocate(type, 1);
        output.put(0, result);
        return output;
    }

    /**
     * The result computed on the OpenCL device (or, tiered, on Java threads and maybe the device:
     * {@link TieredReduce}), or null when it must be computed in Java (after saying why), or is by
     * the cost model's choice.
     */
    private T runOnDevice(PArray<T> input) {
        if (split != null) {
            return runSplit(input);
        }
        DeviceChoice.OpenCL device = Offload.device(executor, () -> "reduce of " + kernels.description());
        if (device == null) {
            return null;
        }
        KernelCache.Compiled compiled;
        if (Offload.mayTier(executor)) {
            compiled = kernels.reduceKernelIfReady(type, FusedMappers.none(type));
            if (compiled == null) {
                // on Java threads the reduction has the device's combining tree: the same bits either way, and the device may take over the rest
                TieredReduce.Result tiered = TieredReduce.run(operator, identity, type, null, FusedMappers.none(type), kernels, device, input, () -> "reduce of " + kernels.description(),
                                () -> JavaReduce.threads(operator, identity, input), kernels);
                costs.javaRanTiered(executor, tiered.outcome()); // Java's first pace, for the cost model
                @SuppressWarnings("unchecked")
                T value = (T) tiered.value();
                return value;
            }
        } else {
            compiled = kernels.forReduce(type);
        }
        String reason = compiled.bailout();
        if (reason == null) {
            try {
                if (Offload.javaByCost(executor, costs, input.length(), () -> "reduce of " + compiled.description())) {
                    return null; // never shared: a reduction's result is one value (Java's pace is measured by whole applies)
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                T result = DeviceReduce.run(device, compiled, () -> compiled, operator, identity, type, input, this);
                costs.deviceRan(input.length(), timed);
                return result;
            } catch (KernelDeoptimizedException e) {
                KernelExits.handle("reduce of " + compiled.description(), e, "the operation re-ran in Java", input.length(), kernels);
                return null;
            } catch (OpenCLRuntimeException e) {
                reason = e.getMessage();
            }
        }
        Offload.fallBack("reduce of " + compiled.description(), reason);
        return null;
    }

    /** Whether its applies are split over several devices ({@code on(Devices)}): it is then never fused with a map before it. */
    boolean isSplit() {
        return split != null;
    }

    Executor executor() {
        return executor;
    }

    KernelCache kernels() {
        return kernels;
    }

    BinaryOperator<T> operator() {
        return operator;
    }

    T identity() {
        return identity;
    }

    DataType type() {
        return type;
    }

    @Override
    public ArrayFunction<T, T> on(Executor where) {
        return where == executor && split == null ? this : new ReduceFunction<>(operator, identity, type, kernels, costs, Objects.requireNonNull(where, "on: the executor is null"));
    }

    /** The reduction split over {@code devices} ({@link SplitReduce}): each device reduces its part, the host combines their nodes. */
    @Override
    public ArrayFunction<T, T> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        return split != null && split.devices().equals(devices) ? this : new ReduceFunction<>(operator, identity, type, kernels, costs, Executor.ACCELERATOR, new SplitReduce(devices));
    }

    /** The reduction split over {@link #split}'s devices ({@link SplitReduce}), or null when Java must compute it (after saying why). */
    @SuppressWarnings("unchecked")
    private T runSplit(PArray<T> input) {
        KernelCache.Compiled compiled = kernels.forReduce(type);
        if (compiled.bailout() != null) {
            Offload.fallBack("reduce of " + compiled.description(), compiled.bailout());
            return null;
        }
        return (T) split.run(compiled, identity, type, (BinaryOperator<Object>) operator, input, () -> "reduce of " + compiled.description(), kernels);
    }

    @Override
    public String toString() {
        return "reduce of " + kernels.description() + " from " + identity + (split != null ? " on " + split.devices() : executor == Executor.AUTO ? "" : " on " + executor);
    }
}
