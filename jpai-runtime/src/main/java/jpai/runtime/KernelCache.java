package jpai.runtime;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.compiler.CapturedValue;
import jpai.compiler.CombinerRecognition;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.JvmResultDifferences;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.MathFunctions;
import jpai.compiler.KernelSignature;
import jpai.compiler.Speculation;
import jpai.compiler.Speculations;
import jpai.compiler.ValueShape;
import jpai.compiler.loops.ReductionOperator;
import jpai.compiler.plugin.PhasePluginConfigurationException;
import jpai.compiler.plugin.PhasePlugins;
import jpai.ocl.GeneratorOptions;
import jpai.ocl.KernelSource;
import jpai.ocl.FilterKernel;
import jpai.ocl.KeyedReduceKernels;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.ocl.ReduceKernelSpec;
import jpai.ocl.ScanKernelSpec;
import jpai.runtime.exec.CombiningTree;
import jpai.runtime.profile.Profiler;
import jpai.runtime.opencl.DeviceContext;

/**
 * The kernels compiled from one user function, one per data type it was applied to, set of phase
 * plugins it was compiled with ({@code -Djpai.phases}, service providers: a kernel compiled with a
 * plugin is never served to a compilation without it) and code generator options
 * ({@code -Djpai.fastmath}, {@code -Djpai.exactDivSqrt}, {@code -Djpai.tiling}), or the reason there is
 * none. Thread-safe; each kernel is compiled once, and again only when a speculation it makes has
 * failed since ({@link SpeculationHistory}) or, for a map that did not compile, once from HotSpot's profile.
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
     * @param compiledWith the speculations it was compiled with ({@link Speculations}; a list of the
     *            mapper's and the combiner's for a fused reduction): a kernel compiled with
     *            speculations since seen failing is compiled again
     */
    record Compiled(KernelSource kernel, String bailout, String description, List<Object> captureOwners, Object[] finalCaptureValues, Object compiledWith,
                    String differsFromJvm) {

        /** {@link #differsFromJvm} of a kernel no one asked about. */
        private static final String NOT_CHECKED = "its results were not compared with the JVM's";

        static Compiled failed(String bailout, String description) {
            return new Compiled(null, bailout, description, List.of(), null, null, NOT_CHECKED);
        }

        /** This compilation made with {@code speculations}: the key a later lookup compares. */
        Compiled compiledWith(Object speculations) {
            return new Compiled(kernel, bailout, description, captureOwners, finalCaptureValues, speculations, differsFromJvm);
        }

        /**
         * This compilation, knowing why its results may differ from the JVM's ({@code reason}) or
         * that they cannot (null): only then may one array mix them with results of Java threads.
         */
        Compiled differingFromJvm(String reason) {
            return new Compiled(kernel, bailout, description, captureOwners, finalCaptureValues, compiledWith, reason);
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
            return new Compiled(kernel, null, description, owners, allFinal ? read(captures, owners) : null, null, NOT_CHECKED);
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
    private record LastMap(DataType input, DataType output, int indexDimensions, Object plugins, GeneratorOptions options, Compiled compiled) {
    }

    /**
     * The last reduce kernel looked up (see {@link LastMap}); a fused map then reduce looks up two,
     * its first pass's and the combiner's own, each kept in a slot of its own so that neither
     * evicts the other on every apply.
     */
    private record LastReduce(DataType type, FusedMappers mappers, Object plugins, GeneratorOptions options, Compiled compiled) {
    }

    /**
     * The phase plugins kernels are compiled with now, or why no kernel can be compiled; both null
     * when Graal itself cannot be loaded (then {@link #compile} says what is missing).
     */
    /**
     * What every kernel is compiled with and keyed on: the configured phase plugins and the code
     * generator's options, or the problem that stops every compilation (a plugin that cannot be set
     * up, an option value the generator does not know).
     */
    private record Plugins(PhasePlugins configured, GeneratorOptions options, String problem) {

        /** What kernels are keyed on: the plugins, or a mark that there are none for want of Graal. */
        Object key() {
            return configured != null ? configured : "no Graal";
        }
    }

    static {
        // The JVM's set-up check (JvmSetup: Graal's modules and their packages, 5-15 ms in a fresh JVM)
        // is found once, by the first apply that may use a device; started here, when the first
        // function is defined, it is usually done by then, and a tiered first apply does not pay it.
        // With tiering on, the same thread loads what a tiered first apply runs through (TieringClasses).
        Thread check = new Thread(KernelCache::prepareInBackground, "jpai-setup-check");
        check.setDaemon(true);
        check.start();
    }

    /** The set-up check and, under tiering, the tiered path's classes: on the daemon thread the static initialiser starts. */
    private static void prepareInBackground() {
        JvmSetup.problem();
        if (JpaiOptions.tiering()) {
            TieringClasses.load();
        }
    }

    private static final Method FUNCTION_APPLY = method(Function.class, "apply", Object.class);
    private static final Method BINARY_APPLY = method(BiFunction.class, "apply", Object.class, Object.class);
    private static final Method PREDICATE_TEST = method(java.util.function.Predicate.class, "test", Object.class);

    private final Object function;
    private final Method interfaceMethod;
    private final ConcurrentHashMap<List<Object>, Compiled> kernels = new ConcurrentHashMap<>();
    /** The speculations this function's kernels may make, narrowed when one fails. */
    private final SpeculationHistory speculations = new SpeculationHistory();
    /** How often a function whose kernel did not compile asks whether its profile is mature. */
    private static final long PROFILE_CHECK_INTERVAL_NANOS = 10_000_000;
    /** When {@link #hasMatureProfile()} may ask again ({@link System#nanoTime()}). */
    private volatile long nextProfileCheck = System.nanoTime();
    private volatile String description;
    private volatile List<CapturedValue> captures;
    private final ConcurrentHashMap<DataType, java.util.Optional<ReductionOperator>> recognised = new ConcurrentHashMap<>();
    private volatile LastMap lastMap;
    /** The background compilations tiering started, by operation and types. */
    private final ConcurrentHashMap<List<Object>, CompletableFuture<Void>> backgroundCompilations = new ConcurrentHashMap<>();
    /** The last reduce kernel looked up with maps fused in front ({@link LastReduce}). */
    private volatile LastReduce lastReduce;
    /** The last reduce kernel looked up with no map: the combiner's own ({@link LastReduce}). */
    private volatile LastReduce lastCombinerReduce;
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
        GeneratorOptions options = plugins.options();
        LastMap last = lastMap;
        // a kernel compiled with no speculation since left out; a bailout may compile from a profile later
        if (last != null && last.input() == input && last.output() == output && last.indexDimensions() == indexDimensions && last.plugins() == plugins.key()
                        && (last.options() == options || last.options().equals(options)) && last.compiled().kernel() != null
                        && ((Speculations) last.compiled().compiledWith()).isWithin(speculations.allowed())) {
            return last.compiled();
        }
        Compiled compiled = mapKernel(input, output, indexDimensions, plugins, options);
        lastMap = new LastMap(input, output, indexDimensions, plugins.key(), options, compiled);
        return compiled;
    }

    /**
     * Tiering ({@link JpaiOptions#TIERING}): the map kernel for these types when it was compiled
     * before (by an apply that waited for it, or in the background, now ended), else null; starts
     * nothing ({@link #startMapCompilation} does: {@link TieredMap} decides when).
     */
    Compiled mapKernelIfReady(DataType input, DataType output, int indexDimensions) {
        LastMap last = lastMap;
        if (last != null && last.input() == input && last.output() == output && last.indexDimensions() == indexDimensions) {
            return forMap(input, output, indexDimensions); // compiled before: checks the options and speculations, as always
        }
        return backgroundCompilationEnded(mapCompilationKey(input, output, indexDimensions)) ? forMap(input, output, indexDimensions) : null;
    }

    /**
     * Tiering: starts the background compilation of the map kernel for these types on the
     * {@link CompilePool} (and its program's build on {@code context}, itself made there if it is the
     * first use), {@code delayNanos} from now, unless it was started before; its end is what
     * {@link #mapKernelIfReady} waits for.
     */
    void startMapCompilation(DataType input, DataType output, int indexDimensions, Supplier<DeviceContext> context, long delayNanos) {
        startInBackground(mapCompilationKey(input, output, indexDimensions), () -> List.of(forMap(input, output, indexDimensions)), context, delayNanos);
    }

    private static List<Object> mapCompilationKey(DataType input, DataType output, int indexDimensions) {
        return List.of("map", input, output, indexDimensions);
    }

    /**
     * Tiering's takeover of a reduction ({@link TieredReduce}): the reduce kernel for these types
     * (with {@code mappers} fused in front) when it was compiled before or its background compilation
     * has ended, else null; starts nothing ({@link #startReduceCompilation} does).
     */
    Compiled reduceKernelIfReady(DataType type, FusedMappers mappers) {
        LastReduce last = mappers.isEmpty() ? lastCombinerReduce : lastReduce;
        if (last != null && last.type() == type && last.mappers().sameAs(mappers)) {
            return forReduce(type, mappers);
        }
        return backgroundCompilationEnded(reduceCompilationKey(type, mappers)) ? forReduce(type, mappers) : null;
    }

    /**
     * Tiering: starts the background compilation of the reduce kernels for these types (the first
     * pass with {@code mappers} fused, and the combiner's own for the later passes) and their
     * programs' builds on {@code context}, {@code delayNanos} from now, unless it was started before.
     */
    void startReduceCompilation(DataType type, FusedMappers mappers, Supplier<DeviceContext> context, long delayNanos) {
        startInBackground(reduceCompilationKey(type, mappers), reduceCompilation(type, mappers), context, delayNanos);
    }

    private static List<Object> reduceCompilationKey(DataType type, FusedMappers mappers) {
        return java.util.Arrays.asList("reduce", type, mappers);
    }

    private Supplier<List<Compiled>> reduceCompilation(DataType type, FusedMappers mappers) {
        return () -> mappers.isEmpty() ? List.of(forReduce(type)) : List.of(forReduce(type, mappers), forReduce(type));
    }

    /** Tiering's takeover of fused maps ({@link TieredMap.Kernels#fused}): their kernel when compiled before or its background compilation has ended, else null; starts nothing. */
    Compiled fusedMapKernelIfReady(List<KernelCache> later, List<DataType> types, int indexDimensions) {
        return backgroundCompilationEnded(fusedMapCompilationKey(later, types, indexDimensions)) ? forFusedMap(later, types, indexDimensions) : null;
    }

    /** Tiering: starts the background compilation of fused maps' kernel ({@link #forFusedMap}) and its program's build on {@code context}, {@code delayNanos} from now, unless started before. */
    void startFusedMapCompilation(List<KernelCache> later, List<DataType> types, int indexDimensions, Supplier<DeviceContext> context, long delayNanos) {
        startInBackground(fusedMapCompilationKey(later, types, indexDimensions), () -> List.of(forFusedMap(later, types, indexDimensions)), context, delayNanos);
    }

    private static List<Object> fusedMapCompilationKey(List<KernelCache> later, List<DataType> types, int indexDimensions) {
        return List.of("fused map", later, types, indexDimensions);
    }

    /**
     * Whether the background compilation of {@code key} has ended; the first time, sets it to start
     * on the {@link CompilePool} once the apply asking has ended ({@link CompilePool#submitAfterApply}):
     * {@code compile}, then the build of each resulting kernel's program on {@code context} (made
     * there, on a first use, rather than by the apply that asked). Tiering's
     * test for the skeletons that ask for their kernels as usual once it has ended (scans, filters,
     * keyed reductions): {@code compile} asks for them the same way, so they are cached by then.
     */
    boolean compiledInBackground(List<Object> key, Supplier<List<Compiled>> compile, Supplier<DeviceContext> context) {
        return backgroundCompilations.computeIfAbsent(key, k -> CompilePool.submitAfterApply(compilation(compile, context))).isDone();
    }

    /** Whether the background compilation of {@code key} was started and has ended (a takeover's question: it starts nothing). */
    private boolean backgroundCompilationEnded(List<Object> key) {
        CompletableFuture<Void> background = backgroundCompilations.get(key);
        return background != null && background.isDone();
    }

    /** Starts the background compilation of {@code key} on the {@link CompilePool}, {@code delayNanos} from now, unless it was started before: {@link #compilation}. */
    private void startInBackground(List<Object> key, Supplier<List<Compiled>> compile, Supplier<DeviceContext> context, long delayNanos) {
        backgroundCompilations.computeIfAbsent(key, k -> CompilePool.submit(compilation(compile, context), delayNanos));
    }

    /** {@code compile}, then the build of each resulting kernel's program on {@code context}. */
    private static Runnable compilation(Supplier<List<Compiled>> compile, Supplier<DeviceContext> context) {
        return () -> {
            for (Compiled compiled : compile.get()) {
                if (compiled.kernel() != null) {
                    context.get().prepare(compiled.kernel());
                }
            }
        };
    }

    /**
     * The configured phase plugins ({@link PhasePlugins#configured()}: a property read, usually),
     * part of every kernel's key. A plugin that cannot be set up is said once, always: a researcher
     * who named it expects it to run, and every kernel runs in Java until it is fixed.
     */
    private static Plugins plugins() {
        GeneratorOptions options;
        try {
            options = JpaiOptions.generatorOptions();
        } catch (IllegalArgumentException e) {
            return new Plugins(null, null, e.getMessage());
        }
        try {
            return new Plugins(PhasePlugins.configured(), options, null);
        } catch (PhasePluginConfigurationException e) {
            String problem = e.getMessage() + "; no kernel is compiled until it is fixed";
            Explain.notice(problem);
            return new Plugins(null, options, problem);
        } catch (LinkageError e) {
            // Graal is not there, so no plugin either: compile() says what is missing
            return new Plugins(null, options, null);
        }
    }

    private Compiled mapKernel(DataType input, DataType output, int indexDimensions, Plugins plugins, GeneratorOptions options) {
        return kernels.compute(List.of("map", input, output, indexDimensions, plugins.key(), options), (key, existing) -> {
            Speculations allowed = speculations.allowed();
            boolean profileAllowed = allowed.allows(Speculation.UNTAKEN_BRANCHES) && JpaiOptions.profileSpeculation() != JpaiOptions.ProfileSpeculation.NEVER;
            boolean fromProfile;
            if (existing != null && ((Speculations) existing.compiledWith()).isWithin(allowed)) {
                // a function whose kernel did not compile is compiled once more when it has run in
                // Java: its profile may show that what stopped it is on a path it never takes
                boolean retry = existing.kernel() == null && profileAllowed && !((Speculations) existing.compiledWith()).allows(Speculation.UNTAKEN_BRANCHES) && hasMatureProfile();
                if (!retry) {
                    return existing;
                }
                fromProfile = true;
            } else {
                if (existing != null && existing.kernel() != null) {
                    Profiler.recompiled();
                }
                fromProfile = profileAllowed && JpaiOptions.profileSpeculation() == JpaiOptions.ProfileSpeculation.ALWAYS && hasMatureProfile();
            }
            Speculations used = fromProfile ? allowed : allowed.without(Speculation.UNTAKEN_BRANCHES);
            Compiled compiled = compile(() -> {
                KernelGraph graph = graph(new KernelSignature(argumentsFor(input), KernelShapes.of(output), captures()), plugins.configured(), used);
                MapKernelSpec spec = new MapKernelSpec(KernelShapes.kinds(input), KernelShapes.kinds(output), indexDimensions);
                return generate(graph, options, generator -> generator.map(graph, spec), ownersOf(graph, function))
                                .differingFromJvm(differenceFromJvm(options, List.of(graph)));
            }).compiledWith(used);
            if (fromProfile) {
                Explain.speculation("map of " + description(), compiled.kernel() != null
                                ? "compiled from HotSpot's profile of its Java runs: the branches it never took there are exits that recompile it when taken"
                                : "compiled again from HotSpot's profile of its Java runs, still not a kernel: " + compiled.bailout());
            }
            return compiled;
        });
    }

    /**
     * Whether the function's body has a mature HotSpot profile (it ran in Java enough); false without
     * Graal. Asked at most every {@link #PROFILE_CHECK_INTERVAL_NANOS} for a function whose kernel did
     * not compile (the question costs JVMCI look-ups; a small map on Java threads costs microseconds).
     */
    private boolean hasMatureProfile() {
        long now = System.nanoTime();
        if (now - nextProfileCheck < 0) {
            return false;
        }
        nextProfileCheck = now + PROFILE_CHECK_INTERVAL_NANOS;
        try {
            return new KernelGraphCompiler(MathFunctions.JAVA).hasMatureProfile(function, interfaceMethod);
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * The kernel under {@code key}, compiled by {@code compilation} unless the one there was compiled
     * with {@code speculations}: one compiled with speculations since seen failing is replaced (and
     * the apply's profile counts a recompile).
     */
    private Compiled compileUnlessCurrent(List<Object> key, Object speculations, Compilation compilation) {
        return kernels.compute(key, (k, existing) -> {
            if (existing != null && speculations.equals(existing.compiledWith())) {
                return existing;
            }
            if (existing != null && existing.kernel() != null) {
                Profiler.recompiled();
            }
            return compilation.run().compiledWith(speculations);
        });
    }

    /**
     * A kernel of this function (or of a fused reduction it is part of) exited because
     * {@code failed} did not hold: the speculation is left out of its next compilation, within the
     * bound on recompiles. Returns what happened, as a clause for the explanation.
     */
    String speculationFailed(Speculation failed) {
        return speculations.learn(failed);
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
        GeneratorOptions options = plugins.options();
        // no speculation: a filter whose predicate leaves the kernel runs in Java and does not recompile
        return kernels.computeIfAbsent(List.of("predicate", input, plugins.key(), options), key -> compile(() -> {
            KernelGraph graph = graph(new KernelSignature(argumentsFor(input), KernelShapes.of(jpai.ElementType.BOOLEAN), captures()), plugins.configured(),
                            Speculations.NONE);
            MapKernelSpec spec = new MapKernelSpec(KernelShapes.kinds(input), List.of(JavaKind.Boolean), 0);
            return generate(graph, options, generator -> generator.map(graph, spec), ownersOf(graph, function))
                            .differingFromJvm(differenceFromJvm(options, List.of(graph)));
        }));
    }

    /**
     * Tiering's takeover of a filter ({@link TieredMap.Kernels#predicate}): the predicate's map
     * kernel when the background compilation of the filter's kernels has ended, else null; starts nothing.
     */
    Compiled predicateKernelIfReady(DataType input, boolean singlePass) {
        return filterCompiledInBackground(input, singlePass) ? forPredicate(input) : null;
    }

    /** Whether the background compilation of a filter's kernels ({@link #startFilterCompilation}) has ended: its later applies then run on the device. */
    boolean filterCompiledInBackground(DataType input, boolean singlePass) {
        return backgroundCompilationEnded(filterCompilationKey(input, singlePass));
    }

    /**
     * Tiering: starts the background compilation of a filter's kernels, the predicate's map kernel
     * first (what a takeover of the first apply launches), then the single-pass filter's when the
     * device runs one (what later applies launch), and their programs' builds, {@code delayNanos}
     * from now, unless started before.
     */
    void startFilterCompilation(DataType input, boolean singlePass, Supplier<DeviceContext> context, long delayNanos) {
        startInBackground(filterCompilationKey(input, singlePass), () -> singlePass ? List.of(forPredicate(input), forFilter(input)) : List.of(forPredicate(input)), context,
                        delayNanos);
    }

    private static List<Object> filterCompilationKey(DataType input, boolean singlePass) {
        return List.of("filter with its predicate", input, singlePass);
    }

    /**
     * The single-pass filter kernel ({@code FilterKernel}) over {@code input} elements, this cache's
     * function being the predicate, evaluated inside it.
     */
    Compiled forFilter(DataType input) {
        return forFilter(FusedMappers.none(input));
    }

    /** {@link #forFilter(DataType)} of the elements {@code mappers} make of each input element (maps fused before the filter). */
    Compiled forFilter(FusedMappers mappers) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        GeneratorOptions options = plugins.options();
        DataType element = mappers.elementType();
        // no speculation: a filter whose predicate or maps leave the kernel runs in Java and does not recompile
        return kernels.computeIfAbsent(List.of("filter", mappers, plugins.key(), options), key -> compile(() -> {
            KernelGraph graph = graph(new KernelSignature(argumentsFor(element), KernelShapes.of(jpai.ElementType.BOOLEAN), captures()), plugins.configured(),
                            Speculations.NONE);
            MapperGraphs maps = mapperGraphs(mappers, plugins.configured(), java.util.Collections.nCopies(mappers.kernels().size(), Speculations.NONE));
            List<Object> owners = new ArrayList<>(ownersOf(graph, function));
            owners.addAll(maps.owners()); // the predicate's captured values first, then the maps'
            Compiled compiled = generate(graph, options, generator -> new FilterKernel(generator).singlePass(graph, maps.graphs(), maps.components()), owners);
            if (!mappers.isEmpty()) {
                Explain.fused(fusedDescription(mappers.kernels()) + " then the filter of " + description(), "one kernel, no mapped array");
            }
            return compiled;
        }, mappers.first()));
    }

    /**
     * The scan kernel ({@code OpenCLKernelGenerator.scan}) for elements of {@code type}, this
     * cache's function being the operator: the single-pass scan, or the down-sweep of every level of
     * a reduce-then-scan, whose totals of each level come from {@link #forReduce(DataType)}.
     */
    Compiled forScan(DataType type, boolean singlePass) {
        return forScan(type, singlePass, FusedMappers.none(type));
    }

    /**
     * {@link #forScan(DataType, boolean)} of the elements {@code mappers} make of each input element
     * ({@code OpenCLKernelGenerator.scan} with a mapper chain): the single-pass kernel, or level 0's
     * down-sweep of a reduce-then-scan (the levels above scan the groups' values, unmapped).
     */
    Compiled forScan(DataType type, boolean singlePass, FusedMappers mappers) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        GeneratorOptions options = plugins.options();
        // no speculation: a scan whose operator or maps leave the kernel runs in Java and does not recompile
        return kernels.computeIfAbsent(List.of("scan", type, singlePass, mappers, plugins.key(), options), key -> compile(() -> {
            ValueShape shape = KernelShapes.of(type);
            KernelGraph combiner = graph(new KernelSignature(List.of(shape, shape), shape, captures()), plugins.configured(), Speculations.NONE);
            ScanKernelSpec spec = new ScanKernelSpec(KernelShapes.kinds(type), CombiningTree.LEAF, singlePass);
            MapperGraphs maps = mapperGraphs(mappers, plugins.configured(), java.util.Collections.nCopies(mappers.kernels().size(), Speculations.NONE));
            List<Object> owners = new ArrayList<>(ownersOf(combiner, function));
            owners.addAll(maps.owners()); // the combiner's captured values first, then the maps'
            Compiled compiled = generate(combiner, options, generator -> generator.scan(combiner, maps.graphs(), maps.components(), spec), owners);
            if (!mappers.isEmpty()) {
                Explain.fused(fusedDescription(mappers.kernels()) + " then the scan of " + description(), "one kernel, no mapped array");
            }
            return compiled;
        }, mappers.first()));
    }

    /** The reduce kernel for elements of {@code type}, this cache's function being the combiner. */
    Compiled forReduce(DataType type) {
        return forReduce(type, FusedMappers.none(type));
    }

    /**
     * The reduce kernel for elements of {@code type}, this cache's function being the combiner,
     * applied to {@code mapper(x)} for each input element {@code x} of {@code inputType} (a map fused
     * into the reduction), or to the elements themselves when {@code mapper} is null.
     */
    Compiled forReduce(DataType type, KernelCache mapper, DataType inputType) {
        return forReduce(type, FusedMappers.of(mapper, inputType, type));
    }

    /** The reduce kernel for elements of {@code type}, this cache's function being the combiner, of the elements {@code mappers} make of each input element. */
    Compiled forReduce(DataType type, FusedMappers mappers) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        GeneratorOptions options = plugins.options();
        boolean combinerAlone = mappers.isEmpty();
        LastReduce last = combinerAlone ? lastCombinerReduce : lastReduce;
        if (last != null && last.type() == type && last.mappers().sameAs(mappers) && last.plugins() == plugins.key() && (last.options() == options || last.options().equals(options))
                        && compiledWithReduceSpeculations(mappers, last.compiled().compiledWith())) {
            return last.compiled();
        }
        Compiled compiled = reduceKernel(type, mappers, plugins, options);
        LastReduce looked = new LastReduce(type, mappers, plugins.key(), options, compiled);
        if (combinerAlone) {
            lastCombinerReduce = looked;
        } else {
            lastReduce = looked;
        }
        return compiled;
    }

    /**
     * Whether {@code compiledWith} is {@link #reduceSpeculations}{@code (mappers)}, asked without
     * making that list: every apply asks, and each compiled method an apply enters costs it an entry
     * barrier after a full collection.
     */
    private boolean compiledWithReduceSpeculations(FusedMappers mappers, Object compiledWith) {
        List<KernelCache> stages = mappers.kernels();
        if (!(compiledWith instanceof List<?> used) || used.size() != stages.size() + 1) {
            return false;
        }
        for (int s = 0; s < stages.size(); s++) {
            if (!stages.get(s).withoutProfile().equals(used.get(s))) {
                return false;
            }
        }
        return withoutProfile().equals(used.get(stages.size()));
    }

    /**
     * The speculations this function's part of a fused kernel (a reduction, a scan, fused maps) is
     * compiled with: those still allowed, never from HotSpot's profile.
     */
    private Speculations withoutProfile() {
        return speculations.allowed().without(Speculation.UNTAKEN_BRANCHES);
    }

    /**
     * The speculations of a reduction's kernel: the mapper's (none without one) and the combiner's,
     * never from a profile (reductions are not compiled from HotSpot's profile yet).
     */
    private List<Speculations> reduceSpeculations(FusedMappers mappers) {
        List<Speculations> allowed = new ArrayList<>();
        for (KernelCache stage : mappers.kernels()) {
            allowed.add(stage.withoutProfile());
        }
        allowed.add(withoutProfile());
        return allowed;
    }

    private Compiled reduceKernel(DataType type, FusedMappers mappers, Plugins plugins, GeneratorOptions options) {
        List<Speculations> allowed = reduceSpeculations(mappers);
        return compileUnlessCurrent(List.of("reduce", type, mappers, plugins.key(), options), allowed, () -> compile(() -> {
            ValueShape shape = KernelShapes.of(type);
            KernelGraph combiner = graph(new KernelSignature(List.of(shape, shape), shape, captures()), plugins.configured(), allowed.get(allowed.size() - 1));
            MapperGraphs maps = mapperGraphs(mappers, plugins.configured(), allowed.subList(0, mappers.kernels().size()));
            List<Object> owners = new ArrayList<>(maps.owners()); // the maps' captured values first, then the combiner's
            owners.addAll(ownersOf(combiner, function));
            ReduceKernelSpec spec = new ReduceKernelSpec(KernelShapes.kinds(mappers.inputType()), KernelShapes.kinds(type), CombiningTree.LEAF);
            Compiled compiled = generate(combiner, options, generator -> generator.reduce(combiner, maps.graphs(), maps.components(), spec), owners)
                            .differingFromJvm(differenceFromJvm(options, concat(maps.graphs(), combiner)));
            if (mappers.kernels().size() > 1) {
                Explain.fused(fusedDescription(mappers.kernels()) + " then the reduction of " + description(), "one kernel, no mapped array");
            }
            return compiled;
        }, mappers.first()));
    }

    /**
     * The one map kernel of maps fused ({@link OpenCLKernelGenerator#fusedMap}): this cache's
     * function is the first stage, {@code later} holds the kernels of the stages after it, in order;
     * {@code types} the input's type and each stage's result type. Compiled with each stage's
     * speculations (none from a profile), again when one of them failed since; kept in this cache.
     */
    Compiled forFusedMap(List<KernelCache> later, List<DataType> types, int indexDimensions) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        GeneratorOptions options = plugins.options();
        List<KernelCache> stages = new ArrayList<>();
        stages.add(this);
        stages.addAll(later);
        List<Speculations> allowed = new ArrayList<>();
        for (KernelCache stage : stages) {
            allowed.add(stage.withoutProfile());
        }
        return compileUnlessCurrent(List.of("fused map", later, types, indexDimensions, plugins.key(), options), allowed, () -> compile(() -> {
            List<KernelGraph> graphs = new ArrayList<>();
            List<List<JavaKind>> components = new ArrayList<>();
            List<Object> owners = new ArrayList<>();
            components.add(KernelShapes.kinds(types.get(0)));
            for (int k = 0; k < stages.size(); k++) {
                KernelCache stage = stages.get(k);
                KernelGraph graph = stage.graph(new KernelSignature(stage.argumentsFor(types.get(k)), KernelShapes.of(types.get(k + 1)), stage.captures()),
                                plugins.configured(), allowed.get(k));
                graphs.add(graph);
                components.add(KernelShapes.kinds(types.get(k + 1)));
                owners.addAll(ownersOf(graph, stage.function));
            }
            Compiled compiled = generate(graphs.get(0), options, generator -> generator.fusedMap(graphs, components, indexDimensions), owners)
                            .differingFromJvm(differenceFromJvm(options, graphs));
            Explain.fused(fusedDescription(stages), "one kernel, no intermediate array");
            return compiled;
        }, later.get(0)));
    }

    /** "lambda at A.java:3 then lambda at A.java:4": the fused stages, as messages name them. */
    static String fusedDescription(List<KernelCache> stages) {
        StringBuilder text = new StringBuilder("maps of ");
        for (KernelCache stage : stages) {
            text.append(text.length() == 8 ? "" : " then ").append(stage.description());
        }
        return text.toString();
    }

    /**
     * The operator this cache's function (a combiner of {@code type}, two arguments) computes when it
     * is one whose result a device may compute with atomics ({@link CombinerRecognition}), else null
     * (also when it does not compile: the ordered kernels then say why).
     */
    ReductionOperator recognisedOperator(DataType type) {
        if (type != jpai.ElementType.INT && type != jpai.ElementType.LONG) {
            return null;
        }
        // not recognised when it does not compile: the ordered kernels' compilation then says why
        return recognised.computeIfAbsent(type, t -> {
            Plugins plugins = plugins();
            if (plugins.problem() != null || plugins.configured() == null) {
                return java.util.Optional.<ReductionOperator>empty();
            }
            try {
                ValueShape shape = KernelShapes.of(t);
                KernelGraph combiner = graph(new KernelSignature(List.of(shape, shape), shape, captures()), plugins.configured(), Speculations.NONE);
                return java.util.Optional.ofNullable(CombinerRecognition.of(combiner));
            } catch (RuntimeException | LinkageError e) {
                return java.util.Optional.<ReductionOperator>empty();
            }
        }).orElse(null);
    }

    /** The kernels of a keyed reduction ({@link KeyedReduceKernels}). */
    enum KeyedKernel {
        /** Atomics straight into the result. */
        ATOMIC,
        /** Atomics into per-group bins in local memory, then into the result. */
        ATOMIC_LOCAL_BINS,
        /** The ordered strategy's per-chunk folds, a work-item per chunk. */
        CHUNKS,
        /** The ordered strategy's per-chunk folds, a work-group per chunk, the keys shared out among its work-items. */
        SHARED_CHUNKS,
        /** The ordered strategy's fold of the chunks' rows (computes neither key nor value). */
        COMBINE_CHUNKS;

        boolean atomic() {
            return this == ATOMIC || this == ATOMIC_LOCAL_BINS;
        }
    }

    /**
     * A keyed reduction's kernel {@code which}, this cache's function being the combiner of values of
     * {@code valueType}, over input elements of {@code inputType} whose key and value the functions
     * of {@code key} and {@code value} compute in the kernel; {@code atomic}: the recognised operator
     * of the atomic kernels (null for the others).
     */
    Compiled forKeyedReduce(KernelCache key, KernelCache value, DataType inputType, DataType valueType, KeyedKernel which, ReductionOperator atomic) {
        Plugins plugins = plugins();
        if (plugins.problem() != null) {
            return Compiled.failed(plugins.problem(), description());
        }
        GeneratorOptions options = plugins.options();
        return kernels.computeIfAbsent(java.util.Arrays.asList("keyed " + which, which.atomic() ? atomic : null, key, value, inputType, valueType, plugins.key(), options),
                        cacheKey -> compile(() -> {
                            // no speculation: a keyed reduction that leaves the kernel re-runs in Java and does not
                            // recompile, so a failed speculation would cost that run at every apply
                            Speculations none = Speculations.NONE;
                            ValueShape valueShape = KernelShapes.of(valueType);
                            List<JavaKind> input = KernelShapes.kinds(inputType);
                            List<JavaKind> values = KernelShapes.kinds(valueType);
                            List<Object> owners = new ArrayList<>();
                            KernelGraph keyGraph = null;
                            KernelGraph valueGraph = null;
                            if (which != KeyedKernel.COMBINE_CHUNKS) {
                                keyGraph = key.graph(new KernelSignature(key.argumentsFor(inputType), KernelShapes.of(jpai.ElementType.INT), key.captures()), plugins.configured(), none);
                                valueGraph = value.graph(new KernelSignature(value.argumentsFor(inputType), valueShape, value.captures()), plugins.configured(), none);
                                owners.addAll(ownersOf(keyGraph, key.function));
                                owners.addAll(ownersOf(valueGraph, value.function));
                            }
                            KernelGraph keys = keyGraph;
                            KernelGraph elementValues = valueGraph;
                            if (which.atomic()) {
                                return generate(keys, options,
                                                generator -> new KeyedReduceKernels(generator).atomic(keys, elementValues, input, values.get(0), atomic, which == KeyedKernel.ATOMIC_LOCAL_BINS),
                                                owners);
                            }
                            KernelGraph combiner = graph(new KernelSignature(List.of(valueShape, valueShape), valueShape, captures()), plugins.configured(), none);
                            owners.addAll(ownersOf(combiner, function));
                            return generate(combiner, options, generator -> switch (which) {
                                case CHUNKS -> new KeyedReduceKernels(generator).chunks(keys, elementValues, combiner, input, values);
                                case SHARED_CHUNKS -> new KeyedReduceKernels(generator).sharedChunks(keys, elementValues, combiner, input, values);
                                default -> new KeyedReduceKernels(generator).combineChunks(combiner, values);
                            }, owners);
                        }));
    }

    /**
     * Why a kernel built with {@code options} from {@code graphs} (maps fused in front first) may
     * give other bits than the JVM ({@link JvmResultDifferences}, or fast math), or null when it
     * cannot: only then may a tiered apply's device part take over from Java threads.
     */
    private static String differenceFromJvm(GeneratorOptions options, List<KernelGraph> graphs) {
        if (options.fastMath()) {
            return "it is built with OpenCL's relaxed math";
        }
        for (KernelGraph graph : graphs) {
            String difference = JvmResultDifferences.of(graph);
            if (difference != null) {
                return difference;
            }
        }
        return null;
    }

    private static List<KernelGraph> concat(List<KernelGraph> first, KernelGraph last) {
        List<KernelGraph> all = new ArrayList<>(first);
        all.add(last);
        return all;
    }

    /** The graphs of maps fused before a kernel, the input's components and each map's result's, and the owners of their captured values, in slot order. */
    private record MapperGraphs(List<KernelGraph> graphs, List<List<JavaKind>> components, List<Object> owners) {
    }

    /** {@code mappers}' graphs, map {@code k} compiled with {@code allowed.get(k)}. */
    private static MapperGraphs mapperGraphs(FusedMappers mappers, PhasePlugins plugins, List<Speculations> allowed) {
        List<KernelGraph> graphs = new ArrayList<>();
        List<List<JavaKind>> components = new ArrayList<>();
        List<Object> owners = new ArrayList<>();
        components.add(KernelShapes.kinds(mappers.inputType()));
        for (int k = 0; k < mappers.kernels().size(); k++) {
            KernelCache stage = mappers.kernels().get(k);
            KernelGraph graph = stage.graph(new KernelSignature(stage.argumentsFor(mappers.types().get(k)), KernelShapes.of(mappers.types().get(k + 1)), stage.captures()),
                            plugins, allowed.get(k));
            graphs.add(graph);
            components.add(KernelShapes.kinds(mappers.types().get(k + 1)));
            owners.addAll(ownersOf(graph, stage.function));
        }
        return new MapperGraphs(graphs, components, owners);
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
            math = JpaiOptions.mathFunctions();
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

    private KernelGraph graph(KernelSignature signature, PhasePlugins plugins, Speculations allowed) {
        long start = System.nanoTime();
        KernelGraphCompiler compiler = new KernelGraphCompiler(JpaiOptions.mathFunctions(), plugins);
        if (!compiler.math().javaResults()) {
            Explain.notice("kernels compute Math's sin, exp, pow and other transcendental functions with OpenCL's built-ins (-D" + MathFunctions.PROPERTY + "="
                            + compiler.math().optionValue() + "): their results are within OpenCL's error bounds (docs/java-semantics.md), up to 16 ulps, not Math's 1 to 2.5");
        }
        if (jpai.compiler.UnsafeExitCheckRemoval.requested()) {
            Explain.notice("UNSAFE: -D" + jpai.compiler.UnsafeExitCheckRemoval.PROPERTY + "=true: kernels are compiled without their exit checks, for measuring"
                            + " what the checks cost; an index out of bounds reads or writes outside the array, and results and exceptions are not Java's");
        }
        KernelGraph graph = compiler.compile(function, interfaceMethod, signature, allowed);
        Profiler.graal(System.nanoTime() - start);
        return graph;
    }

    /** {@code owner} once per captured value of {@code graph}. */
    private static List<Object> ownersOf(KernelGraph graph, Object owner) {
        return java.util.Collections.nCopies(graph.captures().size(), owner);
    }

    /** Runs the generator, times it and dumps the kernel; {@code owners} says whose fields the captures are. */
    private Compiled generate(KernelGraph main, GeneratorOptions options, Function<OpenCLKernelGenerator, KernelSource> generation, List<Object> owners) {
        long start = System.nanoTime();
        if (options.fastMath()) {
            Explain.notice("kernels are built with OpenCL's relaxed math (-D" + JpaiOptions.FAST_MATH + "=true): floating-point results may differ from Java's"
                            + " (fused multiply-adds; NaN, infinities and signed zeros not kept)");
        }
        KernelSource source = generation.apply(new OpenCLKernelGenerator(options));
        Profiler.codeGeneration(System.nanoTime() - start);
        for (String note : source.notes()) {
            Explain.tiling(description(), note);
        }
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
