package jpai.runtime;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.MathFunctions;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;
import jpai.compiler.plugin.PhasePluginConfigurationException;
import jpai.compiler.plugin.PhasePlugins;
import jpai.ocl.GeneratorOptions;
import jpai.ocl.KernelSource;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.ocl.ReduceKernelSpec;
import jpai.ocl.ScanKernelSpec;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.profile.Profiler;

/**
 * The kernels compiled from one user function, one per data type it was applied to and set of phase
 * plugins it was compiled with ({@code -Djpai.phases}, service providers: a kernel compiled with a
 * plugin is never served to a compilation without it), or the reason there is none. Thread-safe;
 * each kernel is compiled once.
 */
final class KernelCache {

    /**
     * What the compiler made of the function for one data type.
     *
     * @param kernel the OpenCL program, or null
     * @param bailout why there is no kernel, or null
     * @param description the function as messages name it ("lambda at Saxpy.java:42")
     * @param captureOwners for each captured value of the kernel, in slot order, the functional
     *            object whose field it is
     */
    record Compiled(KernelSource kernel, String bailout, String description, List<Object> captureOwners, Object[] finalCaptureValues) {

        static Compiled failed(String bailout, String description) {
            return new Compiled(null, bailout, description, List.of(), null);
        }

        /**
         * A kernel of {@code owners}' captured values: their values are read now, once, when every
         * field on the way to them is final (a lambda's always are; a record's too), else at each
         * launch.
         */
        static Compiled of(KernelSource kernel, String description, List<Object> owners) {
            List<CapturedValue> captures = kernel.captures();
            boolean allFinal = true;
            for (CapturedValue capture : captures) {
                for (java.lang.reflect.Field field : capture.fields()) {
                    allFinal &= java.lang.reflect.Modifier.isFinal(field.getModifiers());
                }
            }
            return new Compiled(kernel, null, description, owners, allFinal ? read(captures, owners) : null);
        }

        /**
         * The current values of the kernel's captured values, in slot order. A captured array's
         * contents may change between launches (the launch sends them again); which array a final
         * field holds cannot.
         */
        Object[] captureValues() {
            return finalCaptureValues != null ? finalCaptureValues : read(kernel.captures(), captureOwners);
        }

        private static Object[] read(List<CapturedValue> captures, List<Object> owners) {
            Object[] values = new Object[captures.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = KernelShapes.valueOf(captures.get(i), owners.get(i));
            }
            return values;
        }
    }

    /** The last map kernel looked up, for the common case of a function applied again and again to one type. */
    private record LastMap(DataType input, DataType output, int indexDimensions, Object plugins, Compiled compiled) {
    }

    /** The last reduce kernel looked up (see {@link LastMap}). */
    private record LastReduce(DataType type, KernelCache mapper, DataType inputType, Object plugins, Compiled compiled) {
    }

    /**
     * The phase plugins kernels are compiled with now, or why no kernel can be compiled; both null
     * when Graal itself cannot be loaded (then {@link #compile} says what is missing).
     */
    private record Plugins(PhasePlugins configured, String problem) {

        /** What kernels are keyed on: the plugins, or a mark that there are none for want of Graal. */
        Object key() {
            return configured != null ? configured : "no Graal";
        }
    }

    private static final Method FUNCTION_APPLY = method(Function.class, "apply", Object.class);
    private static final Method BINARY_APPLY = method(BiFunction.class, "apply", Object.class, Object.class);
    private static final Method PREDICATE_TEST = method(java.util.function.Predicate.class, "test", Object.class);

    private final Object function;
    private final Method interfaceMethod;
    private final ConcurrentHashMap<List<Object>, Compiled> kernels = new ConcurrentHashMap<>();
    private volatile String description;
    private volatile List<CapturedValue> captures;
    private volatile LastMap lastMap;
    private volatile LastReduce lastReduce;
    private volatile ProfileLabel lastLabel;

    /**
     * Whether the function takes a tuple element's components as separate arguments ({@code (i, j)
     * -> ...} of {@code AF.map2D}) rather than the element itself.
     */
    private final boolean spreadsTuples;

    KernelCache(Function<?, ?> function) {
        this(function, FUNCTION_APPLY, false);
    }

    KernelCache(BinaryOperator<?> operator) {
        this(operator, BINARY_APPLY, false);
    }

