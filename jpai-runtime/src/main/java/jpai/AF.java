package jpai;

import java.util.Objects;
import java.util.function.Function;

import jpai.runtime.MapFunction;

/** Builds {@link ArrayFunction}s: the parallel skeletons. */
public final class AF {

    private AF() {
    }

    /**
     * Applies {@code f} to every element: {@code out[i] = f(in[i])}. The output element type is
     * found by running {@code f} on element 0 of the first input (runtime type analysis).
     */
    public static <T, R> ArrayFunction<T, R> map(Function<T, R> f) {
        return new MapFunction<>(Objects.requireNonNull(f, "the function to map is null"), null);
    }

    /** As {@link #map(Function)}, with the output element type given (needed for empty inputs). */
    public static <T, R> ArrayFunction<T, R> map(Function<T, R> f, Class<R> outputType) {
        return new MapFunction<>(Objects.requireNonNull(f, "the function to map is null"), ElementType.of(outputType));
    }
}
