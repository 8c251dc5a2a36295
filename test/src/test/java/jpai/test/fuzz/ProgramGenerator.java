package jpai.test.fuzz;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Generates random, well-typed Java lambdas from a seed. Every expression is built for a known
 * static type following the JLS (numeric promotion, casts, boxing), so the programs always compile;
 * every loop has a small bound, so they always terminate; arrays are indexed in bounds unless the
 * program may throw ({@link Feature#EXCEPTIONS}).
 *
 * <p>Transcendental calls appear only at the root of a result component ({@code Math.sin(e)}), so
 * that the ulp bound of that one call is the whole tolerance of that component; everything else is
 * compared bit for bit.
 */
final class ProgramGenerator {

    /** Bounds on size, so programs stay readable reproducers. */
    private static final int MAX_DEPTH = 4;
    private static final int MAX_STATEMENTS = 18;
    private static final int MAX_NESTING = 3;

    static final String[] UNARY_TRANSCENDENTALS = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "expm1", "log", "log10", "log1p", "cbrt"};
    static final String[] BINARY_TRANSCENDENTALS = {"pow", "atan2", "hypot"};
    /** StrictMath's functions (bit-exact in Java: FdLibm), compared bit for bit; not sin/cos/tan, which do not compile to OpenCL (docs/java-semantics.md). */
    private static final String[] STRICT_UNARY = {"asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "expm1", "log", "log10", "log1p", "cbrt", "sqrt"};
    private static final String[] STRICT_BINARY = {"pow", "atan2", "hypot"};

    private final Set<Feature> enabled;
    private final int minElements;
    private final int maxElements;

    ProgramGenerator(Set<Feature> enabled, int minElements, int maxElements) {
        this.enabled = enabled.isEmpty() ? EnumSet.noneOf(Feature.class) : EnumSet.copyOf(enabled);
        this.minElements = minElements;
        this.maxElements = maxElements;
    }

    Program generate(long runSeed, int index) {
        long seed = Program.seedOf(runSeed, index);
        String name = "Fuzz" + (runSeed < 0 ? "m" + Long.toUnsignedString(-runSeed) : Long.toString(runSeed)) + "P" + index;
        return new Builder(new SplittableRandom(seed), runSeed, index, seed, name).build();
    }

    /** A variable in scope. {@code length} is -1 for scalars. */
    private record Var(String name, Prim type, boolean mutable, int length, boolean boxed, int maxValue) {
        boolean isArray() {
            return length >= 0;
        }
    }

    private final class Builder {
        private final SplittableRandom r;
        /**
         * The second random stream: every decision about {@link Feature#STRIDED} and
         * {@link Feature#REDUCTIONS} is drawn from it, and none is drawn unless the program has the
         * feature, so that programs without them are exactly what the runs before these features
         * generated from {@link #r} (docs/fuzzing.md keeps those runs' reproducers).
         */
        private final SplittableRandom r2;
        private final long runSeed;
        private final int index;
        private final long seed;
        private final String className;
        private final Set<Feature> features;
        private final Set<Feature> used = EnumSet.noneOf(Feature.class);
        private final Deque<List<Var>> scopes = new ArrayDeque<>();
        private final StringBuilder body = new StringBuilder();
        private final List<String> captureLines = new ArrayList<>();
        private final Set<String> boxedNames = new HashSet<>();
        private int names;
        private int statements;
        private int loopDepth;
        private List<Prim> outputs;
        private boolean tupleOutput;
        private List<Set<String>> tolerant;
        /** While generating a result: leaves prefer variables, so that results depend on the input and the computation. */
        private boolean inResult;
        /** Whether the program is "core" (see {@link #drawFeatures()}). */
        private boolean core;
        /** The reduce of a {@link Feature#REDUCTIONS} program, else null. */
        private Reduction reduction;
        /** The captured matrices of {@link Feature#STRIDED}, made when first used. */
        private final List<Matrix> matrices = new ArrayList<>();

        Builder(SplittableRandom r, long runSeed, int index, long seed, String className) {
            this.r = r;
            this.r2 = new SplittableRandom(seed ^ 0x2D5A1F0E9C3B7A61L);
            this.runSeed = runSeed;
            this.index = index;
            this.seed = seed;
            this.className = className;
            this.features = drawFeatures();
            drawSecondStreamFeatures();
        }

        /** {@link Feature#STRIDED} and {@link Feature#REDUCTIONS}, from {@link #r2}, never in core programs. */
        private void drawSecondStreamFeatures() {
            if (core) {
                return;
            }
            if (enabled.contains(Feature.STRIDED) && r2.nextDouble() < 0.4) {
                features.add(Feature.STRIDED);
            }
            if (enabled.contains(Feature.REDUCTIONS) && r2.nextDouble() < 0.3) {
                features.add(Feature.REDUCTIONS);
            }
        }

        /** A third of programs are "core" (scalar in and out, no captures, arrays or division); the rest draw each feature with probability 1/2. */
        private Set<Feature> drawFeatures() {
            Set<Feature> set = EnumSet.noneOf(Feature.class);
            boolean core = r.nextInt(3) == 0;
            this.core = core;
            for (Feature f : Feature.original()) {
                if (!enabled.contains(f)) {
                    continue;
                }
                boolean coreFeature = f == Feature.BRANCHES || f == Feature.LOOPS || f == Feature.MATH || f == Feature.TRANSCENDENTALS;
                double p = switch (f) {
                    case BRANCHES, LOOPS, MATH -> 0.75;
                    case TRANSCENDENTALS -> 0.3;
                    case EXCEPTIONS -> 0.2;
                    default -> 0.5;
                };
                if ((!core || coreFeature) && r.nextDouble() < p) {
                    set.add(f);
                }
            }
            return set;
        }

        private boolean has(Feature f) {
            return features.contains(f);
        }

        private boolean chance(double p) {
            return r.nextDouble() < p;
        }

        @SafeVarargs
        private <T> T pick(T... options) {
            return options[r.nextInt(options.length)];
        }

        private String fresh(String prefix) {
            return prefix + names++;
        }

        Program build() {
            // --- input
            boolean tupleInput = has(Feature.TUPLE_INPUT);
            List<Prim> inputs = new ArrayList<>();
            int inputCount = tupleInput ? arity() : 1;
            for (int i = 0; i < inputCount; i++) {
                inputs.add(randomType(true));
            }
            // --- output
            tupleOutput = has(Feature.TUPLE_OUTPUT);
            outputs = new ArrayList<>();
            tolerant = new ArrayList<>();
            int outputCount = tupleOutput ? arity() : 1;
            for (int i = 0; i < outputCount; i++) {
                Prim type = randomType(true);
                if (has(Feature.TRANSCENDENTALS) && chance(0.6)) {
                    type = chance(0.7) ? Prim.DOUBLE : Prim.FLOAT;
                    tolerant.add(new TreeSet<>());
                } else {
                    tolerant.add(null);
                }
                outputs.add(type);
            }
            if (has(Feature.REDUCTIONS)) {
                // the reduce's element type replaces the drawn result (which was drawn all the same,
                // so that what follows comes from the same random numbers)
                used.add(Feature.REDUCTIONS);
                reduction = drawReduction();
                outputs = new ArrayList<>(reduction.elements());
                tupleOutput = reduction.tuple();
                tolerant = new ArrayList<>();
                for (int i = 0; i < outputs.size(); i++) {
                    tolerant.add(null);
                }
            }
            if (tupleInput) {
                used.add(Feature.TUPLE_INPUT);
            }
            if (tupleOutput) {
                used.add(Feature.TUPLE_OUTPUT);
            }

            // --- captures, defined in make()
            scopes.push(new ArrayList<>());
            if (has(Feature.CAPTURES)) {
                int count = 1 + r.nextInt(3);
                for (int i = 0; i < count; i++) {
                    capture();
                }
            }

            // --- the lambda's body
            scopes.push(new ArrayList<>());
            for (int i = 0; i < inputs.size(); i++) {
                String name = "p" + i;
                String from = tupleInput ? "in._" + (i + 1) + "()" : "in";
                line(3, inputs.get(i).java + " " + name + " = " + from + ";");
                declare(new Var(name, inputs.get(i), true, -1, false, Integer.MAX_VALUE));
            }
            int top = 1 + r.nextInt(6);
            for (int i = 0; i < top && statements < MAX_STATEMENTS; i++) {
                statement(3, 0);
            }
            line(3, "return " + result() + ";");

            String source = render(inputs, tupleInput);
            int elements = minElements + r.nextInt(maxElements - minElements + 1);
            List<Set<String>> tolerance = new ArrayList<>();
            for (Set<String> t : tolerant) {
                tolerance.add(t == null ? null : Collections.unmodifiableSet(t));
            }
            return new Program(runSeed, index, seed, className, source, List.copyOf(inputs), tupleInput, List.copyOf(outputs), tupleOutput,
                            Collections.unmodifiableList(tolerance), Collections.unmodifiableSet(EnumSet.copyOf(usedOrNone())), elements, reduction);
        }

        private Set<Feature> usedOrNone() {
            return used.isEmpty() ? EnumSet.noneOf(Feature.class) : used;
        }

        private int arity() {
            return chance(0.8) ? 2 + r.nextInt(3) : 2 + r.nextInt(7);
        }

        private Prim randomType(boolean withBoolean) {
            int w = r.nextInt(withBoolean ? 20 : 18);
            if (w < 4) {
                return Prim.INT;
            } else if (w < 6) {
                return Prim.LONG;
            } else if (w < 9) {
                return Prim.FLOAT;
            } else if (w < 12) {
                return Prim.DOUBLE;
            } else if (w < 14) {
                return Prim.BYTE;
            } else if (w < 16) {
                return Prim.SHORT;
            } else if (w < 18) {
                return Prim.CHAR;
            }
            return Prim.BOOLEAN;
        }

        private String render(List<Prim> inputs, boolean tupleInput) {
            String inType = tupleInput ? tupleType(inputs) : inputs.get(0).box;
            String outType = tupleOutput ? tupleType(outputs) : outputs.get(0).box;
            StringBuilder s = new StringBuilder();
            s.append("package ").append(Program.PACKAGE).append(";\n");
            s.append("\n");
            if (reduction != null) {
                s.append("import java.util.function.BinaryOperator;\n");
            }
            s.append("import java.util.function.Function;\n");
            s.append("import jpai.*;\n");
            s.append("\n");
            s.append("/** jpai fuzz: run seed ").append(runSeed).append(", program ").append(index).append(" (program seed ").append(seed)
                            .append("). Features: ").append(usedOrNone()).append(". */\n");
            s.append("public final class ").append(className).append(" {\n");
            s.append("    public static Function<").append(inType).append(", ").append(outType).append("> make() {\n");
            for (String capture : captureLines) {
                s.append("        ").append(capture).append("\n");
            }
            s.append("        return in -> {\n");
            s.append(body);
            s.append("        };\n");
            s.append("    }\n");
            if (reduction != null) {
                s.append("\n");
                s.append("    public static BinaryOperator<").append(outType).append("> combiner() {\n");
                s.append("        return ").append(reduction.combiner()).append(";\n");
                s.append("    }\n");
                s.append("\n");
                s.append("    public static ").append(outType).append(" identity() {\n");
                s.append("        return ").append(reduction.identity()).append(";\n");
                s.append("    }\n");
                if (reduction.wrapperSource() != null) {
                    s.append("\n");
                    s.append("    ").append(reduction.wrapperSource()).append("\n");
                }
            }
            s.append("}\n");
            return s.toString();
        }

        private String tupleType(List<Prim> prims) {
            StringBuilder s = new StringBuilder("Tuple").append(prims.size()).append("<");
            for (int i = 0; i < prims.size(); i++) {
                s.append(i == 0 ? "" : ", ").append(prims.get(i).box);
            }
            return s.append(">").toString();
        }

        private void line(int indent, String text) {
            body.append("    ".repeat(indent)).append(text).append("\n");
        }

        private void declare(Var v) {
            scopes.peek().add(v);
        }

        private List<Var> visible() {
            List<Var> all = new ArrayList<>();
            for (List<Var> scope : scopes) {
                all.addAll(scope);
            }
            return all;
        }

        // ---------------------------------------------------------------- captures

        private void capture() {
            used.add(Feature.CAPTURES);
            int kind = r.nextInt(4);
            if (kind == 0) { // primitive scalar
                Prim type = randomType(true);
                String name = fresh("k");
                captureLines.add(type.java + " " + name + " = " + literal(type) + ";");
                scopes.peek().add(new Var(name, type, false, -1, false, Integer.MAX_VALUE));
            } else if (kind == 1) { // wrapper
                Prim type = pick(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.BOOLEAN);
                String name = fresh("k");
                captureLines.add(type.box + " " + name + " = " + literal(type) + ";");
                scopes.peek().add(new Var(name, type, false, -1, true, Integer.MAX_VALUE));
                boxedNames.add(name);
            } else if (kind == 3) { // a PArray of scalars, read with get(long) (and length())
                Prim type = randomType(true);
                int length = arrayLength();
                String name = fresh("kp");
                StringBuilder init = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    init.append(i == 0 ? "" : ", ").append(literal(type));
                }
                captureLines.add("PArray<" + type.box + "> " + name + " = PArray.of(new " + type.java + "[] {" + init + "});");
                scopes.peek().add(new Var(name, type, false, length, true, Integer.MAX_VALUE));
            } else { // small primitive array
                Prim type = randomType(true);
                int length = arrayLength();
                String name = fresh("ka");
                StringBuilder init = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    init.append(i == 0 ? "" : ", ").append(literal(type));
                }
                captureLines.add(type.java + "[] " + name + " = {" + init + "};");
                scopes.peek().add(new Var(name, type, false, length, false, Integer.MAX_VALUE));
            }
        }

        private int arrayLength() {
            if (has(Feature.DIVISION) && chance(0.3)) {
                return pick(3, 5, 6, 7);
            }
            return pick(1, 2, 4, 8);
        }

        // ---------------------------------------------------------------- statements

        private void statement(int indent, int nesting) {
            statements++;
            if (has(Feature.STRIDED) && nesting < MAX_NESTING && r2.nextInt(100) < 18) {
                stridedLoop(indent);
                return;
            }
            List<Var> mutable = visible().stream().filter(v -> v.mutable && !v.isArray()).toList();
            List<Var> arrays = visible().stream().filter(Var::isArray).toList();
            List<Var> writableArrays = arrays.stream().filter(v -> v.mutable).toList();
            int w = r.nextInt(100);
            if (w < 22) { // declaration
                Prim type = randomType(true);
                String name = fresh("v");
                line(indent, type.java + " " + name + " = " + expr(type, depth()) + ";");
                declare(new Var(name, type, true, -1, false, Integer.MAX_VALUE));
            } else if (w < 40 && !mutable.isEmpty()) { // assignment
                Var v = mutable.get(r.nextInt(mutable.size()));
                line(indent, v.name + " = " + expr(v.type, depth()) + ";");
            } else if (w < 55 && !mutable.isEmpty()) { // compound assignment or ++/--
                Var v = mutable.get(r.nextInt(mutable.size()));
                line(indent, compound(v));
            } else if (w < 65 && has(Feature.BRANCHES) && nesting < MAX_NESTING) {
                used.add(Feature.BRANCHES);
                line(indent, "if (" + expr(Prim.BOOLEAN, depth()) + ") {");
                block(indent + 1, nesting + 1);
                if (chance(0.6)) {
                    line(indent, "} else {");
                    block(indent + 1, nesting + 1);
                }
                line(indent, "}");
            } else if (w < 76 && has(Feature.LOOPS) && nesting < MAX_NESTING) {
                loop(indent, nesting);
            } else if (w < 83 && has(Feature.ARRAYS)) {
                localArray(indent);
            } else if (w < 91 && !writableArrays.isEmpty()) {
                Var a = writableArrays.get(r.nextInt(writableArrays.size()));
                String op = chance(0.7) || a.type == Prim.BOOLEAN ? " = " : pick(" += ", " -= ", " *= ");
                line(indent, a.name + "[" + index(a) + "]" + op + expr(a.type, depth()) + ";");
            } else if (w < 94 && has(Feature.BRANCHES) && nesting > 0) {
                used.add(Feature.BRANCHES);
                line(indent, "if (" + expr(Prim.BOOLEAN, 2) + ") {");
                line(indent + 1, "return " + result() + ";");
                line(indent, "}");
            } else if (w < 97 && loopDepth > 0) {
                line(indent, "if (" + expr(Prim.BOOLEAN, 2) + ") {");
                line(indent + 1, chance(0.5) ? "break;" : "continue;");
                line(indent, "}");
            } else {
                Prim type = randomType(true);
                String name = fresh("v");
                line(indent, type.java + " " + name + " = " + expr(type, depth()) + ";");
                declare(new Var(name, type, true, -1, false, Integer.MAX_VALUE));
            }
        }

        private int depth() {
            return 1 + r.nextInt(MAX_DEPTH);
        }

        private void block(int indent, int nesting) {
            scopes.push(new ArrayList<>());
            int count = 1 + r.nextInt(3);
            for (int i = 0; i < count && statements < MAX_STATEMENTS; i++) {
                statement(indent, nesting);
            }
            if (count == 0 || body.charAt(body.length() - 2) == '{') {
                statement(indent, nesting);
            }
            scopes.pop();
        }

        private String compound(Var v) {
            if (v.type == Prim.BOOLEAN) {
                return v.name + " " + pick("&=", "|=", "^=") + " " + expr(Prim.BOOLEAN, depth()) + ";";
            }
            int w = r.nextInt(10);
            if (w < 2) {
                return v.name + pick("++", "--") + ";";
            }
            if (v.type.isIntegral() && w < 5) {
                if (chance(0.5)) {
                    return v.name + " " + pick("&=", "|=", "^=") + " " + expr(pick(Prim.INTEGRAL), depth()) + ";";
                }
                return v.name + " " + pick("<<=", ">>=", ">>>=") + " " + expr(pick(Prim.INTEGRAL), depth()) + ";";
            }
            Prim rhs = pick(Prim.NUMERIC);
            if (v.type.isIntegral() && rhs.isIntegral() && has(Feature.DIVISION) && chance(0.25)) {
                used.add(Feature.DIVISION);
                return v.name + " " + pick("/=", "%=") + " " + divisor(rhs) + ";";
            }
            if ((v.type.isFloating() || rhs.isFloating()) && chance(0.2)) {
                return v.name + " " + pick("/=", "%=") + " " + expr(rhs, depth()) + ";";
            }
            return v.name + " " + pick("+=", "-=", "*=") + " " + expr(rhs, depth()) + ";";
        }

        private void loop(int indent, int nesting) {
            used.add(Feature.LOOPS);
            String i = fresh("i");
            int max;
            String header;
            int kind = r.nextInt(4);
            if (kind == 0 || kind == 1) {
                max = 1 + r.nextInt(8);
                header = "for (int " + i + " = 0; " + i + " < " + max + "; " + i + "++)";
            } else if (kind == 2) {
                max = 7;
                header = "for (int " + i + " = 0; " + i + " < (" + expr(Prim.INT, 2) + " & 7); " + i + "++)";
            } else {
                max = 1 + r.nextInt(6);
                header = "for (int " + i + " = " + max + "; " + i + " > 0; " + i + " -= " + (1 + r.nextInt(2)) + ")";
            }
            line(indent, header + " {");
            scopes.push(new ArrayList<>());
            declare(new Var(i, Prim.INT, false, -1, false, max));
            loopDepth++;
            int count = 1 + r.nextInt(3);
            for (int k = 0; k < count && statements < MAX_STATEMENTS; k++) {
                statement(indent + 1, nesting + 1);
            }
            loopDepth--;
            scopes.pop();
            line(indent, "}");
        }

        private void localArray(int indent) {
            used.add(Feature.ARRAYS);
            Prim type = randomType(true);
            int length = arrayLength();
            String name = fresh("arr");
            if (chance(0.5)) {
                line(indent, type.java + "[] " + name + " = new " + type.java + "[" + length + "];");
            } else {
                StringBuilder init = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    init.append(i == 0 ? "" : ", ").append(expr(type, 2));
                }
                line(indent, type.java + "[] " + name + " = {" + init + "};");
            }
            declare(new Var(name, type, true, length, false, Integer.MAX_VALUE));
        }

        /** An element of array {@code a} as an expression of its primitive type: {@code a[i]}, or {@code ((int) a.get(i))} for a captured PArray. */
        private String element(Var a) {
            if (a.boxed) {
                String i = a.length > 0 && chance(0.2) ? "Math.floorMod(" + expr(Prim.INT, 2) + ", (int) " + a.name + ".length())" : index(a);
                return "((" + a.type.java + ") " + a.name + ".get(" + i + "))";
            }
            return a.name + "[" + index(a) + "]";
        }

        /** An index into {@code a}: in bounds, unless the program may throw and the dice say so. */
        private String index(Var a) {
            int length = a.length;
            if (length == 0) {
                return "0";
            }
            if (has(Feature.EXCEPTIONS) && chance(0.1)) {
                used.add(Feature.EXCEPTIONS);
                // in bounds for most values, out of bounds for some
                return "(" + expr(Prim.INT, 2) + " & " + (Integer.highestOneBit(length) * 2 - 1) + ")";
            }
            List<Var> loopVars = visible().stream().filter(v -> v.name.startsWith("i") && v.type == Prim.INT && !v.mutable && v.maxValue < length).toList();
            if (!loopVars.isEmpty() && chance(0.4)) {
                return loopVars.get(r.nextInt(loopVars.size())).name;
            }
            if (Integer.bitCount(length) == 1) {
                return length == 1 ? "0" : "(" + expr(Prim.INT, 2) + " & " + (length - 1) + ")";
            }
            used.add(Feature.DIVISION);
            return "Math.floorMod(" + expr(Prim.INT, 2) + ", " + length + ")";
        }

        // ---------------------------------------------------------------- strided loops (Feature.STRIDED)

        /** A captured row-major matrix {@code name} of {@code rows x cols}, and the captured int {@code stride} that holds {@code cols}. */
        private record Matrix(String name, Prim type, int rows, int cols, String stride) {
        }

        /** The {@code n}-th captured matrix with {@code rows} rows (0: any), made (in make()) when first asked for. */
        private Matrix matrix(int rows) {
            for (Matrix m : matrices) {
                if (rows == 0 || m.rows() == rows) {
                    return m;
                }
            }
            Prim type = rows == 0 ? pickSecond(Prim.WIDE) : matrices.get(0).type();
            int rowCount = rows == 0 ? 1 + r2.nextInt(6) : rows;
            int cols = 1 + r2.nextInt(6);
            String name = fresh("km");
            String stride = fresh("kn");
            StringBuilder init = new StringBuilder();
            for (int i = 0; i < rowCount * cols; i++) {
                init.append(i == 0 ? "" : ", ").append(literal(type));
            }
            captureLines.add(type.java + "[] " + name + " = {" + init + "}; // " + rowCount + " x " + cols + ", row-major");
            captureLines.add("int " + stride + " = " + cols + ";");
            Matrix m = new Matrix(name, type, rowCount, cols, stride);
            matrices.add(m);
            List<Var> captures = scopes.peekLast();
            captures.add(new Var(name, type, false, rowCount * cols, false, Integer.MAX_VALUE));
            captures.add(new Var(stride, Prim.INT, false, -1, false, cols));
            used.add(Feature.CAPTURES);
            return m;
        }

        @SafeVarargs
        private <T> T pickSecond(T... options) {
            return options[r2.nextInt(options.length)];
        }

        /** The stride of {@code m} in an index: its captured int (a loop invariant the compiler cannot fold) or the literal. */
        private String stride(Matrix m) {
            return r2.nextBoolean() ? m.stride() : Integer.toString(m.cols());
        }

        /** An int in 0..bound-1, from the data (or a constant). */
        private String indexBelow(int bound) {
            if (bound == 1 || r2.nextInt(4) == 0) {
                return Integer.toString(r2.nextInt(bound));
            }
            used.add(Feature.DIVISION);
            return "Math.floorMod(" + expr(Prim.INT, 2) + ", " + bound + ")";
        }

        /**
         * A counted loop over a captured matrix at a strided or 2-D index, into a new accumulator
         * (which later statements may read): a column walk {@code m[k * n + col]}, a row walk
         * {@code m[row * n + k]}, a row-times-column product over two matrices (matmul's inner loop), a
         * walk over all of it in two nested loops, or a search that breaks at the first element past a
         * bound. With {@link Feature#EXCEPTIONS}, some loops run one step too far (Java's
         * ArrayIndexOutOfBoundsException for the elements that get there).
         */
        private void stridedLoop(int indent) {
            used.add(Feature.STRIDED);
            used.add(Feature.LOOPS);
            Matrix m = matrix(0);
            Prim type = m.type();
            String acc = fresh("s");
            String k = fresh("k");
            boolean tooFar = has(Feature.EXCEPTIONS) && r2.nextInt(5) == 0;
            if (tooFar) {
                used.add(Feature.EXCEPTIONS);
            }
            String extra = tooFar ? " + 1" : "";
            int kind = r2.nextInt(5);
            if (kind == 4) { // search: the first row whose element in a column passes a bound
                String col = fresh("c");
                line(indent, "int " + col + " = " + indexBelow(m.cols()) + ";");
                line(indent, "int " + acc + " = -1;");
                line(indent, "for (int " + k + " = 0; " + k + " < " + m.rows() + extra + "; " + k + "++) {");
                line(indent + 1, "if (" + m.name() + "[" + k + " * " + stride(m) + " + " + col + "] " + pickSecond(">", "<=", "==", "!=") + " " + leaf(type) + ") {");
                line(indent + 2, acc + " = " + k + ";");
                line(indent + 2, "break;");
                line(indent + 1, "}");
                line(indent, "}");
                declare(new Var(acc, Prim.INT, true, -1, false, Integer.MAX_VALUE));
                return;
            }
            line(indent, type.java + " " + acc + " = " + leaf(type) + ";");
            String earlyBreak = r2.nextInt(3) == 0 ? "if (" + acc + " " + pickSecond(">", "<", "!=") + " " + literal(type) + ") break;" : null;
            if (kind == 0) { // column walk
                String col = fresh("c");
                line(indent, "int " + col + " = " + indexBelow(m.cols()) + ";");
                line(indent, "for (int " + k + " = 0; " + k + " < " + m.rows() + extra + "; " + k + "++) {");
                line(indent + 1, acc + " " + pickSecond("+=", "-=", "*=") + " " + m.name() + "[" + k + " * " + stride(m) + " + " + col + "];");
            } else if (kind == 1) { // row walk
                String row = fresh("r");
                line(indent, "int " + row + " = " + indexBelow(m.rows()) + ";");
                line(indent, "for (int " + k + " = 0; " + k + " < " + m.cols() + extra + "; " + k + "++) {");
                line(indent + 1, acc + " " + pickSecond("+=", "-=") + " " + m.name() + "[" + row + " * " + stride(m) + " + " + k + "];");
            } else if (kind == 2) { // matmul's inner loop: a row of m times a column of a matrix with m.cols() rows
                Matrix b = matrix(m.cols());
                String row = fresh("r");
                String col = fresh("c");
                line(indent, "int " + row + " = " + indexBelow(m.rows()) + ";");
                line(indent, "int " + col + " = " + indexBelow(b.cols()) + ";");
                line(indent, "for (int " + k + " = 0; " + k + " < " + m.cols() + extra + "; " + k + "++) {");
                line(indent + 1, acc + " += " + m.name() + "[" + row + " * " + stride(m) + " + " + k + "] * " + b.name() + "[" + k + " * " + stride(b) + " + " + col + "];");
            } else { // all of it, two nested counted loops
                String j = fresh("k");
                line(indent, "for (int " + k + " = 0; " + k + " < " + m.rows() + "; " + k + "++) {");
                line(indent + 1, "for (int " + j + " = 0; " + j + " < " + m.cols() + extra + "; " + j + "++) {");
                line(indent + 2, acc + " " + pickSecond("+=", "-=", "*=") + " " + m.name() + "[" + k + " * " + stride(m) + " + " + j + "];");
                if (earlyBreak != null) {
                    line(indent + 2, earlyBreak);
                }
                line(indent + 1, "}");
                earlyBreak = null;
            }
            if (earlyBreak != null) {
                line(indent + 1, earlyBreak);
            }
            line(indent, "}");
            declare(new Var(acc, type, true, -1, false, Integer.MAX_VALUE));
        }

        // ---------------------------------------------------------------- reductions (Feature.REDUCTIONS)

        private Reduction drawReduction() {
            Reduction.Family family = Reduction.Family.values()[r2.nextInt(Reduction.Family.values().length)];
            switch (family) {
                case FIRST_MATCH: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.SHORT);
                    String zero = zero(t);
                    String tuple = "Tuple2<Boolean, " + t.box + ">";
                    return new Reduction(family, List.of(Prim.BOOLEAN, t), "(a, b) -> a._1() ? a : b", "new Tuple2<>(false, " + zero + ")", "found",
                                    "private static " + tuple + " found(boolean found, " + t.java + " value) {\n        return new Tuple2<>(found, found ? value : " + zero + ");\n    }");
                }
                case MATRIX_PRODUCT: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG);
                    String one = t == Prim.LONG ? "1L" : "1";
                    String zero = t == Prim.LONG ? "0L" : "0";
                    return new Reduction(family, List.of(t, t, t, t),
                                    "(a, b) -> new Tuple4<>(a._1() * b._1() + a._2() * b._3(), a._1() * b._2() + a._2() * b._4(), a._3() * b._1() + a._4() * b._3(), a._3() * b._2() + a._4() * b._4())",
                                    "new Tuple4<>(" + one + ", " + zero + ", " + zero + ", " + one + ")", null, null);
                }
                case AFFINE_COMPOSITION: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG);
                    String suffix = t == Prim.LONG ? "L" : "";
                    return new Reduction(family, List.of(t, t), "(f, g) -> new Tuple2<>(f._1() * g._1(), g._1() * f._2() + g._2())", "new Tuple2<>(1" + suffix + ", 0" + suffix + ")", null, null);
                }
                case POLYNOMIAL_HASH: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG);
                    String suffix = t == Prim.LONG ? "L" : "";
                    return new Reduction(family, List.of(t, t), "(a, b) -> new Tuple2<>(a._1() * b._2() + b._1(), a._2() * b._2())", "new Tuple2<>(0" + suffix + ", 1" + suffix + ")", null, null);
                }
                case ARG_MAX: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG, Prim.SHORT, Prim.CHAR, Prim.BYTE);
                    String min = t.box.equals("Integer") ? "Integer.MIN_VALUE" : t.box + ".MIN_VALUE";
                    String tuple = "Tuple2<" + t.box + ", Integer>";
                    // values at the minimum carry payload -1, as the identity does: so the identity is neutral
                    return new Reduction(family, List.of(t, Prim.INT), "(a, b) -> b._1() > a._1() ? b : a", "new Tuple2<>(" + min + ", -1)", "arg",
                                    "private static " + tuple + " arg(" + t.java + " value, int payload) {\n        return new Tuple2<>(value, value == " + min + " ? -1 : payload);\n    }");
                }
                default: {
                    Prim t = pickSecond(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE);
                    String suffix = t == Prim.LONG ? "L" : "";
                    if (t.isFloating()) {
                        boolean min = r2.nextBoolean();
                        String infinity = t.box + (min ? ".POSITIVE_INFINITY" : ".NEGATIVE_INFINITY");
                        return new Reduction(family, List.of(t), "(a, b) -> Math." + (min ? "min" : "max") + "(a, b)", infinity, null, null);
                    }
                    int op = r2.nextInt(7);
                    String[] combiners = {"a + b", "a * b", "a ^ b", "a & b", "a | b", "Math.min(a, b)", "Math.max(a, b)"};
                    String[] identities = {"0" + suffix, "1" + suffix, "0" + suffix, "-1" + suffix, "0" + suffix, t.box + ".MAX_VALUE", t.box + ".MIN_VALUE"};
                    String identity = identities[op].startsWith("-") ? "(" + identities[op] + ")" : identities[op];
                    return new Reduction(family, List.of(t), "(a, b) -> " + combiners[op], identity, null, null);
                }
            }
        }

        private static String zero(Prim t) {
            return switch (t) {
                case LONG -> "0L";
                case FLOAT -> "0.0f";
                case DOUBLE -> "0.0";
                case SHORT -> "((short) 0)";
                default -> "0";
            };
        }

        // ---------------------------------------------------------------- results

        private String result() {
            inResult = true;
            try {
                return resultComponents();
            } finally {
                inResult = false;
            }
        }

        private String resultComponents() {
            if (!tupleOutput) {
                return component(0);
            }
            StringBuilder s = new StringBuilder(reduction != null && reduction.wrapper() != null ? reduction.wrapper() + "(" : "new Tuple" + outputs.size() + "<>(");
            for (int c = 0; c < outputs.size(); c++) {
                s.append(c == 0 ? "" : ", ").append(component(c));
            }
            return s.append(")").toString();
        }

        private String component(int c) {
            Prim type = outputs.get(c);
            Set<String> functions = tolerant.get(c);
            if (functions == null) {
                return expr(type, depth());
            }
            used.add(Feature.TRANSCENDENTALS);
            String call;
            if (chance(0.75)) {
                String f = pick(UNARY_TRANSCENDENTALS);
                functions.add(f);
                call = "Math." + f + "(" + expr(Prim.DOUBLE, depth() - 1) + ")";
            } else {
                String f = pick(BINARY_TRANSCENDENTALS);
                functions.add(f);
                call = "Math." + f + "(" + expr(Prim.DOUBLE, 2) + ", " + expr(Prim.DOUBLE, 2) + ")";
            }
            return type == Prim.FLOAT ? "(float) " + call : call;
        }

        // ---------------------------------------------------------------- expressions

        /** An expression whose static type is exactly {@code type}. */
        private String expr(Prim type, int depth) {
            if (type == Prim.BOOLEAN) {
                return condition(depth);
            }
            if (depth <= 0 || chance(0.2)) {
                return leaf(type);
            }
            int w = r.nextInt(100);
            if (w < 30) {
                return arithmetic(type, depth);
            } else if (w < 40) {
                Prim a = operand(true);
                Prim b = operand(true);
                return as(type, "(" + expr(a, depth - 1) + " " + pick("&", "|", "^") + " " + expr(b, depth - 1) + ")", Prim.promote(a, b));
            } else if (w < 48) {
                Prim a = operand(true);
                Prim b = operand(true);
                return as(type, "(" + expr(a, depth - 1) + " " + pick("<<", ">>", ">>>") + " " + expr(b, depth - 1) + ")", a.promoted());
            } else if (w < 54) {
                if (chance(0.5)) {
                    Prim a = pick(Prim.NUMERIC);
                    return as(type, "(-" + expr(a, depth - 1) + ")", a.promoted());
                }
                Prim a = operand(true);
                return as(type, "(~" + expr(a, depth - 1) + ")", a.promoted());
            } else if (w < 62) {
                Prim from = pick(Prim.NUMERIC);
                String code = expr(from, depth - 1);
                return from == type ? code : as(type, code, from);
            } else if (w < 70 && has(Feature.BRANCHES)) {
                used.add(Feature.BRANCHES);
                return "(" + condition(depth - 1) + " ? " + expr(type, depth - 1) + " : " + expr(type, depth - 1) + ")";
            } else if (w < 88 && has(Feature.MATH)) {
                return math(type, depth);
            } else if (w < 95) {
                List<Var> arrays = visible().stream().filter(v -> v.isArray() && v.type.isNumeric()).toList();
                if (!arrays.isEmpty()) {
                    Var a = arrays.get(r.nextInt(arrays.size()));
                    return as(type, element(a), a.type);
                }
            }
            return leaf(type);
        }

        /** An operand type for integral operations. */
        private Prim operand(boolean integral) {
            return integral ? (chance(0.6) ? pick(Prim.INT, Prim.LONG) : pick(Prim.INTEGRAL)) : pick(Prim.NUMERIC);
        }

        private String arithmetic(Prim type, int depth) {
            Prim a = chance(0.5) ? type : pick(Prim.NUMERIC);
            Prim b = chance(0.5) ? type : pick(Prim.NUMERIC);
            Prim result = Prim.promote(a, b);
            String left = expr(a, depth - 1);
            String op;
            String right;
            if (result.isFloating()) {
                op = pick("+", "-", "*", "/", "%");
                right = expr(b, depth - 1);
            } else if (has(Feature.DIVISION) && chance(0.25)) {
                used.add(Feature.DIVISION);
                op = pick("/", "%");
                right = divisor(b);
                result = Prim.promote(a, b == Prim.LONG ? Prim.LONG : Prim.INT);
            } else {
                op = pick("+", "-", "*");
                right = expr(b, depth - 1);
            }
            return as(type, "(" + left + " " + op + " " + right + ")", result);
        }

        /** An integral divisor of type {@code b} (promoted): never zero, unless the program may throw. */
        private String divisor(Prim b) {
            if (has(Feature.EXCEPTIONS) && chance(0.3)) {
                used.add(Feature.EXCEPTIONS);
                return expr(b, 1);
            }
            return "(" + expr(b, 1) + (b == Prim.LONG ? " | 1L)" : " | 1)");
        }

        private String condition(int depth) {
            if (depth <= 0 || chance(0.15)) {
                List<Var> bools = visible().stream().filter(v -> v.type == Prim.BOOLEAN && !v.isArray()).toList();
                if (!bools.isEmpty() && chance(0.6)) {
                    return read(bools.get(r.nextInt(bools.size())));
                }
                if (chance(0.2)) {
                    return chance(0.5) ? "true" : "false";
                }
            }
            int w = r.nextInt(100);
            int d = Math.max(depth - 1, 0);
            if (w < 45) {
                Prim a = pick(Prim.NUMERIC);
                Prim b = chance(0.5) ? a : pick(Prim.NUMERIC);
                return "(" + expr(a, d) + " " + pick("<", "<=", ">", ">=", "==", "!=") + " " + expr(b, d) + ")";
            } else if (w < 65) {
                return "(" + condition(d) + " " + pick("&&", "||", "^", "&", "|", "==", "!=") + " " + condition(d) + ")";
            } else if (w < 72) {
                return "(!" + condition(d) + ")";
            } else if (w < 80) {
                Prim f = pick(Prim.FLOAT, Prim.DOUBLE);
                return pick("Float", "Double").equals("Float") && f == Prim.FLOAT ? "Float." + pick("isNaN", "isInfinite", "isFinite") + "(" + expr(f, d) + ")"
                                : "Double." + pick("isNaN", "isInfinite", "isFinite") + "(" + expr(Prim.DOUBLE, d) + ")";
            } else if (w < 86 && has(Feature.BRANCHES)) {
                return "(" + condition(d) + " ? " + condition(d) + " : " + condition(d) + ")";
            } else if (w < 92) {
                List<Var> arrays = visible().stream().filter(v -> v.isArray() && v.type == Prim.BOOLEAN).toList();
                if (!arrays.isEmpty()) {
                    Var a = arrays.get(r.nextInt(arrays.size()));
                    return element(a);
                }
            }
            List<Var> bools = visible().stream().filter(v -> v.type == Prim.BOOLEAN && !v.isArray()).toList();
            if (!bools.isEmpty()) {
                return read(bools.get(r.nextInt(bools.size())));
            }
            Prim a = pick(Prim.NUMERIC);
            return "(" + expr(a, d) + " " + pick("<", ">=", "==", "!=") + " " + literal(a) + ")";
        }

        /** A variable or a literal of {@code type}, or another variable cast to it. */
        private String leaf(Prim type) {
            List<Var> vars = visible().stream().filter(v -> !v.isArray()).toList();
            List<Var> same = vars.stream().filter(v -> v.type == type).toList();
            List<Var> inputs = vars.stream().filter(v -> v.name.startsWith("p") && v.type.isNumeric()).toList();
            int w = r.nextInt(100);
            if (inResult && w < 80 && !vars.isEmpty()) {
                List<Var> numericVars = vars.stream().filter(v -> v.type.isNumeric()).toList();
                if (!numericVars.isEmpty()) {
                    Var v = numericVars.get(r.nextInt(numericVars.size()));
                    return v.type == type ? read(v) : as(type, read(v), v.type);
                }
            }
            if (w < 25 && !inputs.isEmpty()) { // keep results data-dependent: prefer the inputs
                Var v = inputs.get(r.nextInt(inputs.size()));
                return v.type == type ? read(v) : as(type, read(v), v.type);
            }
            if (w < 55 && !same.isEmpty()) {
                return read(same.get(r.nextInt(same.size())));
            }
            List<Var> numeric = vars.stream().filter(v -> v.type.isNumeric()).toList();
            if (w < 75 && !numeric.isEmpty()) {
                Var v = numeric.get(r.nextInt(numeric.size()));
                return v.type == type ? read(v) : as(type, read(v), v.type);
            }
            return literal(type);
        }

        private String read(Var v) {
            if (!v.boxed) {
                return v.name;
            }
            // Wrappers are read unboxed in a form that may also be cast: (+k1) is a primitive.
            return v.type == Prim.BOOLEAN ? v.name + ".booleanValue()" : "(+" + v.name + ")";
        }

        /** {@code code} (of static type {@code from}) as a {@code to}: a cast when they differ. */
        private String as(Prim to, String code, Prim from) {
            if (to == from) {
                return code;
            }
            if (to == Prim.BOOLEAN || from == Prim.BOOLEAN) {
                throw new IllegalStateException("no cast between " + from + " and " + to);
            }
            return "((" + to.java + ") " + code + ")";
        }

        // ---------------------------------------------------------------- library calls

        private String math(Prim type, int depth) {
            used.add(Feature.MATH);
            int d = depth - 1;
            int w = r.nextInt(25);
            Prim wide = pick(Prim.WIDE);
            switch (w) {
                case 0, 1:
                    return as(type, "Math.abs(" + expr(wide, d) + ")", wide);
                case 2, 3: {
                    Prim other = pick(Prim.WIDE);
                    return as(type, "Math." + pick("min", "max") + "(" + expr(wide, d) + ", " + expr(other, d) + ")", Prim.promote(wide, other));
                }
                case 4:
                    return chance(0.5) ? as(type, "Math.round(" + expr(Prim.FLOAT, d) + ")", Prim.INT) : as(type, "Math.round(" + expr(Prim.DOUBLE, d) + ")", Prim.LONG);
                case 5, 6:
                    return as(type, "Math." + pick("floor", "ceil", "rint", "sqrt") + "(" + expr(Prim.DOUBLE, d) + ")", Prim.DOUBLE);
                case 7: {
                    Prim f = pick(Prim.FLOAT, Prim.DOUBLE);
                    return as(type, "Math.signum(" + expr(f, d) + ")", f);
                }
                case 8: {
                    Prim f = pick(Prim.FLOAT, Prim.DOUBLE);
                    // StrictMath: Math.copySign's result for a NaN sign is not defined by Java (docs/java-semantics.md)
                    return as(type, "StrictMath.copySign(" + expr(f, d) + ", " + expr(f, d) + ")", f);
                }
                case 9, 10: {
                    Prim i = pick(Prim.INT, Prim.LONG);
                    String cls = i == Prim.INT ? "Integer" : "Long";
                    String f = pick("bitCount", "numberOfLeadingZeros", "numberOfTrailingZeros", "signum");
                    return as(type, cls + "." + f + "(" + expr(i, d) + ")", Prim.INT);
                }
                case 11: {
                    Prim i = pick(Prim.INT, Prim.LONG);
                    String cls = i == Prim.INT ? "Integer" : "Long";
                    String f = pick("reverse", "reverseBytes", "highestOneBit", "lowestOneBit");
                    return as(type, cls + "." + f + "(" + expr(i, d) + ")", i);
                }
                case 12: {
                    Prim i = pick(Prim.INT, Prim.LONG);
                    String cls = i == Prim.INT ? "Integer" : "Long";
                    return as(type, cls + "." + pick("rotateLeft", "rotateRight") + "(" + expr(i, d) + ", " + expr(Prim.INT, d) + ")", i);
                }
                case 13: {
                    Prim c = pick(Prim.INT, Prim.LONG, Prim.FLOAT, Prim.DOUBLE, Prim.CHAR);
                    String cls = c == Prim.CHAR ? "Character" : c.box;
                    return as(type, cls + ".compare(" + expr(c, d) + ", " + expr(c, d) + ")", Prim.INT);
                }
                case 14:
                    return chance(0.5) ? as(type, "Float.floatToIntBits(" + expr(Prim.FLOAT, d) + ")", Prim.INT)
                                    : as(type, "Double.doubleToLongBits(" + expr(Prim.DOUBLE, d) + ")", Prim.LONG);
                case 15:
                    return chance(0.5) ? as(type, "Float.intBitsToFloat(" + expr(Prim.INT, d) + ")", Prim.FLOAT)
                                    : as(type, "Double.longBitsToDouble(" + expr(Prim.LONG, d) + ")", Prim.DOUBLE);
                case 16:
                    return chance(0.5) ? as(type, "Short.reverseBytes(" + expr(Prim.SHORT, d) + ")", Prim.SHORT)
                                    : as(type, "Character.reverseBytes(" + expr(Prim.CHAR, d) + ")", Prim.CHAR);
                case 17: {
                    if (chance(0.5)) {
                        int lo = r.nextInt(200) - 100;
                        return as(type, "Math.clamp(" + expr(Prim.LONG, d) + ", " + lo + ", " + (lo + r.nextInt(1000)) + ")", Prim.INT);
                    }
                    double lo = r.nextInt(200) - 100.5;
                    return as(type, "Math.clamp(" + expr(Prim.DOUBLE, d) + ", " + lo + ", " + (lo + r.nextInt(1000)) + ")", Prim.DOUBLE);
                }
                case 18:
                    return as(type, "Integer.toUnsignedLong(" + expr(Prim.INT, d) + ")", Prim.LONG);
                case 19: {
                    Prim i = pick(Prim.INT, Prim.LONG);
                    String cls = i == Prim.INT ? "Integer" : "Long";
                    return as(type, cls + ".compareUnsigned(" + expr(i, d) + ", " + expr(i, d) + ")", Prim.INT);
                }
                case 20, 21:
                    if (has(Feature.DIVISION)) {
                        used.add(Feature.DIVISION);
                        Prim i = pick(Prim.INT, Prim.LONG);
                        return as(type, "Math." + pick("floorDiv", "floorMod") + "(" + expr(i, d) + ", " + divisor(i) + ")", i);
                    }
                    return as(type, "Math.abs(" + expr(wide, d) + ")", wide);
                case 22:
                    if (has(Feature.EXCEPTIONS)) {
                        used.add(Feature.EXCEPTIONS);
                        Prim i = pick(Prim.INT, Prim.LONG);
                        if (chance(0.3)) {
                            return as(type, "Math.negateExact(" + expr(i, d) + ")", i);
                        }
                        return as(type, "Math." + pick("addExact", "subtractExact", "multiplyExact") + "(" + expr(i, d) + ", " + expr(i, d) + ")", i);
                    }
                    return as(type, "Math.abs(" + expr(wide, d) + ")", wide);
                case 24: {
                    // StrictMath is bit-exact (FdLibm, inlined and compiled like user code): compared bit for bit.
                    if (chance(0.25)) {
                        return as(type, "StrictMath." + pick(STRICT_BINARY) + "(" + expr(Prim.DOUBLE, d) + ", " + expr(Prim.DOUBLE, d) + ")", Prim.DOUBLE);
                    }
                    return as(type, "StrictMath." + pick(STRICT_UNARY) + "(" + expr(Prim.DOUBLE, d) + ")", Prim.DOUBLE);
                }
                default: {
                    Prim f = pick(Prim.FLOAT, Prim.DOUBLE);
                    return as(type, "Math." + pick("ulp", "nextUp", "nextDown") + "(" + expr(f, d) + ")", f);
                }
            }
        }

        // ---------------------------------------------------------------- literals

        private String literal(Prim type) {
            switch (type) {
                case BOOLEAN:
                    return chance(0.5) ? "true" : "false";
                case BYTE: {
                    byte v = (byte) (chance(0.5) ? pick(0, 1, -1, 127, -128, 64) : r.nextInt());
                    return "((byte) " + v + ")";
                }
                case SHORT: {
                    short v = (short) (chance(0.5) ? pick(0, 1, -1, 32767, -32768, 255, 256) : r.nextInt());
                    return "((short) " + v + ")";
                }
                case CHAR: {
                    int v = chance(0.5) ? pick(0, 1, 65, 97, 0x7fff, 0x8000, 0xffff) : r.nextInt(65536);
                    if ((v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z') || (v >= '0' && v <= '9')) {
                        return "'" + (char) v + "'";
                    }
                    return "((char) " + v + ")";
                }
                case INT: {
                    int v = chance(0.6) ? pick(0, 1, -1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 100, 127, 128, 255, 256, -128, 65535, 0x7fff, Integer.MIN_VALUE, Integer.MAX_VALUE)
                                    : chance(0.5) ? r.nextInt(2001) - 1000 : r.nextInt();
                    return intLiteral(v);
                }
                case LONG: {
                    long v = chance(0.6) ? pick(0L, 1L, -1L, 2L, 31L, 32L, 63L, 64L, 65L, 255L, (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 1L << 32, Long.MIN_VALUE, Long.MAX_VALUE)
                                    : chance(0.5) ? r.nextInt(2001) - 1000 : r.nextLong();
                    if (v == Long.MIN_VALUE) {
                        return "Long.MIN_VALUE";
                    }
                    if (v == Long.MAX_VALUE) {
                        return "Long.MAX_VALUE";
                    }
                    return v < 0 ? "(" + v + "L)" : v + "L";
                }
                case FLOAT: {
                    float v = chance(0.6) ? pick(0f, -0f, 1f, -1f, 0.5f, 1.5f, -2.5f, 3f, 0.1f, 1e10f, -1e-10f, 16777216f, 2.14748365E9f, 9.223372E18f, Float.NaN, Float.POSITIVE_INFINITY,
                                    Float.NEGATIVE_INFINITY, Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL)
                                    : chance(0.7) ? (float) ((r.nextDouble() - 0.5) * 2000) : Float.intBitsToFloat(r.nextInt());
                    return floatLiteral(v);
                }
                case DOUBLE: {
                    double v = chance(0.6) ? pick(0d, -0d, 1d, -1d, 0.5, 1.5, -2.5, 0.1, 1e300, -1e-300, 9007199254740992d, 2147483648d, 9.223372036854776E18, Double.NaN, Double.POSITIVE_INFINITY,
                                    Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL, Math.PI)
                                    : chance(0.7) ? (r.nextDouble() - 0.5) * 2e6 : Double.longBitsToDouble(r.nextLong());
                    return doubleLiteral(v);
                }
                default:
                    throw new IllegalArgumentException(String.valueOf(type));
            }
        }
    }

    static String intLiteral(int v) {
        if (v == Integer.MIN_VALUE) {
            return "Integer.MIN_VALUE";
        }
        if (v == Integer.MAX_VALUE) {
            return "Integer.MAX_VALUE";
        }
        return v < 0 ? "(" + v + ")" : Integer.toString(v);
    }

    static String floatLiteral(float v) {
        if (Float.isNaN(v)) {
            return "Float.NaN";
        }
        if (v == Float.POSITIVE_INFINITY) {
            return "Float.POSITIVE_INFINITY";
        }
        if (v == Float.NEGATIVE_INFINITY) {
            return "Float.NEGATIVE_INFINITY";
        }
        if (v == Float.MAX_VALUE) {
            return "Float.MAX_VALUE";
        }
        if (v == Float.MIN_VALUE) {
            return "Float.MIN_VALUE";
        }
        String text = Float.toString(v) + "f";
        return Float.floatToRawIntBits(v) < 0 ? "(" + text + ")" : text;
    }

    static String doubleLiteral(double v) {
        if (Double.isNaN(v)) {
            return "Double.NaN";
        }
        if (v == Double.POSITIVE_INFINITY) {
            return "Double.POSITIVE_INFINITY";
        }
        if (v == Double.NEGATIVE_INFINITY) {
            return "Double.NEGATIVE_INFINITY";
        }
        if (v == Double.MAX_VALUE) {
            return "Double.MAX_VALUE";
        }
        if (v == Double.MIN_VALUE) {
            return "Double.MIN_VALUE";
        }
        String text = Double.toString(v);
        return Double.doubleToRawLongBits(v) < 0 ? "(" + text + ")" : text;
    }

    /** Features as a stable string, for summaries. */
    static String names(Set<Feature> features) {
        Set<String> out = new LinkedHashSet<>();
        for (Feature f : features) {
            out.add(f.name().toLowerCase(java.util.Locale.ROOT));
        }
        return String.join(",", out);
    }
}
