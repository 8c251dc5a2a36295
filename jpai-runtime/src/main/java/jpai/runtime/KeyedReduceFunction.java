package jpai.runtime;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.ElementType;
import jpai.Executor;
import jpai.FallbackException;
import jpai.PArray;
import jpai.compiler.loops.ReductionOperator;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaKeyedReduce;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.LaunchInterruptedException;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.reduceByKey(key, value, operator, identity, keys)}: an array of {@code keys} values,
 * {@code result[k]} the identity combined with the values of the elements whose key is {@code k}.
 * Java's meaning is the sequential loop (for each element in order: its key, Java's
 * {@code ArrayIndexOutOfBoundsException} for a key outside {@code 0 .. keys-1}, its value, then
 * {@code result[key] = operator(result[key], value)}), and every executor gives its answer, bit for
 * bit: on the device the keys and the values are two maps (their kernels, their fallbacks), then
 * {@link DeviceKeyedReduce} combines them, with atomics where the operator is recognised as
 * order-independent on {@code int}s, else in {@code KeyedChunks}' fixed order, which the Java
 * executors follow too. Any exception on the device path (a key out of range, an exit of a lambda)
 * makes the whole operation run in Java, which throws Java's exception at Java's element.
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
    private final MapFunction<T, Integer> keyMap;
    private final MapFunction<T, V> valueMap;
    private final KernelCache combiner;
    private final Executor executor;

    public KeyedReduceFunction(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys) {
        this(key, value, operator, identity, keys, typeOfIdentity(identity), new MapFunction<>(key, ElementType.INT), null, new KernelCache(operator), Executor.AUTO);
    }

    @SuppressWarnings("unchecked")
    private KeyedReduceFunction(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys, DataType type, MapFunction<T, Integer> keyMap,
                    MapFunction<T, V> valueMap, KernelCache combiner, Executor executor) {
        if (keys < 0) {
            throw new IllegalArgumentException("reduceByKey needs a number of keys of 0 or more, not " + keys);
        }
        this.key = key;
        this.value = value;
        this.operator = operator;
        this.identity = identity;
        this.keys = keys;
        this.type = type;
        this.keyMap = keyMap;
        this.valueMap = valueMap != null ? valueMap : new MapFunction<>(value, type);
        this.combiner = combiner;
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
        Profiler.begin(combiner.labelForProfiles("reduceByKey with "));
        try {
            PArray<V> onDevice = executor == Executor.AUTO || executor == Executor.ACCELERATOR ? runOnDevice(input) : null;
            return onDevice != null ? onDevice : inJava(input);
        } finally {
            Profiler.end();
        }
    }

    @SuppressWarnings("unchecked")
    private PArray<V> inJava(PArray<T> input) {
        Object[] results = JavaKeyedReduce.run(key, value, operator, identity, keys, input);
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
        String operation = toString();
        DeviceChoice.OpenCL device = Offload.device(executor, () -> operation);
        if (device == null || keys == 0 || input.length() == 0) {
            return null; // nothing to combine: Java's answer (the identities, or the exception for any key) costs nothing
        }
        ReductionOperator recognised = combiner.recognisedOperator(type);
        boolean atomic = DeviceKeyedReduce.atomicApplies(type, recognised);
        KernelCache.Compiled chunks = null;
        KernelCache.Compiled combine = null;
        if (!atomic) {
            chunks = combiner.forKeyedReduce(type, true);
            combine = chunks.bailout() == null ? combiner.forKeyedReduce(type, false) : chunks;
            if (combine.bailout() != null) {
                Offload.fallBack(operation, combine.bailout());
                return null;
            }
        }
        Executor where = executor == Executor.ACCELERATOR ? Executor.ACCELERATOR : Executor.AUTO;
        try (PArray<Integer> keyArray = keyMap.on(where).apply(input); PArray<V> values = valueMap.on(where).apply(input)) {
            DeviceContext context = OpenCLRuntime.context(device);
            if (atomic) {
                int[] results = DeviceKeyedReduce.atomic(context, recognised, (Integer) identity, keyArray, (PArray<Integer>) (PArray<?>) values, keys);
                return (PArray<V>) (PArray<?>) PArray.of(results);
            }
            return (PArray<V>) DeviceKeyedReduce.ordered(context, chunks, combine, identity, type, keyArray, values, keys);
        } catch (KernelDeoptimizedException e) {
            Offload.deoptimized(operation, e.getMessage());
        } catch (OpenCLRuntimeException e) {
            Offload.fallBack(operation, e.getMessage());
        } catch (FallbackException | LaunchInterruptedException e) {
            throw e;
        } catch (RuntimeException e) {
            // a key or value lambda threw (in its map's own Java re-run): the sequential loop finds
            // which exception comes first, an out-of-range key perhaps, and throws it
            Offload.deoptimized(operation, "the key or value function threw " + e.getClass().getName() + " in its map; the operation re-ran in Java");
        }
        return null;
    }

    @Override
    public ArrayFunction<T, V> on(Executor where) {
        return where == executor ? this
                        : new KeyedReduceFunction<>(key, value, operator, identity, keys, type, keyMap, valueMap, combiner, Objects.requireNonNull(where, "on: the executor is null"));
    }

    @Override
    public String toString() {
        return "reduceByKey with " + combiner.description() + " into " + keys + " keys" + (executor == Executor.AUTO ? "" : " on " + executor);
    }
}
