package jpai.test.fuzz;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple;
import jpai.FallbackException;

/**
 * Runs one program on the JVM ({@link Executor#SEQUENTIAL}, the reference) and on the device
 * ({@link Executor#ACCELERATOR} with {@code jpai.fallback=error}), and says how they compare.
 */
final class DifferentialRunner {

    enum Category {
        /** Same result, element for element (bit for bit, or within the ulp bound for transcendentals). */
        MATCH(false),
        /** A bug: the device computed something else. */
        MISMATCH(true),
        /** The runtime could not run it on OpenCL (the reason is recorded); not a bug. */
        FALLBACK(false),
        /** Both threw, the same exception class. */
        BOTH_THREW_SAME(false),
        /** A bug: one threw and the other did not, or they threw different exceptions. */
        THREW_DIFFERENTLY(true),
        /** A bug: the device path fell back to Java, and that Java run gave another answer than the sequential one. */
        FALLBACK_MISMATCH(true),
        /** A bug: the OpenCL compiler rejected the generated C (the backend emitted invalid code). */
        OPENCL_REJECTED(true),
        /** A bug in the fuzzer: the generated program does not compile. */
        GENERATOR_ERROR(true);

        final boolean isBug;

        Category(boolean isBug) {
            this.isBug = isBug;
        }
    }

    /**
     * @param detail for bugs: what differs (the first differing element, its input, both values)
     * @param reason for FALLBACK and OPENCL_REJECTED: the runtime's reason, normalised for counting
     */
    record Outcome(Program program, Category category, String detail, String reason, long nanos) {
    }

    private static final Pattern AT = Pattern.compile(" ?\\(at [^()]*\\)");
    private static final Pattern LAMBDA = Pattern.compile("lambda at [\\w$.]+:\\d+");
    private static final Pattern NUMBER = Pattern.compile("\\b(v|node|N|#)?\\d+\\b");

    private final Executor device;
    private final boolean openCL;

    /**
     * @param openCL whether an OpenCL device is expected: when not, the "device" side runs on
     *        {@link Executor#THREADS} (the generator, javac and the JVM paths are still checked)
     */
    DifferentialRunner(boolean openCL) {
        this.openCL = openCL;
        this.device = openCL ? Executor.ACCELERATOR : Executor.THREADS;
    }

    Outcome run(Program program, Function<Object, Object> f) {
        return run(program, f, null);
    }

    /**
     * @param reduce for a {@link Feature#REDUCTIONS} program, its combiner and identity: the
     *        program is then {@code AF.map(f, type).reduce(combiner, identity)}, a one-element result
     */
    Outcome run(Program program, Function<Object, Object> f, InMemoryCompiler.ReduceParts reduce) {
        long start = System.nanoTime();
        try (PArray<Object> input = FuzzInputs.of(program)) {
            Outcome outcome = compare(program, f, reduce, input);
            return new Outcome(program, outcome.category(), outcome.detail(), outcome.reason(), System.nanoTime() - start);
        }
    }

    private Outcome compare(Program program, Function<Object, Object> f, InMemoryCompiler.ReduceParts reduce, PArray<Object> input) {
        // The JVM first, as a user's program (and the runtime's output-type inference) would run the
        // lambda before offloading it. Graal's graph depends on what the JVM resolved and profiled
        // before (a never-run lambda parses with deoptimizations for unresolved entries), so an
        // outcome can depend on the JVM's history: see docs/fuzzing.md, "Reproducing".
        Result reference = apply(f, reduce, program, input, Executor.SEQUENTIAL, false);
        Result actual = apply(f, reduce, program, input, device, openCL);
        try {
            if (actual.thrown instanceof FallbackException fallback) {
                String reason = reason(fallback.getMessage());
                if (rejectedByOpenCL(fallback.getMessage())) {
                    return outcome(program, Category.OPENCL_REJECTED, fallback.getMessage(), reason);
                }
                // The runtime's own fallback (Java threads) must still give Java's answer.
                Result fallen = apply(f, reduce, program, input, device, false);
                try {
                    Outcome check = judge(program, f, input, reference, fallen);
                    if (check.category().isBug) {
                        return outcome(program, Category.FALLBACK_MISMATCH, "after the fallback (" + reason + "): " + check.detail(), reason);
                    }
                } finally {
                    fallen.close();
                }
                // detail: whether the JVM threw (and the fallback threw the same), for the summary
                return outcome(program, Category.FALLBACK, reference.thrown == null ? null : "threw " + reference.thrown.getClass().getSimpleName(), reason);
            }
            return judge(program, f, input, reference, actual);
        } finally {
            reference.close();
            actual.close();
        }
    }

