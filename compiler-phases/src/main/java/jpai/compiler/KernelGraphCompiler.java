package jpai.compiler;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.ListIterator;
import java.util.Set;
import java.util.function.Supplier;

import jdk.graal.compiler.bytecode.BytecodeStream;
import jdk.graal.compiler.bytecode.Bytecodes;
import jdk.graal.compiler.core.common.PermanentBailoutException;
import jdk.graal.compiler.debug.DebugContext;
import jdk.graal.compiler.java.BytecodeParserOptions;
import jdk.graal.compiler.java.GraphBuilderPhase;
import jdk.graal.compiler.options.OptionValues;
import jdk.graal.compiler.nodes.graphbuilderconf.GraphBuilderConfiguration;
import jdk.graal.compiler.nodes.graphbuilderconf.GraphBuilderConfiguration.BytecodeExceptionMode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.StructuredGraph.AllowAssumptions;
import jdk.graal.compiler.phases.BasePhase;
import jdk.graal.compiler.phases.OptimisticOptimizations;
import jdk.graal.compiler.nodes.spi.ProfileProvider;
import jdk.vm.ci.meta.DefaultProfilingInfo;
import jdk.vm.ci.meta.ProfilingInfo;
import jdk.vm.ci.meta.TriState;
import jpai.compiler.phases.UntakenBranchesAsSpeculationsPhase;
import jdk.graal.compiler.phases.PhaseSuite;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.ConditionalEliminationPhase;
import jdk.graal.compiler.phases.common.DeadCodeEliminationPhase;
import jdk.graal.compiler.phases.common.inlining.InliningPhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.graal.compiler.virtual.phases.ea.PartialEscapePhase;
import jdk.vm.ci.meta.JavaMethod;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;
import jpai.compiler.phases.BoxIdentityComparisonsPhase;
import jpai.compiler.phases.CallsOnConstantReceiversPhase;
import jpai.compiler.phases.CapturedValuesToParametersPhase;
import jpai.compiler.phases.CaughtImplicitExceptionsPhase;
import jpai.compiler.phases.DropFrameStatesPhase;
import jpai.compiler.phases.FieldReadsThroughPhisPhase;
import jpai.compiler.phases.CountedLoopIndexStampPhase;
import jpai.compiler.phases.NarrowWidenedComparisonsPhase;
import jpai.compiler.phases.ElementReaderCallsToAccessesPhase;
import jpai.compiler.phases.ExactTypesOfCapturedObjectsPhase;
import jpai.compiler.phases.FloatSqrtPhase;
import jpai.compiler.phases.FloatTranscendentalsPhase;
import jpai.compiler.phases.SpeculativeBoundsCheckHoistingPhase;
import jpai.compiler.phases.StaticArraysToParametersPhase;
import jpai.compiler.phases.ExceptionPathsToDeoptimizationPhase;
import jpai.compiler.phases.FloatArgumentMathPhase;
import jpai.compiler.phases.KernelInliningPolicy;
import jpai.compiler.phases.LoopInvariantExitsPhase;
import jpai.compiler.phases.MathAsStrictMathPlugin;
import jpai.compiler.phases.MathCallsToNodesPhase;
import jpai.compiler.phases.RejectRemainingCallsPhase;
import jpai.compiler.phases.RemoveExitChecksPhase;
import jpai.compiler.phases.TupleKernelArgumentsPhase;
import jpai.compiler.phases.TupleResultComponentsPhase;
import jpai.compiler.phases.KernelArgumentTypesPhase;
import jpai.compiler.phases.RemoveKernelArgumentNullChecksPhase;
import jpai.compiler.phases.UnboxKernelArgumentsPhase;
import jpai.compiler.phases.UnboxKernelResultPhase;
import jpai.compiler.phases.UnboxPhisOfBoxesPhase;
import jpai.compiler.plugin.PhasePlugins;
import jpai.compiler.plugin.PipelinePoint;

