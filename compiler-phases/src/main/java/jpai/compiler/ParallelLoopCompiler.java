package jpai.compiler;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.graal.compiler.core.common.PermanentBailoutException;
import jdk.graal.compiler.debug.DebugContext;
import jdk.graal.compiler.java.BytecodeParserOptions;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.StructuredGraph.AllowAssumptions;
import jdk.graal.compiler.options.OptionValues;
import jdk.graal.compiler.phases.common.CanonicalizerPhase;
import jdk.graal.compiler.phases.common.ConditionalEliminationPhase;
import jdk.graal.compiler.phases.common.DeadCodeEliminationPhase;
import jdk.graal.compiler.phases.common.inlining.InliningPhase;
import jdk.graal.compiler.phases.tiers.HighTierContext;
import jdk.graal.compiler.virtual.phases.ea.PartialEscapePhase;
import jdk.vm.ci.meta.Local;
import jdk.vm.ci.meta.LocalVariableTable;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.loops.IndexExits;
import jpai.compiler.loops.IndexedElements;
import jpai.compiler.loops.LoopBound;
import jpai.compiler.loops.MarkedVariable;
import jpai.compiler.loops.ParallelLoop;
import jpai.compiler.loops.ParallelLoops;
import jpai.compiler.loops.ReductionOperator;
import jpai.compiler.loops.ReceiverWrites;
import jpai.compiler.phases.BoxIdentityComparisonsPhase;
import jpai.compiler.phases.CapturedValuesToParametersPhase;
import jpai.compiler.phases.CallsOnConstantReceiversPhase;
import jpai.compiler.phases.CaughtImplicitExceptionsPhase;
import jpai.compiler.phases.CountedLoopIndexStampPhase;
import jpai.compiler.phases.DropFrameStatesPhase;
import jpai.compiler.phases.ExceptionPathsToDeoptimizationPhase;
import jpai.compiler.phases.FloatSqrtPhase;
import jpai.compiler.phases.FloatTranscendentalsPhase;
import jpai.compiler.phases.IndexedParametersToArraysPhase;
import jpai.compiler.phases.KernelInliningPolicy;
import jpai.compiler.phases.LoopCarriedDependencesPhase;
import jpai.compiler.phases.LoopInvariantExitsPhase;
import jpai.compiler.phases.NarrowWidenedComparisonsPhase;
import jpai.compiler.phases.MathCallsToNodesPhase;
import jpai.compiler.phases.MethodParametersToKernelInputsPhase;
import jpai.compiler.phases.ParallelLoopToKernelBodyPhase;
import jpai.compiler.phases.RejectRemainingCallsPhase;
import jpai.compiler.phases.SpeculativeBoundsCheckHoistingPhase;
import jpai.compiler.phases.StaticArraysToParametersPhase;

/**
 * Marawacc's second front end: from an accelerated method (a static or instance method with a
 * {@code @Parallel} loop) to the kernel graph of one iteration, through the same Graal pipeline as
 * {@link KernelGraphCompiler}'s lambdas. The steps, timed in {@link PhaseTimings}:
 *
 * <ol>
 * <li>"parse bytecode", "inline" (with the float-argument rewrite between two rounds, as for a lambda), "calls on constant receivers", "caught implicit exceptions",
 * "box identity comparisons", "exception paths to deoptimization", "math calls", "reject remaining
 * calls", canonicalisation: as for a lambda; before "reject remaining calls", "indexed parameters"
 * ({@link IndexedParametersToArraysPhase}: {@code PArray} parameters become arrays), and for an
 * instance method the check that it writes no field ({@link ReceiverWrites}).</li>
 * <li>"parallel loop": {@link ParallelLoops#find} (the loop of the {@code @Parallel} variable, read
 * from the loop header's frame state, and the checks; with the {@code @Parallel} loops perfectly
 * nested in it, the dimensions of a 2-D or 3-D index space) and {@link ParallelLoopToKernelBodyPhase}
 * (iteration {@code start + k} for element {@code k}, or {@code (start0 + k0, start1 + k1, ...)}).</li>
 * <li>Graal's partial escape analysis and conditional elimination; "drop frame states"; "method
 * parameters" ({@link MethodParametersToKernelInputsPhase}); for an instance method "captured
 * values" ({@link CapturedValuesToParametersPhase}, its receiver's fields); "static arrays" and the
 * performance phases of the lambda pipeline.</li>
 * <li>"loop-carried dependences" ({@link LoopCarriedDependencesPhase}): a check, last, on the
 * optimised body.</li>
 * </ol>
 *
 * The kernel function's arguments are the element's indices ({@code int}, one per loop of a perfect
 * nest of {@code @Parallel} loops, the outermost first; see {@code PerfectNests}); its captures are the method's
 * parameters in order; its result the iteration's contribution to the {@code @Reduce} variable, or
 * none.
 */