    private Outcome judge(Program program, Function<Object, Object> f, PArray<Object> input, Result reference, Result actual) {
        if (reference.thrown != null || actual.thrown != null) {
            if (reference.thrown == null) {
                return outcome(program, Category.THREW_DIFFERENTLY, "the JVM returns values; the device run threw " + describe(actual.thrown), null);
            }
            Set<String> possible = exceptionsOf(f, input);
            if (actual.thrown == null) {
                return outcome(program, Category.THREW_DIFFERENTLY, "the JVM throws " + describe(reference.thrown) + "; the device run returned values", null);
            }
            if (actual.thrown.getClass() == reference.thrown.getClass() || possible.contains(actual.thrown.getClass().getName())) {
                return outcome(program, Category.BOTH_THREW_SAME, null, actual.thrown.getClass().getSimpleName());
            }
            return outcome(program, Category.THREW_DIFFERENTLY, "the JVM throws " + describe(reference.thrown) + " (elements throw " + possible + "); the device run threw " + describe(actual.thrown), null);
        }
        PArray<?> expected = reference.output;
        PArray<?> got = actual.output;
        for (long i = 0; i < expected.length(); i++) {
            Object e = expected.get(i);
            Object a = got.get(i);
            for (int c = 0; c < program.outputs().size(); c++) {
                Object ec = program.tupleOutput() ? ((Tuple) e).get(c) : e;
                Object ac = program.tupleOutput() ? ((Tuple) a).get(c) : a;
                long bound = program.ulpBound(c);
                boolean same = bound == 0 ? ec.equals(ac) : UlpBounds.distance(ec, ac) <= bound;
                if (!same) {
                    String where = (program.reduction() != null ? " of the reduction (" + program.reduction().family() + ")" : "") + (program.tupleOutput() ? " component _" + (c + 1) : "");
                    String tolerance = bound == 0 ? "bit for bit" : "within " + bound + " ulp (" + program.tolerant().get(c) + "), off by " + UlpBounds.distance(ec, ac) + " ulp";
                    return outcome(program, Category.MISMATCH, "element " + i + where + ": input " + (program.reduction() != null ? "all " + input.length() + " elements" : show(input.get(i))) + ", JVM " + show(ec) + ", device " + show(ac) + " (compared " + tolerance + ")",
                                    null);
                }
            }
        }
        return outcome(program, Category.MATCH, null, null);
    }

    /** The exception classes single elements throw, for a parallel run that may meet another element's exception first. */
    private static Set<String> exceptionsOf(Function<Object, Object> f, PArray<Object> input) {
        Set<String> classes = new LinkedHashSet<>();
        for (long i = 0; i < input.length(); i++) {
            try {
                f.apply(input.get(i));
            } catch (RuntimeException | Error e) {
                classes.add(e.getClass().getName());
            }
        }
        return classes;
    }

    private static Outcome outcome(Program program, Category category, String detail, String reason) {
        return new Outcome(program, category, detail, reason, 0);
    }

    /** Values as Java source writes them, with bits for floating point (so -0.0 and NaN payloads show). */
    static String show(Object value) {
        if (value instanceof Float f) {
            return ProgramGenerator.floatLiteral(f) + " [0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + "]";
        }
        if (value instanceof Double d) {
            return ProgramGenerator.doubleLiteral(d) + " [0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + "]";
        }
        if (value instanceof Character c) {
            return "(char) " + (int) c;
        }
        if (value instanceof Long l) {
            return l + "L";
        }
        if (value instanceof Byte b) {
            return "(byte) " + b;
        }
        if (value instanceof Short s) {
            return "(short) " + s;
        }
        if (value instanceof Tuple t) {
            StringBuilder s = new StringBuilder("(");
            for (int i = 0; i < t.arity(); i++) {
                s.append(i == 0 ? "" : ", ").append(show(t.get(i)));
            }
            return s.append(")").toString();
        }
        return String.valueOf(value);
    }

    private static String describe(Throwable t) {
        return t.getClass().getName() + (t.getMessage() == null ? "" : ": " + firstLine(t.getMessage()));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /**
     * Whether a fallback's message says the OpenCL compiler rejected the generated C (the runtime's
     * ProgramCache: "the OpenCL compiler rejected kernel ..."): a backend bug, never a fallback.
     */
    static boolean rejectedByOpenCL(String message) {
        return message != null && (message.contains("OpenCL compiler rejected") || message.contains("rejected the kernel"));
    }

    /** The fallback reason without the operation, source lines and node numbers: what to count fallbacks by. */
    static String reason(String message) {
        String m = message == null ? "" : message;
        int at = m.indexOf("cannot run on OpenCL: ");
        if (at >= 0) {
            m = m.substring(at + "cannot run on OpenCL: ".length());
        }
        m = firstLine(m);
        if (rejectedByOpenCL(m)) {
            m = "the OpenCL compiler rejected the kernel";
        }
        m = AT.matcher(m).replaceAll("");
        m = LAMBDA.matcher(m).replaceAll("lambda");
        m = NUMBER.matcher(m).replaceAll("N");
        return m.length() > 160 ? m.substring(0, 160) + "..." : m;
    }

    private record Result(PArray<?> output, Throwable thrown) implements AutoCloseable {
        @Override
        public void close() {
            if (output != null) {
                output.close();
            }
        }
    }

    private static Result apply(Function<Object, Object> f, InMemoryCompiler.ReduceParts reduce, Program program, PArray<Object> input, Executor executor, boolean fallbackIsError) {
        String previous = System.getProperty("jpai.fallback");
        if (fallbackIsError) {
            System.setProperty("jpai.fallback", "error");
        } else {
            System.clearProperty("jpai.fallback");
        }
        try {
            ArrayFunction<Object, Object> function = AF.map(f, program.outputType());
            if (reduce != null) {
                function = function.reduce(reduce.combiner(), reduce.identity());
            }
            return new Result(function.on(executor).apply(input), null);
        } catch (RuntimeException | StackOverflowError e) {
            return new Result(null, e);
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.fallback");
            } else {
                System.setProperty("jpai.fallback", previous);
            }
        }
    }
}