/**
 * Marawacc's front half: from a functional object to an optimised {@link KernelGraph}. The steps, in
 * order (each timed in {@link PhaseTimings} under the name in quotes):
 *
 * <ol>
 * <li>"parse bytecode": the object's single abstract method (of its hidden lambda class) into a
 * Graal graph through JVMCI, with Graal's intrinsics, explicit exception checks and eager
 * resolving, no inlining during parsing; by default ({@link MathFunctions#JAVA}) with
 * {@link MathAsStrictMathPlugin}, which reads {@code Math}'s transcendental functions as calls of
 * {@code StrictMath}'s, so that FdLibm's Java code is inlined instead of OpenCL built-ins used.</li>
 * <li>"exact types of captured objects" ({@link ExactTypesOfCapturedObjectsPhase}): a captured
 * object whose fields the kernel may read gets its class as an exact type, so that its methods are
 * direct calls.</li>
 * <li>"inline": Graal's {@code InliningPhase} with {@link KernelInliningPolicy}: everything except
 * the {@code Math} functions the device computes (with {@code -Djpai.math=opencl}), the methods of
 * captured element readers and the JDK methods kernels leave to Java ({@code MethodsLeftToJava}).
 * Then, while a virtual call is left whose receiver is one of several constants, "calls on constant
 * receivers" ({@link CallsOnConstantReceiversPhase}) and "inline" again.</li>
 * <li>"untaken branches as speculations" ({@link UntakenBranchesAsSpeculationsPhase}), only when
 * compiling from the body's HotSpot profile ({@link Speculation#UNTAKEN_BRANCHES}, the parser then
 * removing never-executed code): the parser's exits for never-taken branches name that speculation.</li>
 * <li>"caught implicit exceptions" ({@link CaughtImplicitExceptionsPhase}): a {@code catch} of an
 * implicit exception whose object the handler does not read becomes a branch.</li>
 * <li>"box identity comparisons" ({@link BoxIdentityComparisonsPhase}): {@code ==} of two boxes
 * as the JVM's box cache answers it.</li>
 * <li>"exception paths to deoptimization" ({@link ExceptionPathsToDeoptimizationPhase}): every path
 * that ends in a Java exception becomes an exit with a reason.</li>
 * <li>"math calls" ({@link MathCallsToNodesPhase}): the kept {@code Math} calls become
 * {@code MathCallNode}s.</li>
 * <li>"element reader calls" ({@link ElementReaderCallsToAccessesPhase}): {@code get}/{@code length}
 * of a captured {@code PArray} become a bounds-checked load and the length of its buffer.</li>
 * <li>"reject remaining calls" ({@link RejectRemainingCallsPhase}): any call left bails out.</li>
 * <li>Graal's canonicaliser; "tuple result components" ({@link TupleResultComponentsPhase}); Graal's
 * partial escape analysis and conditional elimination.</li>
 * <li>"drop frame states" ({@link DropFrameStatesPhase}); "remove null checks on arguments"
 * ({@link RemoveKernelArgumentNullChecksPhase}); "exact argument types"
 * ({@link KernelArgumentTypesPhase}); "unbox result" ({@link UnboxKernelResultPhase}); "unbox phis of
 * boxes" ({@link UnboxPhisOfBoxesPhase}); "unbox
 * arguments" ({@link UnboxKernelArgumentsPhase}); "tuple arguments"
 * ({@link TupleKernelArgumentsPhase}); "captured values" ({@link CapturedValuesToParametersPhase}); "static
 * arrays" ({@link StaticArraysToParametersPhase}): a user's static final array becomes a parameter
 * the runtime sends at each apply.</li>
 * <li>"float sqrt" ({@link FloatSqrtPhase}); "float transcendentals" ({@link FloatTranscendentalsPhase},
 * with {@code -Djpai.math=opencl} unless {@code -Djpai.floatmath=false}); "loop-invariant exits"
 * ({@link LoopInvariantExitsPhase}); "counted loop index stamps" ({@link CountedLoopIndexStampPhase});
 * Graal's conditional elimination;
 * "speculative bounds check hoisting" ({@link SpeculativeBoundsCheckHoistingPhase}), unless
 * {@link Speculation#HOISTED_BOUNDS_CHECKS} is not allowed (it failed before); likewise "loop-invariant
 * exits" moves exits out of loop bodies only while {@link Speculation#HOISTED_LOOP_EXITS} is.</li>
 * <li>Graal's conditional elimination; "narrow widened comparisons" ({@link NarrowWidenedComparisonsPhase}):
 * {@code (long) i < length} of two widened ints compares the ints; dead code elimination.</li>
 * </ol>
 *
 * Researchers' {@link jpai.compiler.plugin.PhasePlugin phase plugins} run at three named
 * {@link PipelinePoint}s: after parsing (after step 1), after Graal's high tier (after step 10) and
 * after the kernel phases (last), each timed under its name and dumped for Graal's dump options
 * after the dump of its point ("JPAI after parsing", "JPAI after Graal high tier", "JPAI after
 * kernel phases"); docs/phase-plugins.md.
 *
 * Before the first kernel, FdLibm's classes ({@code StrictMath}'s implementation) and the JDK's box
 * caches are initialised, and per kernel the tuple classes of its data, so that the parser inlines
 * them and what compiles never depends on what the JVM ran before.
 *
 * <p>Thread-safe: every call builds its own graph.
 */