public final class ParallelLoopCompiler {

    /** What the runtime needs of a compiled loop besides its graph. */
    /**
     * @param firsts each index's first value, the outermost loop's first: one per dimension of the
     *            index space (1 to 3, a perfect nest of {@code @Parallel} loops)
     * @param limits each index's limit, likewise
     * @param innerNotParallel why a marked inner loop runs sequentially in each work-item, or null
     * @param indexExitLengths the captures whose lengths the index is checked against, the kernel's
     *            only exits ({@link IndexExits}), or null when it may exit otherwise
     */
    public record LoopKernel(KernelGraph graph, List<LoopBound> firsts, List<LoopBound> limits, ReductionOperator reduction, LoopBound reductionInitial, String innerNotParallel,
                    List<Integer> indexExitLengths) {
    }

    private static final int MAX_DISPATCH_ROUNDS = 3;

    private final KernelGraphCompiler lambdas;
    private final GraalAccess graal;

    public ParallelLoopCompiler() {
        this(new KernelGraphCompiler());
    }

    public ParallelLoopCompiler(KernelGraphCompiler lambdas) {
        this.lambdas = lambdas;
        this.graal = GraalAccess.get();
    }

    /** Who {@code body} is, for messages: "Saxpy::saxpy at Saxpy.java:12". No graph is built. */
    public LambdaDescription describe(Method body) {
        ResolvedJavaMethod method = graal.providers().getMetaAccess().lookupJavaMethod(body);
        return new LambdaDescription(method, method, SourceLocation.of(method, 0));
    }

    /**
     * Compiles the parallel loop of {@code body} (the method's original code, static) for arguments
     * of {@code parameterShapes} ({@link ValueShape.Primitive} or {@link ValueShape.PrimitiveArray}).
     *
     * @param parallel the {@code @Parallel} variables (the outermost loop among them is the kernel's)
     * @param reduce the {@code @Reduce} variable, or null
     * @param reassociate whether a floating-point sum or product of {@code reduce} may be combined in any association
     * @throws KernelBailoutException if it cannot become a kernel; the message says why and where
     * @throws LoopCarriedDependencesPhase.LoopCarriedDependenceException if the compiler sees iterations depend on each other
     */
    public LoopKernel compile(Method body, List<ValueShape> parameterShapes, List<MarkedVariable> parallel, MarkedVariable reduce, boolean reassociate) {
        return compile(body, parameterShapes, Map.of(), List.of(), parallel, reduce, reassociate, Speculations.WITHOUT_PROFILE);
    }

    /**
     * As {@link #compile(Method, List, List, MarkedVariable, boolean)}, where the parameters of
     * {@code indexed}'s indices are objects that give their elements by index (the runtime's
     * {@code PArray}), each of {@code parameterShapes}' {@link ValueShape.PrimitiveArray} shape there:
     * on the device each is a buffer, as a primitive array is ({@link IndexedParametersToArraysPhase}).
     *
     * <p>An instance method's receiver plays a lambda's functional object: {@code receiverFields}
     * are the values read through its fields ({@link CapturedValue#throughFields} or a field of its
     * own, as a lambda's captured objects), which become the kernel's captures after the
     * parameters' ({@link CapturedValuesToParametersPhase}). The graph's parameter {@code 0} is then
     * the receiver and parameter {@code k + 1} the method's {@code k}: the loop bounds
     * ({@link LoopBound}) count the receiver as argument 0, as the runtime's argument arrays do. A
     * write to a field of the receiver, or into an array read from a field, is refused.
     *
     * <p>Makes only the {@code speculations} given (those from HotSpot's profile are never made for a
     * method yet).
     *
     * @param indexed by the method's parameter index (0 is its first declared parameter)
     */
    public LoopKernel compile(Method body, List<ValueShape> parameterShapes, Map<Integer, IndexedElements> indexed, List<CapturedValue> receiverFields, List<MarkedVariable> parallel,
                    MarkedVariable reduce, boolean reassociate, Speculations speculations) {
        return compile(body, parameterShapes, indexed, receiverFields, parallel, reduce, reassociate, speculations, false);
    }

