package jpai.spark;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;

import jpai.ArrayFunction;

/**
 * The functions this JVM built from recipes, one per distinct recipe: every task deserialises its
 * own copy of a recipe, and building a function per task would compile its kernel per task. Two
 * recipes are the same when their serialised forms are (the same lambda with equal captures).
 *
 * <p>Thread-safe: an executor runs several tasks at once, which then share one function (an
 * {@code ArrayFunction} may be applied from several threads).
 */
final class ExecutorFunctions {

    private static final ConcurrentHashMap<ByteBuffer, ArrayFunction<?, ?>> BUILT = new ConcurrentHashMap<>();

    private ExecutorFunctions() {
    }

    /** The function of {@code recipe}, built on the first call in this JVM. */
    @SuppressWarnings("unchecked")
    static <T, R> ArrayFunction<T, R> of(FunctionRecipe<T, R> recipe) {
        return (ArrayFunction<T, R>) BUILT.computeIfAbsent(ByteBuffer.wrap(serialized(recipe)), key -> recipe.build());
    }

    /**
     * The recipe's serialised form.
     *
     * @throws IllegalArgumentException naming the class that cannot be serialised (a lambda's capture)
     */
    static byte[] serialized(FunctionRecipe<?, ?> recipe) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(recipe);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("the function recipe " + recipe + " cannot be sent to Spark's executors: it captures a " + e.getMessage()
                            + ", which is not Serializable (capture only serialisable values, such as numbers and arrays, or build that object inside the recipe)", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("the function recipe " + recipe + " cannot be serialised: " + e, e);
        }
        return bytes.toByteArray();
    }
}