public final class KernelGraphCompiler {

    /** Nested choices of constant receivers resolved at most (CharacterData needs one). */
    private static final int MAX_DISPATCH_ROUNDS = 3;

    private final GraalAccess graal;
    private final MathFunctions math;
    private final PhasePlugins plugins;
    private static volatile boolean jdkClassesInitialized;

    /**
     * A compiler configured as the system properties say: the host JVM's Graal, {@code Math}
     * computed as {@code -Djpai.math} says, and the configured phase plugins (service providers and
     * {@code -Djpai.phases}: {@link PhasePlugins#configured()}).
     *
     * @throws jpai.compiler.plugin.PhasePluginConfigurationException when a plugin cannot be set up
     */
    public KernelGraphCompiler() {
        this(GraalAccess.get(), MathFunctions.fromSystemProperty(), PhasePlugins.configured());
    }

    /** A compiler with no phase plugins. */
    public KernelGraphCompiler(MathFunctions math) {
        this(GraalAccess.get(), math, PhasePlugins.NONE);
    }

    public KernelGraphCompiler(MathFunctions math, PhasePlugins plugins) {
        this(GraalAccess.get(), math, plugins);
    }

    /** A compiler with no phase plugins. */
    public KernelGraphCompiler(GraalAccess graal) {
        this(graal, MathFunctions.fromSystemProperty(), PhasePlugins.NONE);
    }

    /** A compiler with no phase plugins. */
    public KernelGraphCompiler(GraalAccess graal, MathFunctions math) {
        this(graal, math, PhasePlugins.NONE);
    }

    public KernelGraphCompiler(GraalAccess graal, MathFunctions math, PhasePlugins plugins) {
        this.graal = graal;
        this.math = java.util.Objects.requireNonNull(math, "math");
        this.plugins = java.util.Objects.requireNonNull(plugins, "plugins");
    }

    /** How this compiler's kernels compute {@code Math}'s transcendental functions. */
    public MathFunctions math() {
        return math;
    }

    /** The phase plugins this compiler runs. */
    public PhasePlugins plugins() {
        return plugins;
    }

    /**
     * Compiles {@code function}'s implementation of {@code interfaceMethod} (say
     * {@code Function.apply}) to a kernel graph specialised to {@code signature}.
     *
     * @throws KernelBailoutException if the code cannot become a kernel; the message says why and where
     */
    public KernelGraph compile(Object function, Method interfaceMethod, KernelSignature signature) {
        return compile(function, interfaceMethod, signature, Speculations.WITHOUT_PROFILE);
    }

