package jpai;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Predicate;

import jpai.runtime.CopyFunction;
import jpai.runtime.FilterFunction;
import jpai.runtime.KeyedReduceFunction;
import jpai.runtime.MapFunction;
import jpai.runtime.ReduceFunction;
import jpai.runtime.ScanFunction;
import jpai.runtime.ViewFunction;
import jpai.runtime.profile.Profiler;

/**
 * Builds {@link ArrayFunction}s: the parallel skeletons. Each runs on {@link Executor#AUTO} unless
 * given an executor ({@code AF.map(f).on(Executor.THREADS)}, or the shorthands
 * {@link #mapSequential}, {@link #mapThreads}, {@link #mapAccelerator}).
 */
public final class AF {

    private AF() {
    }

    /**
     * Applies {@code f} to every element: {@code out[i] = f(in[i])}. The output element type is
     * found by running {@code f} on element 0 of the first input of each input type (runtime type
     * analysis), once per function.
     */
    public static <T, R> ArrayFunction<T, R> map(Function<T, R> f) {
        return new MapFunction<>(Objects.requireNonNull(f, "the function to map is null"), null);
    }

    /** As {@link #map(Function)}, with the output element type given (needed for empty inputs). */
    public static <T, R> ArrayFunction<T, R> map(Function<T, R> f, Class<R> outputType) {
        return new MapFunction<>(Objects.requireNonNull(f, "the function to map is null"), ElementType.of(outputType));
    }

    /** As {@link #map(Function)}, with the output type given, e.g. {@code TupleType.of(Float.class, Integer.class)}. */
    public static <T, R> ArrayFunction<T, R> map(Function<T, R> f, DataType outputType) {
        return new MapFunction<>(Objects.requireNonNull(f, "the function to map is null"), Objects.requireNonNull(outputType, "the output type is null"));
    }

    /**
     * A map over index pairs written as a function of the two indices: over {@code PArray.range(rows,
     * columns)}, {@code AF.map2D((i, j) -> 1.0f / (i + j + 1))} gives the row-major
     * {@code rows x columns} matrix of {@code f(i, j)} (on the device a 2-D NDRange, see
     * {@link PArray#range(int, int)}). The same as {@code map(ij -> f.apply(ij._1(), ij._2()))}, and
     * over any array of {@code Tuple2<Integer, Integer>}; messages name {@code f}.
     */
    public static <R> ArrayFunction<Tuple2<Integer, Integer>, R> map2D(BiFunction<Integer, Integer, R> f) {
        return MapFunction.ofComponents(Objects.requireNonNull(f, "the function to map is null"), null);
    }

    /** As {@link #map2D(BiFunction)}, with the output element type given (needed for an empty range). */
    public static <R> ArrayFunction<Tuple2<Integer, Integer>, R> map2D(BiFunction<Integer, Integer, R> f, Class<R> outputType) {
        return MapFunction.ofComponents(Objects.requireNonNull(f, "the function to map is null"), ElementType.of(outputType));
    }

    /**
     * A map over index triples written as a function of the three indices: over {@code
     * PArray.range(d0, d1, d2)}, {@code AF.map3D((i, j, k) -> ...)} (on the device a 3-D NDRange).
     * The same as {@code map(t -> f.apply(t._1(), t._2(), t._3()))}; messages name {@code f}.
     */
    public static <R> ArrayFunction<Tuple3<Integer, Integer, Integer>, R> map3D(TriFunction<Integer, Integer, Integer, R> f) {
        return MapFunction.ofComponents(Objects.requireNonNull(f, "the function to map is null"), null);
    }

    /** As {@link #map3D(TriFunction)}, with the output element type given (needed for an empty range). */
    public static <R> ArrayFunction<Tuple3<Integer, Integer, Integer>, R> map3D(TriFunction<Integer, Integer, Integer, R> f, Class<R> outputType) {
        return MapFunction.ofComponents(Objects.requireNonNull(f, "the function to map is null"), ElementType.of(outputType));
    }

    /** {@code map(f)} on one Java thread: the thesis's {@code mapSeq}. */
    public static <T, R> ArrayFunction<T, R> mapSequential(Function<T, R> f) {
        return map(f).on(Executor.SEQUENTIAL);
    }

