package jpai;

import java.util.function.Function;

/**
 * A reusable function over portable arrays. Building one computes nothing; {@link #apply} runs it,
 * on the best executor available (an OpenCL device, else Java threads), and may be called any
 * number of times with new inputs without recompiling. Built functions are immutable and may be
 * applied from many threads.
 *
 * @param <T> the input element type
 * @param <R> the output element type
 */
@FunctionalInterface
public interface ArrayFunction<T, R> extends Function<PArray<T>, PArray<R>> {

    /** Runs the function on {@code input}, returning a new array the caller owns (and closes). */
    @Override
    PArray<R> apply(PArray<T> input);

    /** This function, then {@code next} on its result. */
    default <V> ArrayFunction<T, V> andThen(ArrayFunction<R, V> next) {
        return input -> {
            try (PArray<R> intermediate = apply(input)) {
                return next.apply(intermediate);
            }
        };
    }
}