    /**
     * {@link #compile(Object, Method, KernelSignature)} (which makes {@link Speculations#WITHOUT_PROFILE})
     * making only the {@code speculations} given:
     * the runtime leaves out those it saw fail for this function. A speculation left out keeps the
     * exits where Java's code has them ({@link Speculation}).
     */
    public KernelGraph compile(Object function, Method interfaceMethod, KernelSignature signature, Speculations speculations) {
        java.util.Objects.requireNonNull(speculations, "speculations");
        ResolvedJavaMethod entry = resolveImplementation(function, interfaceMethod);
        PhaseTimings timings = new PhaseTimings();
        LambdaDescription lambda = describe(function.getClass(), entry);
        DebugContext debug = graal.newDebugContext(lambda.identifier());
        boolean fromProfile = speculations.allows(Speculation.UNTAKEN_BRANCHES) && isMature(lambda.bodyMethod().getProfilingInfo());
        try (DebugContext.Scope scope = debug.scope("JPAI", lambda.identifier())) {
            // No inlining while parsing: it would bypass KernelInliningPolicy, which keeps the Math
            // functions the device computes as calls (the InliningPhase inlines everything else).
            OptionValues options = new OptionValues(graal.options(), BytecodeParserOptions.InlineDuringParsing, false);
            StructuredGraph.Builder builder = new StructuredGraph.Builder(options, debug, AllowAssumptions.NO)
                    .method(entry)
                    .name(lambda.identifier())
                    .trackNodeSourcePosition(true);
            if (fromProfile) {
                builder.profileProvider(new BodyProfileOnly(lambda.bodyMethod()));
            }
            StructuredGraph graph = builder.build();
            HighTierContext context = highTierContext(fromProfile);
            CanonicalizerPhase canonicalizer = CanonicalizerPhase.create();

            KernelInputs inputs = new KernelInputs(signature);
            initializeDataClasses(signature);
            initializeJdkClasses();
            injectedFailure(lambda);
            run("parse bytecode", timings, () -> context.getGraphBuilderSuite(), graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after parsing");
            plugins.apply(PipelinePoint.AFTER_PARSING, graph, context, timings);
            run("exact types of captured objects", timings, () -> new ExactTypesOfCapturedObjectsPhase(function, signature), graph, context);
            Set<ResolvedJavaMethod> readerMethods = ElementReaderCallsToAccessesPhase.keptCalls(signature, graal.providers().getMetaAccess());
            inline(graph, context, canonicalizer, readerMethods, timings);
            // a call the inliner left because its receiver is one of several constants (the JDK's
            // Character tables) becomes direct calls that the next round inlines
            for (int round = 0; round < MAX_DISPATCH_ROUNDS && CallsOnConstantReceiversPhase.appliesTo(graph, context); round++) {
                run("calls on constant receivers", timings, CallsOnConstantReceiversPhase::new, graph, context);
                run("inline", timings, () -> new InliningPhase(new KernelInliningPolicy(readerMethods), canonicalizer), graph, context);
            }
            if (fromProfile) {
                run("untaken branches as speculations", timings, UntakenBranchesAsSpeculationsPhase::new, graph, context);
            }
            run("caught implicit exceptions", timings, CaughtImplicitExceptionsPhase::new, graph, context);
            run("box identity comparisons", timings, BoxIdentityComparisonsPhase::new, graph, context);
            run("exception paths to deoptimization", timings, ExceptionPathsToDeoptimizationPhase::new, graph, context);
            run("math calls", timings, MathCallsToNodesPhase::new, graph, context);
            run("element reader calls", timings, () -> new ElementReaderCallsToAccessesPhase(signature, inputs), graph, context);
            run("reject remaining calls", timings, RejectRemainingCallsPhase::new, graph, context);
            run("canonicalize", timings, () -> canonicalizer, graph, context);
            run("tuple result components", timings, () -> new TupleResultComponentsPhase(signature), graph, context);
            run("partial escape analysis", timings, () -> new PartialEscapePhase(true, canonicalizer, graal.options()), graph, context);
            run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after Graal high tier");
            plugins.apply(PipelinePoint.AFTER_HIGH_TIER, graph, context, timings);

            run("drop frame states", timings, DropFrameStatesPhase::new, graph, context);
            run("remove null checks on arguments", timings, () -> new RemoveKernelArgumentNullChecksPhase(canonicalizer, signature), graph, context);
            run("exact argument types", timings, () -> new KernelArgumentTypesPhase(canonicalizer, signature), graph, context);
            run("unbox result", timings, () -> new UnboxKernelResultPhase(canonicalizer, signature), graph, context);
            run("unbox phis of boxes", timings, () -> new UnboxPhisOfBoxesPhase(canonicalizer), graph, context);
            run("unbox arguments", timings, () -> new UnboxKernelArgumentsPhase(canonicalizer, signature, inputs), graph, context);
            run("field reads through phis", timings, () -> new FieldReadsThroughPhisPhase(canonicalizer), graph, context);
            run("tuple arguments", timings, () -> new TupleKernelArgumentsPhase(canonicalizer, signature, inputs), graph, context);
            // the components of a tuple chosen at a merge are phis of boxes of the new parameters
            run("unbox phis of boxes", timings, () -> new UnboxPhisOfBoxesPhase(canonicalizer), graph, context);
            run("captured values", timings, () -> new CapturedValuesToParametersPhase(canonicalizer, signature, inputs, lambda), graph, context);
            run("static arrays", timings, () -> new StaticArraysToParametersPhase(inputs), graph, context);
            run("float sqrt", timings, FloatSqrtPhase::new, graph, context);
            if (math == MathFunctions.OPENCL_BUILTINS && floatTranscendentals()) {
                run("float transcendentals", timings, FloatTranscendentalsPhase::new, graph, context);
            }
            run("loop-invariant exits", timings, () -> new LoopInvariantExitsPhase(canonicalizer, speculations.allows(Speculation.HOISTED_LOOP_EXITS)), graph, context);
            run("counted loop index stamps", timings, () -> new CountedLoopIndexStampPhase(canonicalizer), graph, context);
            run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            if (speculations.allows(Speculation.HOISTED_BOUNDS_CHECKS)) {
                run("speculative bounds check hoisting", timings, () -> new SpeculativeBoundsCheckHoistingPhase(canonicalizer), graph, context);
            }
            run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            if (UnsafeExitCheckRemoval.requested()) {
                run("UNSAFE: remove exit checks (measurement only)", timings, () -> new RemoveExitChecksPhase(canonicalizer), graph, context);
            }
            run("narrow widened comparisons", timings, () -> new NarrowWidenedComparisonsPhase(canonicalizer), graph, context);
            run("dead code elimination", timings, DeadCodeEliminationPhase::new, graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after kernel phases");
            plugins.apply(PipelinePoint.AFTER_KERNEL_PHASES, graph, context, timings);
            return new KernelGraph(graph, lambda, signature, timings, inputs, plugins);
        } catch (KernelBailoutException e) {
            throw e;
        } catch (PermanentBailoutException e) {
            throw new KernelBailoutException("Graal gave up on it: " + e.getMessage() + withPlugins(), lambda.location(), e);
        } catch (Throwable e) {
            throw KernelBailoutException.internalError(e.toString() + withPlugins(), lambda.location(), e);
        }
    }

    /**
     * Inlines every call but {@code kept}: with {@link MathFunctions#floatArguments()} (and a host
     * whose Graal reads {@code Math.fma} as a node), a first round leaves {@code Math.sin}, {@code cos},
     * {@code exp} and {@code log} as calls, so that those of floats can be computed from the float
     * ({@link FloatArgumentMathPhase}), and a second round inlines them all. Lambdas' and annotated
     * loops' kernels both start so.
     */
    void inline(StructuredGraph graph, HighTierContext context, CanonicalizerPhase canonicalizer, Set<ResolvedJavaMethod> kept, PhaseTimings timings) {
        boolean floatArgumentMath = math.floatArguments() && FloatArgumentMathPhase.supportedOn(graal.providers().getCodeCache().getTarget().arch);
        run("inline", timings, () -> new InliningPhase(new KernelInliningPolicy(kept, floatArgumentMath), canonicalizer), graph, context);
        if (floatArgumentMath) {
            boolean deviceExpLog = math == MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG;
            run("float-argument sin, cos, exp and log", timings, () -> new FloatArgumentMathPhase(deviceExpLog), graph, context);
            run("inline", timings, () -> new InliningPhase(new KernelInliningPolicy(kept), canonicalizer), graph, context);
        }
    }

    /** For failures after plugins changed the graph: " (after the phase plugins X (after parsing))", or nothing. */
    private String withPlugins() {
        return plugins.isEmpty() ? "" : " (after the phase plugins " + plugins.description() + ")";
    }

    /**
     * For tests of what the runtime does when the compiler fails: {@code -Djpai.test.failCompilerFor=S}
     * makes compiling a lambda whose identifier contains {@code S} throw, as a bug in a phase would.
     */
    static void injectedFailure(LambdaDescription lambda) {
        String target = System.getProperty("jpai.test.failCompilerFor");
        if (target != null && !target.isEmpty() && lambda.identifier().contains(target)) {
            throw new IllegalStateException("a compiler failure injected by -Djpai.test.failCompilerFor=" + target);
        }
    }

    /**
     * Whether {@code (float) Math.f(x)} of {@code float}s uses the {@code float} built-in
     * ({@link FloatTranscendentalsPhase}, within the bound docs/java-semantics.md states): on unless
     * {@code -Djpai.floatmath=false}.
     */
    static boolean floatTranscendentals() {
        return !"false".equalsIgnoreCase(System.getProperty("jpai.floatmath"));
    }

    /**
     * Initialises the tuple classes the kernel's data uses: the parser does not inline the
     * constructor of a class that is not initialised yet (the runtime may compile a function before
     * Java ever ran it).
     */
    private void initializeDataClasses(KernelSignature signature) {
        List<ValueShape> shapes = new ArrayList<>(signature.arguments());
        if (signature.result() != null) {
            shapes.add(signature.result());
        }
        for (ValueShape shape : shapes) {
            if (shape instanceof ValueShape.Tuple tuple) {
                graal.providers().getMetaAccess().lookupJavaType(tuple.type()).initialize();
            }
        }
    }

    /**
     * The JDK classes whose initialisation changes what the parser makes of code: the box caches
     * ({@link #initializeBoxCaches}) and FdLibm's classes, {@code StrictMath}'s implementation, whose
     * code kernels inline. The parser
     * puts an exit where code uses a class that is not initialised yet, and folds the static final
     * tables of one that is; so they are initialised once, before the first kernel (all of them,
     * so that what compiles does not depend on what the JVM ran before). The argument reduction of
     * huge angles is left to Java by {@code MethodsLeftToJava}, not by leaving its class uninitialised.
     */
    void initializeJdkClasses() {
        if (jdkClassesInitialized) {
            return;
        }
        initializeBoxCaches();
        // the float-argument functions (FloatArgumentMathPhase): inlined like FdLibm
        graal.providers().getMetaAccess().lookupJavaType(jpai.compiler.math.FloatArgumentTrig.class).initialize();
        graal.providers().getMetaAccess().lookupJavaType(jpai.compiler.math.FloatArgumentExpLog.class).initialize();
        graal.providers().getMetaAccess().lookupJavaType(jpai.compiler.math.FloatArgumentMath.class).initialize();
        graal.providers().getMetaAccess().lookupJavaType(jpai.compiler.math.DeviceDoubleMath.class).initialize();
        try {
            Class<?> fdlibm = Class.forName("java.lang.FdLibm", false, null);
            graal.providers().getMetaAccess().lookupJavaType(fdlibm).initialize();
            for (Class<?> implementation : fdlibm.getDeclaredClasses()) {
                graal.providers().getMetaAccess().lookupJavaType(implementation).initialize();
            }
        } catch (ClassNotFoundException e) {
            // Another JDK's StrictMath: its classes are initialised by use, kernels exit until then.
        }
        jdkClassesInitialized = true;
    }

    /**
     * The JDK's box caches ({@code Short.valueOf}'s {@code ShortCache} and the others). Graal parses
     * {@code Short.valueOf(s)} as a box only once the cache class is initialised; before that it
     * inlines {@code valueOf}, whose load from the cache array is an object the kernel cannot have,
     * so whether a lambda ran on the device depended on whether the JVM had boxed a small
     * {@code short} before (issue 19, item 7). Initialising them first makes it never depend on it.
     */
    private static void initializeBoxCaches() {
        for (String cache : new String[] {"java.lang.Byte$ByteCache", "java.lang.Short$ShortCache", "java.lang.Character$CharacterCache", "java.lang.Integer$IntegerCache",
                        "java.lang.Long$LongCache"}) {
            try {
                Class.forName(cache, true, null);
            } catch (ClassNotFoundException e) {
                // another JDK's caches: boxes then depend on its own initialisation, as before
            }
        }
    }

    /** Who {@code function} is, for messages: its body method and source line. No graph is built. */
    public LambdaDescription describe(Object function, Method interfaceMethod) {
        return describe(function.getClass(), resolveImplementation(function, interfaceMethod));
    }

    /**
     * The parser resolves what the bytecode refers to as it goes, and (also for inlined callees) emits every exception check explicitly
     * ({@link BytecodeExceptionMode#CheckAll}): each becomes an {@code If} whose failing branch
     * {@link ExceptionPathsToDeoptimizationPhase} turns into an exit with a reason. Without it,
     * bounds, null and division checks would be left to lowering, which kernels never reach.
     */
    HighTierContext highTierContext() {
        return highTierContext(false);
    }

    /**
     * The optimistic optimisation {@link #compile} makes from a profile: never-executed code
     * removal alone (the parser puts an {@code UnreachedCode} exit where a branch's probability is 0).
     */
    private static final OptimisticOptimizations NEVER_EXECUTED_CODE_ONLY = OptimisticOptimizations.ALL.remove(OptimisticOptimizations.Optimization.UseTypeCheckedInlining,
                    OptimisticOptimizations.Optimization.UseTypeCheckHints, OptimisticOptimizations.Optimization.UseExceptionProbabilityForOperations,
                    OptimisticOptimizations.Optimization.UseExceptionProbability, OptimisticOptimizations.Optimization.UseLoopLimitChecks);

    /**
     * Whether {@code function}'s body (the method the user wrote: a lambda's {@code lambda$...}) has
     * a mature HotSpot profile, from running in Java: then {@link #compile} with
     * {@link Speculation#UNTAKEN_BRANCHES} compiles the branches it never took as exits.
     */
    public boolean hasMatureProfile(Object function, Method interfaceMethod) {
        return isMature(describe(function.getClass(), resolveImplementation(function, interfaceMethod)).bodyMethod().getProfilingInfo());
    }

    private static boolean isMature(ProfilingInfo profile) {
        return profile != null && profile.isMature();
    }

    /**
     * The profile of the function's body only: callees (the JDK's included, whose profiles come
     * from the whole JVM's use and stop growing once HotSpot compiled them) are compiled whole.
     */
    private record BodyProfileOnly(ResolvedJavaMethod body) implements ProfileProvider {
        @Override
        public ProfilingInfo getProfilingInfo(ResolvedJavaMethod method) {
            return getProfilingInfo(method, true, true);
        }

        @Override
        public ProfilingInfo getProfilingInfo(ResolvedJavaMethod method, boolean includeNormal, boolean includeOSR) {
            return method.equals(body) ? method.getProfilingInfo(includeNormal, includeOSR) : DefaultProfilingInfo.get(TriState.UNKNOWN);
        }
    }

    /** {@link #highTierContext()}; {@code fromProfile}: with never-executed code removal ({@link Speculation#UNTAKEN_BRANCHES}). */
    private HighTierContext highTierContext(boolean fromProfile) {
        PhaseSuite<HighTierContext> graphBuilderSuite = graal.graphBuilderSuite().copy();
        ListIterator<BasePhase<? super HighTierContext>> position = graphBuilderSuite.findPhase(GraphBuilderPhase.class);
        GraphBuilderPhase parser = (GraphBuilderPhase) position.previous();
        // Eager resolving: code Java has not run yet (StrictMath's FdLibm calls, say) has unresolved
        // constant pool entries, which the parser would otherwise turn into exits.
        GraphBuilderConfiguration config = parser.getGraphBuilderConfig().copy().withBytecodeExceptionMode(BytecodeExceptionMode.CheckAll).withEagerResolving(true);
        if (math.javaResults()) {
            config.getPlugins().prependNodePlugin(new MathAsStrictMathPlugin(graal.providers().getMetaAccess()));
        }
        position.set(parser.copyWithConfig(config));
        return new HighTierContext(graal.providers(), graphBuilderSuite, fromProfile ? NEVER_EXECUTED_CODE_ONLY : OptimisticOptimizations.NONE);
    }

    @SuppressWarnings("unchecked")
    static <C> void run(String name, PhaseTimings timings, Supplier<? extends BasePhase<? super C>> phase, StructuredGraph graph, C context) {
        long start = System.nanoTime();
        phase.get().apply(graph, context);
        timings.record(name, System.nanoTime() - start);
    }

    private ResolvedJavaMethod resolveImplementation(Object function, Method interfaceMethod) {
        ResolvedJavaType type = graal.providers().getMetaAccess().lookupJavaType(function.getClass());
        ResolvedJavaMethod declared = graal.providers().getMetaAccess().lookupJavaMethod(interfaceMethod);
        ResolvedJavaMethod implementation = type.resolveConcreteMethod(declared, type);
        if (implementation == null || implementation.isAbstract()) {
            throw new IllegalArgumentException(function.getClass().getName() + " does not implement " + interfaceMethod);
        }
        return implementation;
    }

    /**
     * Names the lambda: a lambda's hidden-class method forwards to one method, the body the user
     * wrote ({@code lambda$main$0}) or a method reference's target; that method's first line is what
     * messages show. The forwarding call is the first invoke in the method's bytecode. A class that
     * implements the interface itself is its own body.
     */
    private static LambdaDescription describe(Class<?> functionClass, ResolvedJavaMethod entry) {
        ResolvedJavaMethod body = entry;
        if (functionClass.isHidden() && entry.getCode() != null) {
            BytecodeStream stream = new BytecodeStream(entry.getCode());
            for (; stream.currentBCI() < stream.endBCI(); stream.next()) {
                int opcode = stream.currentBC();
                if (opcode >= Bytecodes.INVOKEVIRTUAL && opcode <= Bytecodes.INVOKEINTERFACE) {
                    JavaMethod target = entry.getConstantPool().lookupMethod(stream.readCPI(), opcode, entry);
                    if (target instanceof ResolvedJavaMethod resolved) {
                        body = resolved;
                    }
                    break;
                }
            }
        }
        return new LambdaDescription(entry, body, SourceLocation.of(body, 0));
    }
}
