package jpai.runtime;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.compiler.loops.ReductionOperator;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaKeyedReduce;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.reduceByKey(key, value, operator, identity, keys)}: an array of {@code keys} values,
 * {@code result[k]} the identity combined with the values of the elements whose key is {@code k}.
 * Java's meaning is the sequential loop (for each element in order: its key, Java's
 * {@code ArrayIndexOutOfBoundsException} for a key outside {@code 0 .. keys-1}, its value, then
 * {@code result[key] = operator(result[key], value)}), and every executor gives its answer, bit for
 * bit: on the device {@link DeviceKeyedReduce} computes each element's key and value inside its
 * kernels (nothing stored per element) and combines the values with atomics where the operator is
 * recognised as order-independent on {@code int}s (and {@code long}s where the device has 64-bit
 * atomics), else in {@code KeyedChunks}' fixed order, which
 * the Java executors follow too. Any exception on the device path (a key out of range, an exit of a
 * lambda) makes the whole operation run in Java, which throws Java's exception at Java's element.
 *
 * <p>Immutable and thread-safe.
 */
public final class KeyedReduceFunction<T, V> implements ArrayFunction<T, V> {

    private final Function<T, Integer> key;
    private final Function<T, V> value;
    private final BinaryOperator<V> operator;
    private final V identity;
    private final int keys;
    private final DataType type;
    private final KernelCache keyKernels;
    private final KernelCache valueKernels;
    private final KernelCache combiner;
    /** {@code AUTO}'s measured times of this keyed reduction on either side ({@link JpaiOptions#COST_MODEL}), shared by its placements. */
    private final CostModel costs;
    private final Executor executor;

    public KeyedReduceFunction(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys) {
        this(key, value, operator, identity, keys, typeOfIdentity(identity), new KernelCache(key), new KernelCache(value), new KernelCache(operator), new CostModel(), Executor.AUTO);
    }

    private KeyedReduceFunction(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, DataType type, KernelCache keyKernels,
                    KernelCache valueKernels, KernelCache combiner, CostModel costs, Executor executor) {
        if (keys < 0) {
            throw new IllegalArgumentException("reduceByKey needs a number of keys of 0 or more, not " + keys);
        }
        this.key = key;
        this.value = value;
        this.operator = operator;
        this.identity = identity;
        this.keys = keys;
        this.type = type;
        this.keyKernels = keyKernels;
        this.valueKernels = valueKernels;
        this.combiner = combiner;
        this.costs = costs;
        this.executor = executor;
    }

    private static DataType typeOfIdentity(Object identity) {
        try {
            return DataType.of(identity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the reduceByKey identity is a " + identity.getClass().getName()
                            + ", which a PArray cannot hold: use a Byte, Short, Character, Integer, Long, Float, Double, Boolean or a Tuple2..Tuple8 of them", e);
        }
    }

