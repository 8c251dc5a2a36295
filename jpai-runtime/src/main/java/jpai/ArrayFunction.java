package jpai;

import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.runtime.Pipeline;

/**
 * A reusable function over portable arrays. Building one computes nothing; {@link #apply} runs it,
 * on the best executor available (an OpenCL device, else Java threads) unless {@link #on} names
 * one, and may be called any number of times with new inputs without recompiling. Built functions
 * are immutable and may be applied from many threads at once.
 *
 * <p>Functions compose: {@code AF.zip2().map(t -> t._1() * t._2()).reduce(Float::sum, 0f)}. In a
 * composed function the intermediate arrays are the runtime's: they stay on the device between
 * stages and are released when the next stage has read them.
 *
 * @param <T> the input element type
 * @param <R> the output element type
 */
@FunctionalInterface
public interface ArrayFunction<T, R> extends Function<PArray<T>, PArray<R>> {

    /**
     * Runs the function on {@code input}, returning a new array the caller owns (and closes).
     *
     * @throws NullPointerException if {@code input} is null
     * @throws IllegalStateException if {@code input} is closed
     */
    @Override
    PArray<R> apply(PArray<T> input);

    /** This function, then {@code next} on its result. */
    default <V> ArrayFunction<T, V> andThen(ArrayFunction<R, V> next) {
        return Pipeline.of(this, next);
    }

    /** {@code before}, then this function on its result. */
    default <V> ArrayFunction<V, R> compose(ArrayFunction<V, T> before) {
        return Pipeline.of(before, this);
    }

    /** This function, then {@code AF.map(f)} on its result. */
    default <V> ArrayFunction<T, V> map(Function<R, V> f) {
        return andThen(AF.map(f));
    }

    /** This function, then {@code AF.reduce(operator, identity)} on its result. */
    default ArrayFunction<T, R> reduce(BinaryOperator<R> operator, R identity) {
        return andThen(AF.reduce(operator, identity));
    }

    /** This function, then {@code AF.scan(operator, identity)} (inclusive prefixes) on its result. */
    default ArrayFunction<T, R> scan(BinaryOperator<R> operator, R identity) {
        return andThen(AF.scan(operator, identity));
    }

    /** This function, then {@code AF.scanExclusive(operator, identity)} on its result. */
    default ArrayFunction<T, R> scanExclusive(BinaryOperator<R> operator, R identity) {
        return andThen(AF.scanExclusive(operator, identity));
    }

    /** This function, then {@code AF.filter(predicate)} on its result. */
    default ArrayFunction<T, R> filter(java.util.function.Predicate<R> predicate) {
        return andThen(AF.filter(predicate));
    }

    /**
     * This function on {@code executor} (every stage of a composed function). A function written by
     * hand as a lambda runs where it runs: it is returned unchanged.
     */
    default ArrayFunction<T, R> on(Executor executor) {
        java.util.Objects.requireNonNull(executor, "on: the executor is null");
        return this;
    }

    /**
     * This function split over {@code devices} ({@link Devices}): each apply runs in parts, one per
     * device, by shares that follow their measured times. Maps, reductions and fused maps then
     * reductions split (every stage of a composed function); a function written by hand as a lambda
     * runs where it runs: it is returned unchanged.
     *
     * @throws UnsupportedOperationException for a scan, filter or keyed reduction, which do not split yet
     */
    default ArrayFunction<T, R> on(Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        return this;
    }

    /** This function, then {@code AF.reduceByKey(key, value, operator, identity, keys)} on its result. */
    default <V> ArrayFunction<T, V> reduceByKey(Function<R, Integer> key, Function<R, V> value, BinaryOperator<V> operator, V identity, int keys) {
        return andThen(AF.reduceByKey(key, value, operator, identity, keys));
    }
}