    /** The kernels of a filter's predicate: a map of each element to its {@code boolean}. */
    KernelCache(java.util.function.Predicate<?> predicate) {
        this(predicate, PREDICATE_TEST, false);
    }

    /**
     * The kernels of {@code function}, whose {@code interfaceMethod} takes a tuple element's
     * components as its arguments (a {@code BiFunction} for pairs, {@code jpai.TriFunction} for
     * triples): a map over tuples that the user wrote as a function of the components.
     */
    static KernelCache ofComponentFunction(Object function, Method interfaceMethod) {
        return new KernelCache(function, interfaceMethod, true);
    }

    private KernelCache(Object function, Method interfaceMethod, boolean spreadsTuples) {
        this.function = function;
        this.interfaceMethod = interfaceMethod;
        this.spreadsTuples = spreadsTuples;
    }

    /** The shapes of the function's arguments for an element of {@code input}: the element, or its components. */
    private List<ValueShape> argumentsFor(DataType input) {
        ValueShape element = KernelShapes.of(input);
        if (spreadsTuples && element instanceof ValueShape.Tuple tuple) {
            return tuple.componentShapes();
        }
        return List.of(element);
    }

    /** The function as messages name it: "lambda at Saxpy.java:42", or its class when Graal is not there. */
    String description() {
        String known = description;
        if (known == null) {
            try {
                known = new KernelGraphCompiler(MathFunctions.JAVA).describe(function, interfaceMethod).displayName();
            } catch (RuntimeException | LinkageError e) {
                known = function.getClass().getName();
            }
            description = known;
        }
        return known;
    }

    /**
     * A name for profiles, cheap to get: the description once something asked for it, until then
     * the function's class (finding the source line needs Graal, which a Java-only run never loads).
     */
    String nameForProfiles() {
        String known = description;
        return known != null ? known : function.getClass().getSimpleName();
    }

    /**
     * {@code operation} followed by {@link #nameForProfiles()} ("map of lambda at Saxpy.java:42"),
     * made again only when either changes: every apply opens its profile with one.
     */
    String labelForProfiles(String operation) {
        String name = nameForProfiles();
        ProfileLabel last = lastLabel;
        if (last != null && last.operation() == operation && last.name() == name) {
            return last.text();
        }
        ProfileLabel label = new ProfileLabel(operation, name, operation + name);
        lastLabel = label;
        return label.text();
    }

    private record ProfileLabel(String operation, String name, String text) {
    }