    @Override
    public PArray<V> apply(PArray<T> input) {
        Inputs.check(input, "reduceByKey");
        Profiler.begin(keyKernels.labelForProfiles("reduceByKey by the key "));
        try {
            PArray<V> onDevice = executor == Executor.AUTO || executor == Executor.ACCELERATOR ? runOnDevice(input) : null;
            if (onDevice != null) {
                return onDevice;
            }
            CostModel.Run timed = CostModel.Run.startIfModelled(executor); // AUTO only: Java threads' pace, for the cost model
            PArray<V> inJava = inJava(input, executor != Executor.SEQUENTIAL);
            costs.javaRan(input.length(), timed);
            return inJava;
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings("unchecked")
    private PArray<V> inJava(PArray<T> input, boolean threads) {
        Object[] results = threads ? JavaKeyedReduce.threads(key, value, operator, identity, keys, input) : JavaKeyedReduce.sequential(key, value, operator, identity, keys, input);
        PArray<V> output = (PArray<V>) PArray.allocate(type, keys);
        try {
            for (int k = 0; k < keys; k++) {
                output.put(k, (V) results[k]);
            }
            return output;
        } catch (RuntimeException | Error e) {
            output.close();
            throw e;
        }
    }

    /** The result computed with the device, or null (after saying why) when Java must compute it. */
    @SuppressWarnings("unchecked")
    private PArray<V> runOnDevice(PArray<T> input) {
        DeviceChoice.OpenCL device = Offload.device(executor, this::toString);
        if (device == null || keys == 0 || input.length() == 0) {
            return null; // nothing to combine: Java's answer (the identities, or the exception for any key) costs nothing
        }
        DeviceContext context = OpenCLRuntime.context(device);
        ReductionOperator recognised = combiner.recognisedOperator(type);
        boolean atomic = DeviceKeyedReduce.atomicApplies(context, type, recognised);
        KernelCache.KeyedKernel firstKind = atomic ? (DeviceKeyedReduce.localBins(context, type, keys) ? KernelCache.KeyedKernel.ATOMIC_LOCAL_BINS : KernelCache.KeyedKernel.ATOMIC)
                        : DeviceKeyedReduce.sharedChunks(context, input.length(), keys) ? KernelCache.KeyedKernel.SHARED_CHUNKS : KernelCache.KeyedKernel.CHUNKS;
        ReductionOperator operator = atomic ? recognised : null;
        if (Offload.mayTier(executor) && !combiner.compiledInBackground(java.util.Arrays.asList("keyed reduce", keyKernels, valueKernels, input.type(), type, firstKind),
                        () -> atomic ? java.util.List.of(combiner.forKeyedReduce(keyKernels, valueKernels, input.type(), type, firstKind, operator))
                                        : java.util.List.of(combiner.forKeyedReduce(keyKernels, valueKernels, input.type(), type, firstKind, null),
                                                        combiner.forKeyedReduce(keyKernels, valueKernels, input.type(), type, KernelCache.KeyedKernel.COMBINE_CHUNKS, null)),
                        () -> context)) {
            // on Java threads the keyed reduction has the device's order for floats (integers' sums have no order to keep)
            Offload.ranTiered(this::toString);
            return null;
        }
        KernelCache.Compiled first = combiner.forKeyedReduce(keyKernels, valueKernels, input.type(), type, firstKind, operator);
        KernelCache.Compiled second = atomic || first.bailout() != null ? first
                        : combiner.forKeyedReduce(keyKernels, valueKernels, input.type(), type, KernelCache.KeyedKernel.COMBINE_CHUNKS, null);
        String reason = second.bailout() != null ? second.bailout() : first.bailout();
        if (reason == null) {
            try {
                if (Offload.javaByCost(executor, costs, input.length(), this::toString)) {
                    return null;
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                PArray<V> result = atomic ? (PArray<V>) DeviceKeyedReduce.atomic(context, first, firstKind == KernelCache.KeyedKernel.ATOMIC_LOCAL_BINS, identity, input, keys)
                                : (PArray<V>) DeviceKeyedReduce.ordered(context, first, firstKind == KernelCache.KeyedKernel.SHARED_CHUNKS, second, identity, type, input, keys);
                costs.deviceRan(input.length(), timed);
                return result;
            } catch (KernelDeoptimizedException e) {
                Offload.deoptimized(toString(), e.getMessage(), true);
                return null;
            } catch (OpenCLRuntimeException e) {
                reason = e.getMessage();
            }
        }
        Offload.fallBack(toString(), reason);
        return null;
    }

    @Override
    public ArrayFunction<T, V> on(Executor where) {
        return where == executor ? this
                        : new KeyedReduceFunction<>(key, value, operator, identity, keys, type, keyKernels, valueKernels, combiner, costs, Objects.requireNonNull(where, "on: the executor is null"));
    }

    /** Only maps split over several devices so far. */
    @Override
    public ArrayFunction<T, V> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        throw new UnsupportedOperationException(this + ": a keyed reduction does not split over several devices yet; only maps and reductions do (apply it on one device, or split the maps before it)");
    }

    @Override
    public String toString() {
        return "reduceByKey into " + keys + " keys by the key " + keyKernels.description() + ", value " + valueKernels.description() + " and operator " + combiner.description()
                        + (executor == Executor.AUTO ? "" : " on " + executor);
    }
}