    /**
     * As {@link #compile(Method, List, Map, List, List, MarkedVariable, boolean, Speculations)};
     * with {@code trustIndexChecks}, the kernel for launches whose extent the runtime has checked
     * against every length in {@link LoopKernel#indexExitLengths()}: those checks removed
     * ({@link IndexExits#removeChecks}), so it has none of the exits they were (its
     * {@code indexExitLengths} are then empty). The checks cost more than the memory traffic in a
     * kernel as small as saxpy on PoCL, whose vectoriser gives up on them (2x the unchecked
     * kernel's time at 2^20 elements).
     */
    public LoopKernel compile(Method body, List<ValueShape> parameterShapes, Map<Integer, IndexedElements> indexed, List<CapturedValue> receiverFields, List<MarkedVariable> parallel,
                    MarkedVariable reduce, boolean reassociate, Speculations speculations, boolean trustIndexChecks) {
        ResolvedJavaMethod method = graal.providers().getMetaAccess().lookupJavaMethod(body);
        LambdaDescription description = new LambdaDescription(method, method, SourceLocation.of(method, 0));
        int firstParameter = method.isStatic() ? 0 : 1;
        Map<Integer, IndexedElements> indexedNodes = new HashMap<>();
        indexed.forEach((k, elements) -> indexedNodes.put(k + firstParameter, elements));
        PhaseTimings timings = new PhaseTimings();
        DebugContext debug = graal.newDebugContext(description.identifier());
        try (DebugContext.Scope scope = debug.scope("JPAI", description.identifier())) {
            OptionValues options = new OptionValues(graal.options(), BytecodeParserOptions.InlineDuringParsing, false);
            StructuredGraph graph = new StructuredGraph.Builder(options, debug, AllowAssumptions.NO).method(method).name(description.identifier()).trackNodeSourcePosition(true).build();
            HighTierContext context = lambdas.highTierContext();
            CanonicalizerPhase canonicalizer = CanonicalizerPhase.create();
            lambdas.initializeJdkClasses();
            KernelGraphCompiler.injectedFailure(description);

            KernelGraphCompiler.run("parse bytecode", timings, () -> context.getGraphBuilderSuite(), graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after parsing");
            Set<ResolvedJavaMethod> kept = IndexedParametersToArraysPhase.keptCalls(indexedNodes, graal.providers().getMetaAccess());
            lambdas.inline(graph, context, canonicalizer, kept, timings);
            for (int round = 0; round < MAX_DISPATCH_ROUNDS && CallsOnConstantReceiversPhase.appliesTo(graph, context); round++) {
                KernelGraphCompiler.run("calls on constant receivers", timings, CallsOnConstantReceiversPhase::new, graph, context);
                KernelGraphCompiler.run("inline", timings, () -> new InliningPhase(new KernelInliningPolicy(kept), canonicalizer), graph, context);
            }
            KernelGraphCompiler.run("caught implicit exceptions", timings, CaughtImplicitExceptionsPhase::new, graph, context);
            KernelGraphCompiler.run("box identity comparisons", timings, BoxIdentityComparisonsPhase::new, graph, context);
            KernelGraphCompiler.run("exception paths to deoptimization", timings, ExceptionPathsToDeoptimizationPhase::new, graph, context);
            KernelGraphCompiler.run("math calls", timings, MathCallsToNodesPhase::new, graph, context);
            if (!indexedNodes.isEmpty()) {
                Map<Integer, String> names = new HashMap<>();
                for (int k : indexed.keySet()) {
                    names.put(k + firstParameter, parameterName(method, k));
                }
                KernelGraphCompiler.run("indexed parameters", timings, () -> new IndexedParametersToArraysPhase(indexedNodes, names), graph, context);
            }
            KernelGraphCompiler.run("reject remaining calls", timings, RejectRemainingCallsPhase::new, graph, context);
            KernelGraphCompiler.run("canonicalize", timings, () -> canonicalizer, graph, context);

            if (firstParameter == 1) {
                ReceiverWrites.refuse(graph);
            }
            ParallelLoop loop = ParallelLoops.find(graph, parallel, reduce, reassociate);
            List<CapturedValue> captures = new ArrayList<>();
            for (int k = 0; k < parameterShapes.size(); k++) {
                captures.add(CapturedValue.ofMethodParameter(k, parameterName(method, k), parameterShapes.get(k)));
            }
            captures.addAll(receiverFields);
            ValueShape result = loop.reduction() == null ? null : new ValueShape.BoxedPrimitive(loop.reduction().phi().getStackKind());
            List<ValueShape> indices = new ArrayList<>();
            for (int d = 0; d < loop.dimensions().size(); d++) {
                indices.add(new ValueShape.BoxedPrimitive(jdk.vm.ci.meta.JavaKind.Int));
            }
            KernelSignature signature = new KernelSignature(indices, result, captures);
            KernelInputs inputs = new KernelInputs(signature);
            KernelGraphCompiler.run("parallel loop", timings, () -> new ParallelLoopToKernelBodyPhase(loop, inputs, canonicalizer), graph, context);
            KernelGraphCompiler.run("partial escape analysis", timings, () -> new PartialEscapePhase(true, canonicalizer, graal.options()), graph, context);
            KernelGraphCompiler.run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after Graal high tier");

            KernelGraphCompiler.run("drop frame states", timings, DropFrameStatesPhase::new, graph, context);
            KernelGraphCompiler.run("method parameters", timings, () -> new MethodParametersToKernelInputsPhase(signature, inputs, canonicalizer, firstParameter), graph, context);
            if (firstParameter == 1) {
                KernelGraphCompiler.run("captured values", timings, () -> new CapturedValuesToParametersPhase(canonicalizer, signature, inputs, description, "the method"), graph, context);
            }
            KernelGraphCompiler.run("static arrays", timings, () -> new StaticArraysToParametersPhase(inputs), graph, context);
            KernelGraphCompiler.run("float sqrt", timings, FloatSqrtPhase::new, graph, context);
            if (lambdas.math() == MathFunctions.OPENCL_BUILTINS && KernelGraphCompiler.floatTranscendentals()) {
                KernelGraphCompiler.run("float transcendentals", timings, FloatTranscendentalsPhase::new, graph, context);
            }
            KernelGraphCompiler.run("loop-invariant exits", timings, () -> new LoopInvariantExitsPhase(canonicalizer, speculations.allows(Speculation.HOISTED_LOOP_EXITS)), graph, context);
            KernelGraphCompiler.run("counted loop index stamps", timings, () -> new CountedLoopIndexStampPhase(canonicalizer), graph, context);
            KernelGraphCompiler.run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            if (speculations.allows(Speculation.HOISTED_BOUNDS_CHECKS)) {
                KernelGraphCompiler.run("speculative bounds check hoisting", timings, () -> new SpeculativeBoundsCheckHoistingPhase(canonicalizer), graph, context);
            }
            KernelGraphCompiler.run("conditional elimination", timings, () -> new ConditionalEliminationPhase(canonicalizer, false), graph, context);
            // as for lambdas: loop tests in 32 bits where both sides are widened ints (NVIDIA's compiler unrolls only those)
            KernelGraphCompiler.run("narrow widened comparisons", timings, () -> new NarrowWidenedComparisonsPhase(canonicalizer), graph, context);
            KernelGraphCompiler.run("dead code elimination", timings, DeadCodeEliminationPhase::new, graph, context);
            KernelGraphCompiler.run("loop-carried dependences", timings, () -> new LoopCarriedDependencesPhase(inputs), graph, context);
            debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after kernel phases");
            List<LoopBound> firsts = new ArrayList<>();
            List<LoopBound> limits = new ArrayList<>();
            for (ParallelLoop dimension : loop.dimensions()) {
                firsts.add(dimension.first());
                limits.add(dimension.limit());
            }
            List<Integer> indexExitLengths = IndexExits.of(graph, inputs, firsts);
            if (trustIndexChecks) {
                if (indexExitLengths == null) {
                    throw new IllegalArgumentException(description.displayName() + " may exit otherwise than by its index checks: no kernel trusts them");
                }
                int removed = IndexExits.removeChecks(graph, inputs, canonicalizer, context);
                debug.dump(DebugContext.BASIC_LEVEL, graph, "JPAI after removing " + removed + " index checks the launch made");
                indexExitLengths = IndexExits.of(graph, inputs, firsts);
            }
            KernelGraph kernel = new KernelGraph(graph, description, signature, timings, inputs);
            return new LoopKernel(kernel, List.copyOf(firsts), List.copyOf(limits), loop.reduction() == null ? null : loop.reduction().operator(),
                            loop.reduction() == null ? null : loop.reduction().initial(), loop.innerNotParallel(), indexExitLengths);
        } catch (KernelBailoutException | LoopCarriedDependencesPhase.LoopCarriedDependenceException e) {
            throw e;
        } catch (PermanentBailoutException e) {
            throw new KernelBailoutException("Graal gave up on it: " + e.getMessage(), description.location(), e);
        } catch (Throwable e) {
            throw KernelBailoutException.internalError(e.toString(), description.location(), e);
        }
    }

    /** The parameter's name from the local variable table (javac -g), else {@code argument k}. */
    private static String parameterName(ResolvedJavaMethod method, int k) {
        LocalVariableTable table = method.getLocalVariableTable();
        int slot = method.isStatic() ? 0 : 1;
        for (int i = 0; i < k; i++) {
            slot += method.getSignature().getParameterKind(i).getSlotCount();
        }
        Local local = table == null ? null : table.getLocal(slot, 0);
        return local != null ? local.getName() : "argument " + k;
    }
}
