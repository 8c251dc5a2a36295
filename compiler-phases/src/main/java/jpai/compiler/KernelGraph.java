package jpai.compiler;

import jdk.graal.compiler.nodes.StructuredGraph;

/**
 * A function's optimised Graal graph, ready for a backend: the arguments are bare primitives (or
 * what their {@link ValueShape} says), the result likewise, and every remaining node is one a
 * backend must translate or refuse.
 *
 * @param graph the graph after Graal's and our phases
 * @param lambda who the graph comes from, for messages
 * @param signature the runtime's promises the graph was specialised to
 * @param timings how long building and each phase took
 */
public record KernelGraph(StructuredGraph graph, LambdaDescription lambda, KernelSignature signature, PhaseTimings timings) {
}
