package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.ArrayFunction;
import jpai.AF;
import jpai.Executor;
import jpai.PArray;

/**
 * A kernel object keeps the arguments its last launch set, and the runtime skips setting what has
 * not changed: applies that alternate inputs, lengths and functions sharing nothing must each see
 * their own buffers, lengths and captured values, never the previous launch's.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class KernelArgumentReuseTest {

    @Test
    void alternatingInputsAndLengthsSeeTheirOwnArguments() {
        int[] lengths = {1000, 37, 1000, 4096, 1, 37};
        PArray<Float>[] inputs = newInputs(lengths);
        try {
            ArrayFunction<Float, Float> scaleA = scaleBy(3f);
            ArrayFunction<Float, Float> scaleB = scaleBy(-0.5f);
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < inputs.length; k++) {
                    float factor = k % 2 == 0 ? 3f : -0.5f;
                    ArrayFunction<Float, Float> scale = k % 2 == 0 ? scaleA : scaleB;
                    try (PArray<Float> result = ExecutorCase.apply(scale, Executor.ACCELERATOR, inputs[k])) {
                        float[] expected = inputs[k].toFloatArray();
                        for (int i = 0; i < expected.length; i++) {
                            expected[i] = expected[i] * factor + k;
                        }
                        assertArrayEquals(expected, result.toFloatArray(), "input " + k + " of " + lengths[k] + " elements, round " + round);
                    }
                }
            }
        } finally {
            for (PArray<Float> input : inputs) {
                input.close();
            }
        }
    }

    /** x * factor + (the index of the input the test made, which is x's integer part / 10000). */
    private static ArrayFunction<Float, Float> scaleBy(float factor) {
        return AF.map((Float x) -> x * factor + (float) Math.floor(x / 10000f));
    }

    @SuppressWarnings("unchecked")
    private static PArray<Float>[] newInputs(int[] lengths) {
        PArray<Float>[] inputs = new PArray[lengths.length];
        for (int k = 0; k < lengths.length; k++) {
            float[] values = new float[lengths[k]];
            for (int i = 0; i < values.length; i++) {
                values[i] = k * 10000f + (i % 997) * 0.25f;
            }
            inputs[k] = PArray.of(values);
        }
        return inputs;
    }
}
