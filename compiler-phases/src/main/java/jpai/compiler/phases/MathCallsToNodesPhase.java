package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.InvokeNode;
import jdk.graal.compiler.nodes.InvokeWithExceptionNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.nodes.MathCallNode;

/**
 * Replaces calls of the {@code Math} functions listed in {@link #FUNCTIONS} with
 * {@link MathCallNode}s, when kernels compute {@code Math} with OpenCL's built-ins
 * ({@code -Djpai.math=opencl}; by default {@link MathAsStrictMathPlugin} has made them calls of
 * {@code StrictMath}, inlined, and there are none left). {@code Math} allows 1 ulp of error (and these delegate to FdLibm ports
 * with lookup tables); the device's built-ins of the same name do the job within the OpenCL
 * specification's error bounds. {@code StrictMath} is not among them: its results are defined bit
 * for bit (FdLibm's), so its Java implementation is inlined and compiled like user code.
 *
 * <p>Expects: inlining done with {@link #keepsAsCall(ResolvedJavaMethod)} respected (so the calls are
 * still {@link Invoke}s), and exception paths already turned into exits (these functions throw
 * nothing). Does: replaces each such invoke by a floating {@link MathCallNode} of its arguments,
 * dropping its exception edge.
 */
public final class MathCallsToNodesPhase extends BasePhase<CoreProviders> {

    /** Function name → number of {@code double} parameters. */
    public static final Map<String, Integer> FUNCTIONS = Map.ofEntries(Map.entry("asin", 1), Map.entry("acos", 1), Map.entry("atan", 1), Map.entry("atan2", 2),
                    Map.entry("sinh", 1), Map.entry("cosh", 1), Map.entry("tanh", 1), Map.entry("hypot", 2), Map.entry("log1p", 1), Map.entry("expm1", 1),
                    Map.entry("sin", 1), Map.entry("cos", 1), Map.entry("tan", 1), Map.entry("exp", 1), Map.entry("log", 1), Map.entry("log10", 1),
                    Map.entry("cbrt", 1), Map.entry("pow", 2));

    /** The float-argument fast paths' {@code double} built-ins ({@code jpai.compiler.math.DeviceDoubleMath}): always the device's. */
    private static final String DEVICE_DOUBLE_MATH = jpai.compiler.math.DeviceDoubleMath.class.getName();

    /**
     * True for a {@code double} function of {@code java.lang.Math} (not {@code StrictMath}) in
     * {@link #FUNCTIONS}, or of {@code DeviceDoubleMath}: the inliner must leave such a call alone. ({@code Math.sin} and the other
     * functions Graal intrinsifies never reach the inliner.)
     */
    public static boolean keepsAsCall(ResolvedJavaMethod method) {
        if (method.getDeclaringClass().toJavaName().equals(DEVICE_DOUBLE_MATH)) {
            return method.getName().equals("exp") || method.getName().equals("log");
        }
        return isMathFunction(method);
    }

    /** True for a {@code double} function of {@code java.lang.Math} (not {@code StrictMath}) in {@link #FUNCTIONS}. */
    public static boolean isMathFunction(ResolvedJavaMethod method) {
        if (!method.getDeclaringClass().toJavaName().equals("java.lang.Math")) {
            return false;
        }
        Integer arity = FUNCTIONS.get(method.getName());
        return arity != null && method.getSignature().getParameterCount(false) == arity && method.getSignature().toMethodDescriptor().equals("(" + "D".repeat(arity) + ")D");
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (Node node : graph.getNodes().snapshot()) {
            if (node.isAlive() && node instanceof Invoke invoke && invoke.getTargetMethod() != null && keepsAsCall(invoke.getTargetMethod())) {
                List<ValueNode> arguments = new ArrayList<>(invoke.callTarget().arguments());
                String function = invoke.getTargetMethod().getName();
                InvokeNode plain = invoke instanceof InvokeWithExceptionNode withException ? withException.replaceWithInvoke() : (InvokeNode) invoke;
                MathCallNode call = graph.addWithoutUnique(new MathCallNode(function, arguments));
                call.setNodeSourcePosition(plain.getNodeSourcePosition());
                graph.replaceFixedWithFloating(plain, call);
            }
        }
    }

}
