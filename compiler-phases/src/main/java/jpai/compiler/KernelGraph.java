package jpai.compiler;

import jdk.graal.compiler.nodes.StructuredGraph;
import jpai.compiler.plugin.PhasePlugins;

/**
 * A function's optimised Graal graph, ready for a backend.
 *
 * <ul>
 * <li>Inputs: the parameter nodes listed in {@link #inputs()}, bare primitives (captured arrays are
 * non-null arrays of exact type, with their length as a separate {@code int} parameter). No other
 * parameter node is used (the receiver and the object arguments are gone).</li>
 * <li>Result: every {@code ReturnNode} returns a bare primitive (a {@link ValueShape.BoxedPrimitive}
 * result) or a {@link jpai.compiler.nodes.TupleValueNode} of bare primitives (a
 * {@link ValueShape.Tuple} result).</li>
 * <li>Java exception paths: {@code DeoptimizeNode}s and {@code FixedGuardNode}s whose
 * {@code DeoptimizationReason} says which Java exception the path would have thrown
 * (see {@link jpai.compiler.phases.ExceptionPathsToDeoptimizationPhase}).</li>
 * <li>No frame states, no calls: every remaining node is one a backend must translate or refuse.</li>
 * </ul>
 *
 * @param graph the graph after Graal's and our phases
 * @param lambda who the graph comes from, for messages
 * @param signature the runtime's promises the graph was specialised to
 * @param timings how long building and each phase took
 * @param inputs which parameter node is which kernel input
 * @param plugins the researchers' phase plugins that ran on the graph ({@link PhasePlugins#NONE} for none)
 */
public record KernelGraph(StructuredGraph graph, LambdaDescription lambda, KernelSignature signature, PhaseTimings timings, KernelInputs inputs, PhasePlugins plugins) {

    /** A graph no phase plugin ran on. */
    public KernelGraph(StructuredGraph graph, LambdaDescription lambda, KernelSignature signature, PhaseTimings timings, KernelInputs inputs) {
        this(graph, lambda, signature, timings, inputs, PhasePlugins.NONE);
    }

    /** The values the kernel reads besides its arguments, in slot order: the signature's captures, then the static arrays the compiler found. */
    public java.util.List<CapturedValue> captures() {
        return inputs.captures();
    }
}
