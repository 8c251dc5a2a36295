package jpai.test.fuzz;

import java.util.List;
import java.util.Set;

import jpai.DataType;
import jpai.ElementType;
import jpai.TupleType;

/**
 * One generated program: a Java class {@code fuzzgen.<className>} whose static {@code make()}
 * returns the lambda, and what the runner needs to feed and check it.
 *
 * @param runSeed the seed of the run
 * @param index the program's number in the run
 * @param seed the program's own seed, {@link #seedOf(long, int)}
 * @param inputs the lambda's input components (one for a scalar input)
 * @param outputs the lambda's result components (one for a scalar result)
 * @param tolerant per output component, the transcendental functions at its root, or null when it
 *        is compared bit for bit
 * @param features the features the program uses
 * @param elements the number of input elements
 * @param reduction for a {@link Feature#REDUCTIONS} program, the reduce after the map; else null
 */
record Program(long runSeed, int index, long seed, String className, String source, List<Prim> inputs, boolean tupleInput,
                List<Prim> outputs, boolean tupleOutput, List<Set<String>> tolerant, Set<Feature> features, int elements, Reduction reduction) {

    static final String PACKAGE = "fuzzgen";

    String qualifiedName() {
        return PACKAGE + "." + className;
    }

    DataType inputType() {
        return type(inputs, tupleInput);
    }

    DataType outputType() {
        return type(outputs, tupleOutput);
    }

    private static DataType type(List<Prim> prims, boolean tuple) {
        if (!tuple) {
            return prims.get(0).element;
        }
        return new TupleType(prims.stream().map(p -> p.element).toList());
    }

    /** The ulp bound of output component {@code c}; 0 for bit-exact components. */
    long ulpBound(int c) {
        Set<String> functions = tolerant.get(c);
        if (functions == null || functions.isEmpty()) {
            return 0;
        }
        long bound = 0;
        for (String f : functions) {
            bound = Math.max(bound, UlpBounds.bound(f, outputs.get(c)));
        }
        return bound;
    }

    /** Program {@code index}'s seed in a run of seed {@code runSeed}: SplitMix64 of both. */
    static long seedOf(long runSeed, int index) {
        return mix(mix(runSeed) + 0x9E3779B97F4A7C15L * (index + 1L));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The source with line numbers, for reports. */
    String numberedSource() {
        StringBuilder out = new StringBuilder();
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i == lines.length - 1 && lines[i].isEmpty()) {
                break;
            }
            out.append(String.format("%4d  %s%n", i + 1, lines[i]));
        }
        return out.toString();
    }

    static ElementType element(Prim p) {
        return p.element;
    }
}
