package jpai.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of a version produced, as named primitive arrays ({@code float[]}, {@code double[]},
 * {@code int[]}), copied out after the run so that validation never touches timed memory.
 */
public final class Output {

    private final Map<String, Object> arrays = new LinkedHashMap<>();

    private Output() {
    }

    /** {@code Output.of("call", callArray, "put", putArray)}. */
    public static Output of(Object... namesAndArrays) {
        Output output = new Output();
        for (int i = 0; i < namesAndArrays.length; i += 2) {
            Object array = namesAndArrays[i + 1];
            if (!(array instanceof float[] || array instanceof double[] || array instanceof int[])) {
                throw new IllegalArgumentException("an output is a float[], double[] or int[], not " + array);
            }
            output.arrays.put((String) namesAndArrays[i], array);
        }
        return output;
    }

    public Map<String, Object> arrays() {
        return arrays;
    }

    public Object get(String name) {
        return arrays.get(name);
    }

    /** True when every element of every array is zero: a sign of a benchmark that computed nothing. */
    public boolean allZero() {
        for (Object array : arrays.values()) {
            if (array instanceof float[] f) {
                for (float v : f) {
                    if (v != 0) {
                        return false;
                    }
                }
            } else if (array instanceof double[] d) {
                for (double v : d) {
                    if (v != 0) {
                        return false;
                    }
                }
            } else {
                for (int v : (int[]) array) {
                    if (v != 0) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    public List<String> names() {
        return new ArrayList<>(arrays.keySet());
    }
}
