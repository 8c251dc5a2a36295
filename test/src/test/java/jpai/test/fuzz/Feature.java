package jpai.test.fuzz;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a generated program may contain. A run enables a set of them ({@code --features}); each
 * program then draws its own subset, so that simple programs (which today's compiler takes to
 * OpenCL) and rich ones (which exercise fallbacks and future features) both come up.
 */
enum Feature {
    /** if/else, ternaries, early returns. */
    BRANCHES,
    /** for loops, nested, with constant or data-dependent bounds; break and continue. */
    LOOPS,
    /** Local arrays of constant size, read and written. */
    ARRAYS,
    /** Captured effectively-final locals: scalars, wrappers, small primitive arrays, PArrays of scalars (read with get and length). */
    CAPTURES,
    /** Tuple2..Tuple8 as the lambda's input. */
    TUPLE_INPUT,
    /** Tuple2..Tuple8 as the lambda's result. */
    TUPLE_OUTPUT,
    /** Exact library calls: Math.abs/min/max/round/floor/ceil/rint/signum/sqrt/copySign/clamp, bit twiddling, compare, float bits; StrictMath (bit-exact FdLibm). */
    MATH,
    /** sin, cos, exp, log, pow, ... (compared within the ulp bound of UlpBounds). */
    TRANSCENDENTALS,
    /** Integer / and % (with divisors that cannot be zero unless EXCEPTIONS), floorDiv, floorMod. */
    DIVISION,
    /** Code that may throw: integer division by a possible zero, array indices possibly out of bounds, Math.*Exact. */
    EXCEPTIONS,
    /**
     * Captured matrices (row-major primitive arrays) walked by counted loops at strided and 2-D
     * indices ({@code m[k * n + col]}, {@code a[row * n + k] * b[k * m + col]}), loops that break
     * early, searches: the shapes the bounds-check hoisting speculates on. Drawn from a second random
     * stream, so programs without it are the ones earlier runs generated.
     */
    STRIDED,
    /**
     * The program is a map then a reduce: {@code AF.map(f).reduce(op, identity)} with an operator
     * from a family of associative ones, most of them not commutative (first match, 2x2 matrix
     * product, affine composition, polynomial hash, argmax with ties), some commutative (sum, min,
     * xor, ...); the device must give the sequential fold's result. Drawn from a second random stream.
     */
    REDUCTIONS;

    /** The features of the first two fuzzing rounds: with only these, seed S program i is what those runs generated. */
    static Set<Feature> original() {
        return EnumSet.range(BRANCHES, EXCEPTIONS);
    }

    static Set<Feature> all() {
        return EnumSet.allOf(Feature.class);
    }

    /**
     * Parses a comma-separated list: {@code all}, {@code none}, a feature name to add, or {@code -name}
     * to remove, applied left to right (e.g. {@code all,-tuple_input}); starts from all when the first
     * item is a removal.
     */
    static Set<Feature> parse(String spec) {
        Set<Feature> result = EnumSet.noneOf(Feature.class);
        boolean first = true;
        for (String raw : spec.split(",")) {
            String trimmed = raw.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            boolean remove = trimmed.startsWith("-");
            String item = (remove ? trimmed.substring(1) : trimmed).toUpperCase(Locale.ROOT).replace('-', '_');
            if (remove) {
                if (first) {
                    result.addAll(all());
                }
            }
            first = false;
            if (item.equals("ALL")) {
                result.addAll(all());
            } else if (item.equals("NONE")) {
                result.clear();
            } else {
                Feature feature = Feature.valueOf(item);
                if (remove) {
                    result.remove(feature);
                } else {
                    result.add(feature);
                }
            }
        }
        return result;
    }
}
