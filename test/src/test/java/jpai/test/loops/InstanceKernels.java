package jpai.test.loops;

import jpai.Accelerate;
import jpai.Parallel;
import jpai.Reduce;

/** Accelerated instance methods, whose kernels read the receiver's fields, for {@link InstanceMethodsTest}. */
class InstanceKernels {

    /** A subclass: the methods of InstanceKernels read its inherited fields. */
    static final class Derived extends InstanceKernels {
        float extra = 100f;

        Derived(float scale, float[] weights, Integer offset, Params params, double[][] table, int threshold) {
            super(scale, weights, offset, params, table, threshold);
        }
    }

    /** An object in a field: its fields are read through it. */
    static final class Params {
        float bias;
        int[] lookup;

        Params(float bias, int[] lookup) {
            this.bias = bias;
            this.lookup = lookup;
        }
    }

    float scale;
    float[] weights;
    Integer offset;
    Params params;
    double[][] table;
    int threshold;
    int counter;

    InstanceKernels(float scale, float[] weights, Integer offset, Params params, double[][] table, int threshold) {
        this.scale = scale;
        this.weights = weights;
        this.offset = offset;
        this.params = params;
        this.table = table;
        this.threshold = threshold;
    }

    /** Reads a primitive, an array, a wrapper, the fields of an object in a field and a 2-D array, all fields of this. */
    @Accelerate
    void weighted(float[] x, float[] out) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = x[i] * weights[i] * scale + offset + params.bias + params.lookup[i % params.lookup.length] + (float) table[i % table.length][1];
        }
    }

    @Accelerate
    int countAbove(int[] values) {
        @Reduce int count = 0;
        for (@Parallel int i = 0; i < values.length; i++) {
            count += values[i] > threshold ? 1 : 0;
        }
        return count;
    }

    /** Reads an inherited field when called on a {@link Derived}. */
    @Accelerate
    void scaled(float[] x, float[] out) {
        for (@Parallel int i = 0; i < out.length; i++) {
            out[i] = x[i] * scale - threshold;
        }
    }

    /** A PArray and a 2-D array parameter of an instance method (its parameters come after the receiver). */
    @Accelerate
    void scaleRows(jpai.PArray<Float> values, float[][] m) {
        for (@Parallel int i = 0; i < m.length; i++) {
            for (int j = 0; j < m[i].length; j++) {
                m[i][j] = m[i][j] * scale + values.get(i);
            }
            values.put(i, values.get(i) * scale);
        }
    }

    /** Writes a field of this in the parallel loop: refused, runs as written. */
    @Accelerate
    void countIntoAField(int[] values) {
        for (@Parallel int i = 0; i < values.length; i++) {
            counter = values[i] > threshold ? i : counter;
        }
    }

    /** Writes into the array in a field: refused, runs as written. */
    @Accelerate
    void writeIntoAFieldArray(float[] x) {
        for (@Parallel int i = 0; i < x.length; i++) {
            weights[i] = x[i] * 2;
        }
    }
}