    /**
     * The map kernel for {@code input} elements giving {@code output} elements; {@code
     * indexDimensions}: 0 for an input read from buffers, 1 to 3 for an index space ({@code
     * PArray.range}) of that many dimensions, which the kernel does not read.
     */
    Compiled forMap(DataType input, DataType output, int indexDimensions) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        LastMap last = lastMap;
        if (last != null && last.input() == input && last.output() == output && last.indexDimensions() == indexDimensions && last.plugins() == plugins.key()) {
            return last.compiled();
        }
        Compiled compiled = mapKernel(input, output, indexDimensions, plugins);
        lastMap = new LastMap(input, output, indexDimensions, plugins.key(), compiled);
        return compiled;
    }

    /**
     * The configured phase plugins ({@link PhasePlugins#configured()}: a property read, usually),
     * part of every kernel's key. A plugin that cannot be set up is said once, always: a researcher
     * who named it expects it to run, and every kernel runs in Java until it is fixed.
     */
    private static Plugins plugins() {
        try {
            return new Plugins(PhasePlugins.configured(), null);
        } catch (PhasePluginConfigurationException e) {
            String problem = e.getMessage() + "; no kernel is compiled until it is fixed";
            Explain.notice(problem);
            return new Plugins(null, problem);
        } catch (LinkageError e) {
            // Graal is not there, so no plugin either: compile() says what is missing
            return new Plugins(null, null);
        }
    }

    private Compiled mapKernel(DataType input, DataType output, int indexDimensions, Plugins plugins) {
        return kernels.computeIfAbsent(List.of("map", input, output, indexDimensions, plugins.key()), key -> compile(() -> {
            KernelGraph graph = graph(new KernelSignature(argumentsFor(input), KernelShapes.of(output), captures()), plugins.configured());
            MapKernelSpec spec = new MapKernelSpec(KernelShapes.kinds(input), KernelShapes.kinds(output), indexDimensions);
            return generate(graph, generator -> generator.map(graph, spec), ownersOf(graph, function));
        }));
    }

    /**
     * The map kernel of a predicate over {@code input} elements: one flag per element, the
     * predicate's {@code boolean} (stored as a byte of 0 or 1, as a {@code PArray<Boolean>}). The
     * result is described as a {@code Boolean}, as a map's: {@code Predicate.test} returns the
     * primitive already, which the unboxing of the result leaves as it is.
     */
    Compiled forPredicate(DataType input) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        return kernels.computeIfAbsent(List.of("predicate", input, plugins.key()), key -> compile(() -> {
            KernelGraph graph = graph(new KernelSignature(argumentsFor(input), KernelShapes.of(jpai.ElementType.BOOLEAN), captures()), plugins.configured());
            MapKernelSpec spec = new MapKernelSpec(KernelShapes.kinds(input), List.of(JavaKind.Boolean), 0);
            return generate(graph, generator -> generator.map(graph, spec), ownersOf(graph, function));
        }));
    }

    /**
     * The scan kernel ({@code OpenCLKernelGenerator.scan}) for elements of {@code type}, this
     * cache's function being the operator: the single-pass scan, or the down-sweep of every level of
     * a reduce-then-scan, whose totals of each level come from {@link #forReduce(DataType)}.
     */
    Compiled forScan(DataType type, boolean singlePass) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        return kernels.computeIfAbsent(List.of("scan", type, singlePass, plugins.key()), key -> compile(() -> {
            ValueShape shape = KernelShapes.of(type);
            KernelGraph combiner = graph(new KernelSignature(List.of(shape, shape), shape, captures()), plugins.configured());
            ScanKernelSpec spec = new ScanKernelSpec(KernelShapes.kinds(type), CombiningTree.LEAF, singlePass);
            return generate(combiner, generator -> generator.scan(combiner, spec), ownersOf(combiner, function));
        }));
    }

    /** The reduce kernel for elements of {@code type}, this cache's function being the combiner. */
    Compiled forReduce(DataType type) {
        return forReduce(type, null, type);
    }

    /**
     * The reduce kernel for elements of {@code type}, this cache's function being the combiner,
     * applied to {@code mapper(x)} for each input element {@code x} of {@code inputType} (a map fused
     * into the reduction), or to the elements themselves when {@code mapper} is null.
     */
    Compiled forReduce(DataType type, KernelCache mapper, DataType inputType) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        LastReduce last = lastReduce;
        if (last != null && last.type() == type && last.mapper() == mapper && last.inputType() == inputType && last.plugins() == plugins.key()) {
            return last.compiled();
        }
        Compiled compiled = reduceKernel(type, mapper, inputType, plugins);
        lastReduce = new LastReduce(type, mapper, inputType, plugins.key(), compiled);
        return compiled;
    }

    private Compiled reduceKernel(DataType type, KernelCache mapper, DataType inputType, Plugins plugins) {
        return kernels.computeIfAbsent(List.of("reduce", type, mapper == null ? "" : mapper, inputType, plugins.key()), key -> compile(() -> {
            ValueShape shape = KernelShapes.of(type);
            KernelGraph combiner = graph(new KernelSignature(List.of(shape, shape), shape, captures()), plugins.configured());
            KernelGraph mapperGraph = null;
            if (mapper != null) {
                mapperGraph = mapper.graph(new KernelSignature(mapper.argumentsFor(inputType), shape, mapper.captures()), plugins.configured());
            }
            KernelGraph mapped = mapperGraph;
            ReduceKernelSpec spec = new ReduceKernelSpec(KernelShapes.kinds(inputType), KernelShapes.kinds(type), CombiningTree.LEAF);
            List<Object> owners = new ArrayList<>();
            if (mapped != null) {
                owners.addAll(ownersOf(mapped, mapper.function));
            }
            owners.addAll(ownersOf(combiner, function));
            return generate(combiner, generator -> generator.reduce(combiner, mapped, spec), owners);
        }, mapper));
    }

    /** What one compilation does, bailouts included. */
    private interface Compilation {
        Compiled run();
    }

    private Compiled compile(Compilation compilation) {
        return compile(compilation, null);
    }

    private Compiled compile(Compilation compilation, KernelCache mapper) {
        MathFunctions math;
        try {
            math = MathFunctions.fromSystemProperty();
        } catch (IllegalArgumentException e) {
            return Compiled.failed(e.getMessage(), description());
        }
        try {
            new KernelGraphCompiler(math);
        } catch (RuntimeException | LinkageError e) {
            String setUp = JvmSetup.problem();
            return Compiled.failed("the Graal compiler is not available (" + e.getMessage() + "); "
                            + (setUp != null ? setUp : "start java with JPAI's flags (README, \"Use JPAI in your project\")"), description());
        }
        String who = mapper == null ? "" : " (fused with the map of " + mapper.description() + ")";
        try {
            return compilation.run();
        } catch (KernelBailoutException e) {
            if (e.isInternalError()) {
                InternalCompilerErrors.report(description() + who, e);
            } else if (e.failedPhasePlugin() != null) {
                // the researcher's own phase failed: said without -Djpai.explain, as they expect it to run
                Explain.notice(e.getMessage() + ", compiling " + description() + who + "; the operation runs in Java");
            }
            return Compiled.failed(e.getMessage() + who, description());
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // the backend (or anything after Graal's phases) failed: a bug, never the user's exception
            KernelBailoutException internal = KernelBailoutException.internalError(e.toString(), null, e);
            InternalCompilerErrors.report(description() + who, internal);
            return Compiled.failed(internal.getMessage() + who, description());
        }
    }

    private List<CapturedValue> captures() {
        List<CapturedValue> known = captures;
        if (known == null) {
            known = KernelShapes.capturesOf(function);
            captures = known;
        }
        return known;
    }

    private KernelGraph graph(KernelSignature signature, PhasePlugins plugins) {
        long start = System.nanoTime();
        KernelGraphCompiler compiler = new KernelGraphCompiler(MathFunctions.fromSystemProperty(), plugins);
        if (compiler.math() != MathFunctions.JAVA) {
            Explain.notice("kernels compute Math's sin, exp, pow and other transcendental functions with OpenCL's built-ins (-D" + MathFunctions.PROPERTY + "="
                            + compiler.math().optionValue() + "): their results are within OpenCL's error bounds (docs/java-semantics.md), up to 16 ulps, not Math's 1 to 2.5");
        }
        KernelGraph graph = compiler.compile(function, interfaceMethod, signature);
        Profiler.graal(System.nanoTime() - start);
        return graph;
    }

    /** {@code owner} once per captured value of {@code graph}. */
    private static List<Object> ownersOf(KernelGraph graph, Object owner) {
        return java.util.Collections.nCopies(graph.captures().size(), owner);
    }

    /** Runs the generator, times it and dumps the kernel; {@code owners} says whose fields the captures are. */
    private Compiled generate(KernelGraph main, Function<OpenCLKernelGenerator, KernelSource> generation, List<Object> owners) {
        long start = System.nanoTime();
        if (JpaiOptions.fastMath()) {
            Explain.notice("kernels are built with OpenCL's relaxed math (-D" + JpaiOptions.FAST_MATH + "=true): floating-point results may differ from Java's"
                            + " (fused multiply-adds; NaN, infinities and signed zeros not kept)");
        }
        KernelSource source = generation.apply(new OpenCLKernelGenerator(JpaiOptions.fastMath() ? new GeneratorOptions(true) : GeneratorOptions.JAVA_SEMANTICS));
        Profiler.codeGeneration(System.nanoTime() - start);
        dump(main, source);
        return Compiled.of(source, description(), owners);
    }

    private static void dump(KernelGraph graph, KernelSource source) {
        Path dir = JpaiOptions.dumpOpenCL();
        if (dir == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            // One lambda can have several kernels of one name (a fused map-then-reduce pass and the
            // plain passes after it): each distinct text gets its own file, numbered from 2.
            String base = graph.lambda().identifier() + "." + source.kernelName();
            Path file = dir.resolve(base + ".cl");
            for (int k = 2; Files.exists(file) && !Files.readString(file).equals(source.text()); k++) {
                file = dir.resolve(base + "." + k + ".cl");
            }
            Files.writeString(file, source.text());
        } catch (IOException e) {
            Explain.notice("could not write the kernel dump to " + dir + ": " + e.getMessage());
        }
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
