package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.phases.Phase;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.KernelBailoutException;

/**
 * Refuses a function that still calls a method after inlining. OpenCL C has no calls into Java
 * and no recursion, so every call must have been inlined; what is left is recursion (Graal stops
 * inlining a method into itself after a few levels), a native method, or a call Graal could not
 * resolve.
 *
 * <p>Expects: inlining done and exception paths already turned into exits (so that calls on those
 * paths, such as {@code Throwable.fillInStackTrace}, are gone). Does: nothing to the graph; bails
 * out on the first remaining {@link Invoke}, naming the called method and the source line, with
 * "recursion in Foo.bar is not supported on OpenCL" where the callee is already on the inlining
 * path of the call.
 */
public final class RejectRemainingCallsPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        for (Node node : graph.getNodes()) {
            if (node instanceof Invoke invoke) {
                ResolvedJavaMethod target = invoke.getTargetMethod();
                String name = target == null ? "an unresolved method" : target.format("%h.%n");
                if (target != null && isRecursive(node.getNodeSourcePosition(), target)) {
                    throw KernelBailoutException.at(node, "recursion in " + name + " is not supported on OpenCL");
                }
                String why = target != null && target.isNative() ? "it is native" : "it could not be inlined";
                throw KernelBailoutException.at(node, "the call to " + name + " is not supported on OpenCL: " + why);
            }
        }
    }

    private static boolean isRecursive(NodeSourcePosition position, ResolvedJavaMethod target) {
        for (NodeSourcePosition frame = position; frame != null; frame = frame.getCaller()) {
            if (frame.getMethod().equals(target)) {
                return true;
            }
        }
        return false;
    }
}
