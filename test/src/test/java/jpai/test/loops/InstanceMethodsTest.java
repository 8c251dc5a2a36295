package jpai.test.loops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Random;

import org.junit.jupiter.api.Test;


/**
 * {@code @Accelerate} instance methods on the device (PoCL here): the receiver's fields (a primitive,
 * an array, a wrapper, an object's fields, a 2-D array; not final) are read at each call, so a
 * changed field or another receiver gives Java's result; each result is compared with the original
 * body run by the JVM on the same receiver. A write to a field of this, or into an array in a
 * field, is refused and runs as written; a null field or an array that is also an argument runs in
 * Java; each says why.
 */
class InstanceMethodsTest extends WithTheAgentExplaining {

    private static final int N = 2049;
    /** The original body the agent kept, run by the JVM on {@code receiver}: its result, or the exception it threw. */
    private static ExplainedCall original(Object receiver, String name, Object... arguments) {
        for (Class<?> type = receiver.getClass(); type != null; type = type.getSuperclass()) {
            for (Method method : type.getDeclaredMethods()) {
                if (!method.getName().equals("jpai$original$" + name)) {
                    continue;
                }
                method.setAccessible(true);
                try {
                    return new ExplainedCall(method.invoke(receiver, arguments), "", false, null);
                } catch (InvocationTargetException e) {
                    return new ExplainedCall(null, "", false, e.getCause());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("no original body of " + name + ": did the agent rewrite it?");
    }

    private static float[] floats(Random random) {
        float[] values = new float[N];
        for (int i = 0; i < N; i++) {
            values[i] = i == 0 ? -0.0f : (random.nextFloat() - 0.5f) * 100;
        }
        return values;
    }

    private static InstanceKernels kernels(Random random) {
        double[][] table = new double[7][3];
        for (double[] row : table) {
            for (int j = 0; j < row.length; j++) {
                row[j] = random.nextGaussian();
            }
        }
        return new InstanceKernels(1.25f, floats(random), 3, new InstanceKernels.Params(-0.5f, new int[] {1, -2, 3, 5, 8}), table, 10);
    }

    @Test
    void theReceiversFieldsAreReadAtEachCall() {
        Random random = new Random(61);
        InstanceKernels kernels = kernels(random);
        float[] x = floats(random);
        for (int round = 0; round < 3; round++) {
            float[] out = new float[N];
            float[] expected = new float[N];
            ExplainedCall call = explained(() -> {
                kernels.weighted(x, out);
                return null;
            });
            assertTrue(call.launched(), "round " + round + " ran on the device: " + call.said());
            original(kernels, "weighted", x, expected);
            assertArrayEquals(expected, out, "round " + round);
            // change every kind of field before the next call
            kernels.scale = -2f * (round + 1);
            kernels.weights = floats(random);
            kernels.offset = kernels.offset + 7;
            kernels.params.bias += 1;
            kernels.params = new InstanceKernels.Params(round, new int[] {round + 1, 4});
            kernels.table[2][1] = 1000 + round;
        }
        InstanceKernels other = kernels(random);
        other.scale = 9f;
        float[] out = new float[N];
        float[] expected = new float[N];
        assertTrue(explained(() -> {
            other.weighted(x, out);
            return null;
        }).launched(), "another receiver");
        original(other, "weighted", x, expected);
        assertArrayEquals(expected, out);
    }

    @Test
    void aMethodCalledOnASubclassObjectReadsItsInheritedFields() {
        Random random = new Random(79);
        InstanceKernels base = kernels(random);
        InstanceKernels.Derived derived = new InstanceKernels.Derived(-3f, base.weights, 1, base.params, base.table, 7);
        float[] x = floats(random);
        float[] out = new float[N];
        float[] expected = new float[N];
        assertTrue(explained(() -> {
            derived.scaled(x, out); // the first call of this method: compiled for its class's fields
            return null;
        }).launched(), "called on a subclass object");
        original(derived, "scaled", x, expected);
        assertArrayEquals(expected, out);
        assertTrue(explained(() -> {
            base.scaled(x, out);
            return null;
        }).launched(), "then on an object of the class itself");
        original(base, "scaled", x, expected);
        assertArrayEquals(expected, out);
    }

    @Test
    void aPArrayAndA2DArrayParameterOfAnInstanceMethod() {
        Random random = new Random(83);
        InstanceKernels kernels = kernels(random);
        float[] values = floats(random);
        float[][] m = new float[N][3];
        float[][] mExpected = new float[N][];
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < 3; j++) {
                m[i][j] = random.nextFloat();
            }
            mExpected[i] = m[i].clone();
        }
        try (jpai.PArray<Float> p = jpai.PArray.of(values); jpai.PArray<Float> expected = jpai.PArray.of(values)) {
            ExplainedCall call = explained(() -> {
                kernels.scaleRows(p, m);
                return null;
            });
            assertTrue(call.launched(), call.said());
            original(kernels, "scaleRows", expected, mExpected);
            assertArrayEquals(expected.toFloatArray(), p.toFloatArray());
            for (int i = 0; i < N; i++) {
                assertArrayEquals(mExpected[i], m[i]);
            }
        }
    }

    @Test
    void aReductionComparedWithAField() {
        Random random = new Random(67);
        InstanceKernels kernels = kernels(random);
        int[] values = new int[N];
        for (int i = 0; i < N; i++) {
            values[i] = random.nextInt(40) - 10;
        }
        ExplainedCall call = explained(() -> kernels.countAbove(values));
        assertTrue(call.launched());
        assertEquals(original(kernels, "countAbove", (Object) values).result(), call.result());
        kernels.threshold = -5;
        call = explained(() -> kernels.countAbove(values));
        assertEquals(original(kernels, "countAbove", (Object) values).result(), call.result(), "the field is read again");
    }

    @Test
    void writesToFieldsAreRefusedAndRunAsWritten() {
        Random random = new Random(71);
        InstanceKernels kernels = kernels(random);
        InstanceKernels twin = kernels(new Random(71));
        int[] values = new int[N];
        for (int i = 0; i < N; i++) {
            values[i] = random.nextInt(40);
        }
        ExplainedCall call = explained(() -> {
            kernels.countIntoAField(values);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("writes the field counter of this"), call.said());
        original(twin, "countIntoAField", (Object) values);
        assertEquals(twin.counter, kernels.counter);

        float[] x = floats(random);
        call = explained(() -> {
            kernels.writeIntoAFieldArray(x);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("writes into the array in the field weights"), call.said());
        original(twin, "writeIntoAFieldArray", (Object) x);
        assertArrayEquals(twin.weights, kernels.weights);
    }

    @Test
    void aNullFieldAndAFieldArrayThatIsAlsoAnArgumentRunInJava() {
        Random random = new Random(73);
        InstanceKernels kernels = kernels(random);
        float[] x = floats(random);
        kernels.params = null;
        ExplainedCall call = explained(() -> {
            kernels.weighted(x, new float[N]);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.thrown() instanceof NullPointerException, String.valueOf(call.thrown()));
        assertTrue(call.said().contains("the field params"), call.said());

        InstanceKernels aliased = kernels(random);
        float[] out = aliased.weights; // out is also this.weights: Java's writes change what later iterations read
        InstanceKernels twin = kernels(new Random(1));
        twin.weights = out.clone();
        float[] expected = twin.weights;
        call = explained(() -> {
            aliased.weighted(x, out);
            return null;
        });
        assertFalse(call.launched());
        assertTrue(call.said().contains("holds the same array as its argument 2"), call.said());
        twin.scale = aliased.scale;
        twin.offset = aliased.offset;
        twin.params = aliased.params;
        twin.table = aliased.table;
        original(twin, "weighted", x, expected);
        assertArrayEquals(expected, out);
    }
}
