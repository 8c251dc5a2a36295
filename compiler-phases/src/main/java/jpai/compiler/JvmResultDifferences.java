package jpai.compiler;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.graph.NodeSourcePosition;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.nodes.MathCallNode;
import jpai.compiler.phases.MathCallsToNodesPhase;

/**
 * Whether a kernel graph computes, for every element, the very bits the JVM running the same
 * function computes, or only results Java allows. The two differ where Java leaves the result open:
 * {@code Math.sin} and the other transcendental functions may give any result within their ulp
 * bound, and HotSpot computes several of them with its own intrinsics, whose bits need not be
 * FdLibm's ({@code StrictMath}'s), which is what a kernel computes by default; OpenCL's built-ins
 * ({@code -Djpai.math=opencl}) differ more. The runtime mixes the results of a kernel and of Java
 * threads in one array (tiering's takeover) only when this finds no difference, so that no array
 * ever holds results of two roundings.
 *
 * <p>Conservative: every node that came from one of {@code StrictMath}'s transcendental functions
 * counts, also where the user called {@code StrictMath} (whose bits HotSpot keeps: the graph no
 * longer says which of the two the bytecode named), and also a function HotSpot does not
 * intrinsify on this machine (whose {@code Math} version calls {@code StrictMath}'s).
 */
public final class JvmResultDifferences {

    private JvmResultDifferences() {
    }

    /**
     * Why {@code kernel}'s results may differ from the JVM's for some element, as a clause ("it
     * computes StrictMath.sin, ..."), or null when every operation in it is one whose bits Java
     * defines. Needs the graph's node source positions (the kernel compiler tracks them).
     */
    public static String of(KernelGraph kernel) {
        StructuredGraph graph = kernel.graph();
        for (Node node : graph.getNodes()) {
            if (node instanceof MathCallNode call && !behindRoundingTest(call)) {
                return "it computes Math." + call.function() + " with OpenCL's built-in, whose bits are not the JVM's";
            }
            if (node.getClass().getSimpleName().contains("MathIntrinsic")) {
                return "it computes a Math function with a Graal intrinsic (" + node + "), whose bits need not be the JVM's";
            }
            for (NodeSourcePosition position = node.getNodeSourcePosition(); position != null; position = position.getCaller()) {
                String function = transcendental(position.getMethod());
                if (function != null) {
                    return "it computes " + function + " as StrictMath does (FdLibm), and the JVM's Math." + function + " may round it otherwise (Java allows either)";
                }
            }
        }
        return null;
    }

    /**
     * Whether {@code call} is a float-argument function's approximation from the device's
     * {@code double} built-in ({@code MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG}): only its rounding test
     * reads it, which decides {@code StrictMath}'s float or leaves the element to FdLibm, so the
     * built-in's own bits never reach a result (FdLibm's code beside it is what this class reports).
     */
    private static boolean behindRoundingTest(MathCallNode call) {
        for (NodeSourcePosition position = call.getNodeSourcePosition(); position != null; position = position.getCaller()) {
            if (position.getMethod() != null && position.getMethod().getDeclaringClass().toJavaName().equals(jpai.compiler.math.FloatArgumentExpLog.class.getName())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The name of a transcendental function ({@link MathCallsToNodesPhase#FUNCTIONS}) when
     * {@code method} is {@code StrictMath}'s, else null. Not {@code StrictMath.floor} and the like,
     * whose bits Java defines. FdLibm's helpers are found through their caller, StrictMath.
     */
    private static String transcendental(ResolvedJavaMethod method) {
        if (method == null || !method.getDeclaringClass().toJavaName().equals("java.lang.StrictMath")) {
            return null;
        }
        return MathCallsToNodesPhase.FUNCTIONS.containsKey(method.getName()) ? method.getName() : null;
    }
}
