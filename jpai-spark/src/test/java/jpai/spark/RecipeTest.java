package jpai.spark;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;

/** Recipes on the driver and in an executor JVM, without a cluster. */
class RecipeTest {

    /** Not serialisable: a recipe capturing it cannot be sent. */
    static final class Scale {
        final float factor = 2f;
    }

    @Test
    void aRecipeCapturingSomethingNotSerialisableIsRefusedNamingItsClass() {
        Scale scale = new Scale();
        FunctionRecipe<Float, Float> recipe = () -> AF.map((Float x) -> x * scale.factor);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExecutorFunctions.serialized(recipe));
        assertTrue(e.getMessage().contains(Scale.class.getName()) && e.getMessage().contains("not Serializable"), e.getMessage());
    }

    @Test
    void equalRecipesShareOneFunctionPerJvmAndDifferentCapturesDoNot() {
        float a = 3f;
        float b = 4f;
        ArrayFunction<Float, Float> first = ExecutorFunctions.of(recipe(a));
        assertSame(first, ExecutorFunctions.of(recipe(a)), "a recipe deserialised again per task builds no second function");
        assertTrue(first != ExecutorFunctions.of(recipe(b)), "another capture is another function");
    }

    private static FunctionRecipe<Float, Float> recipe(float factor) {
        return () -> AF.map((Float x) -> x * factor);
    }

    @Test
    void aLayoutRefusesAComponentTypeAPArrayCannotHold() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ElementLayout.of(String.class));
        assertTrue(e.getMessage().contains("java.lang.String"), e.getMessage());
    }
}