    /** {@code map(f)} on Java threads: the thesis's {@code mapJavaThreads}. */
    public static <T, R> ArrayFunction<T, R> mapThreads(Function<T, R> f) {
        return map(f).on(Executor.THREADS);
    }

    /** {@code map(f)} on the OpenCL device: the thesis's {@code mapAccelerator}. */
    public static <T, R> ArrayFunction<T, R> mapAccelerator(Function<T, R> f) {
        return map(f).on(Executor.ACCELERATOR);
    }

    /**
     * Combines all elements with {@code operator}, starting from {@code identity}: the result is an
     * array of one element. {@code operator} must be associative and {@code identity} its identity
     * ({@code operator(identity, x) == x}); elements are combined in parallel, in a tree whose shape
     * depends on the executor, so a floating-point sum may differ from a sequential loop's by
     * rounding. An empty input gives {@code identity}.
     *
     * @throws NullPointerException if {@code operator} or {@code identity} is null
     * @throws IllegalArgumentException (at {@code apply}) if the input's element type is not {@code identity}'s
     */
    public static <T> ArrayFunction<T, T> reduce(BinaryOperator<T> operator, T identity) {
        return new ReduceFunction<>(Objects.requireNonNull(operator, "the reduce operator is null"), Objects.requireNonNull(identity, "the reduce identity is null; give the operator's identity, e.g. 0f for a sum"));
    }

    /**
     * The inclusive prefixes of the elements under {@code operator}: {@code out[i]} combines elements
     * {@code 0..i}, starting from {@code identity} ({@code out[0] = operator(identity, in[0])}); the
     * result has the input's length. {@code operator} must be associative and {@code identity} its
     * identity; it need not be commutative (operands are never reordered). Every executor combines
     * in one order that depends on the length only (docs/java-semantics.md, "Scans"), so an
     * associative operator gives exactly a sequential loop's prefixes, and a floating-point sum the
     * same bits on every executor and device (which may differ from a loop's by rounding).
     *
     * @throws NullPointerException if {@code operator} or {@code identity} is null
     * @throws IllegalArgumentException (at {@code apply}) if the input's element type is not {@code identity}'s
     */
    public static <T> ArrayFunction<T, T> scan(BinaryOperator<T> operator, T identity) {
        return new ScanFunction<>(Objects.requireNonNull(operator, "the scan operator is null"),
                        Objects.requireNonNull(identity, "the scan identity is null; give the operator's identity, e.g. 0f for a sum"), false);
    }

    /**
     * The exclusive prefixes: as {@link #scan}, but {@code out[i]} combines elements {@code 0..i-1}
     * ({@code out[0] = identity}), so that {@code out[i]} is where element {@code i}'s share starts
     * (the offsets of a prefix sum).
     */
    public static <T> ArrayFunction<T, T> scanExclusive(BinaryOperator<T> operator, T identity) {
        return new ScanFunction<>(Objects.requireNonNull(operator, "the scanExclusive operator is null"),
                        Objects.requireNonNull(identity, "the scanExclusive identity is null; give the operator's identity, e.g. 0 for a sum"), true);
    }

    /**
     * The elements for which {@code predicate} holds, in their order (stream compaction); the
     * result's length is known only after the predicate has seen every element. The predicate is
     * called once per element; on the device it runs as a kernel, and an exception it throws is
     * Java's, at the first element (in order) that throws it.
     *
     * @throws NullPointerException if {@code predicate} is null
     */
    public static <T> ArrayFunction<T, T> filter(Predicate<T> predicate) {
        return new FilterFunction<>(Objects.requireNonNull(predicate, "the filter predicate is null"));
    }

    /** Returns its input's elements as they are (as a view: the caller's close releases nothing). */
    public static <T> ArrayFunction<T, T> identity() {
        return new ViewFunction<>("identity", 0);
    }

    /**
     * The function over zipped arrays ({@code PArray.zip(a, b)}), to compose from:
     * {@code AF.<Float, Float>zip2().map(t -> alpha * t._1() + t._2())}. Checks that its input holds
     * tuples of 2 components.
     */
    public static <A, B> ArrayFunction<Tuple2<A, B>, Tuple2<A, B>> zip2() {
        return new ViewFunction<>("zip2", 2);
    }

    public static <A, B, C> ArrayFunction<Tuple3<A, B, C>, Tuple3<A, B, C>> zip3() {
        return new ViewFunction<>("zip3", 3);
    }

