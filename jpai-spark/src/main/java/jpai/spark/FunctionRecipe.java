package jpai.spark;

import java.io.Serializable;

import jpai.ArrayFunction;

/**
 * How to build an {@link ArrayFunction} on a Spark executor: a serialisable lambda such as
 * {@code () -> AF.map((Float x) -> x * scale)}. An {@code ArrayFunction} is not shipped itself (it
 * holds compiled kernels of one JVM); its recipe is, and each executor JVM builds the function from
 * it once ({@link ExecutorFunctions}) and reuses it for every partition it maps.
 *
 * <p>Only the recipe and what it captures ({@code scale} above) are serialised: the lambdas inside
 * it are created on the executor, so they need not be serialisable themselves. A capture that is not
 * serialisable is refused on the driver, naming its class ({@link JpaiSpark}).
 */
@FunctionalInterface
public interface FunctionRecipe<T, R> extends Serializable {

    /** The function; called once per executor JVM for each distinct recipe (and once on the driver, to check it). */
    ArrayFunction<T, R> build();
}