    public static <A, B, C, D> ArrayFunction<Tuple4<A, B, C, D>, Tuple4<A, B, C, D>> zip4() {
        return new ViewFunction<>("zip4", 4);
    }

    public static <A, B, C, D, E> ArrayFunction<Tuple5<A, B, C, D, E>, Tuple5<A, B, C, D, E>> zip5() {
        return new ViewFunction<>("zip5", 5);
    }

    public static <A, B, C, D, E, F> ArrayFunction<Tuple6<A, B, C, D, E, F>, Tuple6<A, B, C, D, E, F>> zip6() {
        return new ViewFunction<>("zip6", 6);
    }

    public static <A, B, C, D, E, F, G> ArrayFunction<Tuple7<A, B, C, D, E, F, G>, Tuple7<A, B, C, D, E, F, G>> zip7() {
        return new ViewFunction<>("zip7", 7);
    }

    public static <A, B, C, D, E, F, G, H> ArrayFunction<Tuple8<A, B, C, D, E, F, G, H>, Tuple8<A, B, C, D, E, F, G, H>> zip8() {
        return new ViewFunction<>("zip8", 8);
    }

    /**
     * The profile of the calling thread's last {@code apply}: nanoseconds spent in Graal, code
     * generation, the driver's build, host-to-device transfers, kernels, device-to-host transfers
     * and the rest, bytes moved, where it ran and why it fell back, if it did ({@code toJson()} for
     * tools). {@code -Djpai.profile=true} prints one line per apply. Null before the first apply.
     */
    public static ApplyProfile lastProfile() {
        return Profiler.last();
    }

    /**
     * A stage that puts its input on the device now (when an OpenCL device is in use) and returns it
     * as a view; later device stages find it there. Useful before applying several functions to one
     * input.
     */
    public static <T> ArrayFunction<T, T> copyToDevice() {
        return new CopyFunction<>(CopyFunction.Direction.TO_DEVICE);
    }

    /** A stage that brings its input's newest data to the host now (rather than at first access) and returns it as a view. */
    public static <T> ArrayFunction<T, T> copyToHost() {
        return new CopyFunction<>(CopyFunction.Direction.TO_HOST);
    }

    /**
     * A keyed reduction: an array of {@code keys} values, element {@code k} being {@code identity}
     * combined by {@code operator} with {@code value(x)} of every element {@code x} whose
     * {@code key(x)} is {@code k}, in the elements' order. A histogram of bytes in 256 bins:
     * {@code AF.reduceByKey((Integer b) -> b & 0xff, b -> 1, Integer::sum, 0, 256)}; K-Means' sums and
     * counts per centre: a {@code Tuple3<Float, Float, Integer>} value combined component-wise.
     *
     * <p>Java's meaning is the sequential loop: for each element in order, {@code k = key(x)}, an
     * {@code ArrayIndexOutOfBoundsException} (Java's message for index {@code k} and length
     * {@code keys}) if {@code k < 0 || k >= keys}, then {@code result[k] = operator(result[k],
     * value(x))}; every executor throws that exception at that element. {@code operator} must be
     * associative and {@code identity} its identity, as for {@link #reduce}: an {@code int}
     * {@code +}, {@code min}, {@code max}, {@code &}, {@code |} or {@code ^} (e.g. {@code Integer::sum},
     * {@code Math::max}) runs with atomics on the device, since its bits do not depend on the order;
     * any other operator (floats above all) is combined in one fixed order on every executor
     * (docs/java-semantics.md, "Keyed reductions"), so a float result has the same bits wherever it
     * ran, and equals the sequential loop's for an associative operator.
     *
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code keys} is negative, or {@code identity} is of a type a {@code PArray} cannot hold
     */
    public static <T, V> ArrayFunction<T, V> reduceByKey(Function<T, Integer> key, Function<T, V> value, BinaryOperator<V> operator, V identity, int keys) {
        return new KeyedReduceFunction<>(Objects.requireNonNull(key, "the reduceByKey key function is null"), Objects.requireNonNull(value, "the reduceByKey value function is null"),
                        Objects.requireNonNull(operator, "the reduceByKey operator is null"),
                        Objects.requireNonNull(identity, "the reduceByKey identity is null; give the operator's identity, e.g. 0 for a sum"), keys);
    }
}
