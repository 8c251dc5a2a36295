package jpai.compiler.phases;

import java.util.HashMap;
import java.util.Map;

import jpai.compiler.math.FloatArgumentMath;

import jdk.graal.compiler.nodes.CallTargetNode.InvokeKind;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.graphbuilderconf.GraphBuilderContext;
import jdk.graal.compiler.nodes.graphbuilderconf.NodePlugin;
import jdk.vm.ci.meta.MetaAccessProvider;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jdk.vm.ci.meta.ResolvedJavaType;

/**
 * A parser plugin that reads a call of one of {@code Math}'s transcendental functions
 * ({@link MathCallsToNodesPhase#keepsAsCall}: {@code sin}, {@code exp}, {@code pow}, ...) as a call of
 * the {@code StrictMath} function of the same name, which the inliner then replaces with its Java
 * implementation (FdLibm). Why: Graal's own plugins would turn {@code Math.sin} into an intrinsic
 * node, which the backend can only emit as OpenCL's {@code sin}, whose error bound (4 ulps) is wider
 * than {@code Math}'s (1 ulp); {@code StrictMath.sin} is within {@code Math}'s bound by the JDK's own
 * definition ({@code Math.sin}'s Java body is that call). Node plugins run before invocation plugins,
 * so this wins over the intrinsic.
 *
 * <p>Installed in the parser configuration only when kernels compute {@code Math} the Java way
 * ({@code MathFunctions.JAVA}); it applies to every method the inliner parses, not only the lambda.
 */
public final class MathAsStrictMathPlugin implements NodePlugin {

    private final ResolvedJavaType strictMath;

    /**
     * {@code sin}, {@code cos}, {@code exp} and {@code log} go through markers of their own (which call
     * StrictMath's), so that the float-argument rewrite ({@link FloatArgumentMathPhase}) can find them.
     */
    private final Map<String, ResolvedJavaMethod> markers = new HashMap<>();

    public MathAsStrictMathPlugin(MetaAccessProvider metaAccess) {
        this.strictMath = metaAccess.lookupJavaType(StrictMath.class);
        try {
            for (String function : new String[] {"sin", "cos", "exp", "log"}) {
                String marker = "math" + Character.toUpperCase(function.charAt(0)) + function.substring(1);
                markers.put(function, metaAccess.lookupJavaMethod(FloatArgumentMath.class.getMethod(marker, double.class)));
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean handleInvoke(GraphBuilderContext b, ResolvedJavaMethod method, ValueNode[] args) {
        if (!MathCallsToNodesPhase.isMathFunction(method)) {
            return false;
        }
        ResolvedJavaMethod marker = markers.get(method.getName());
        ResolvedJavaMethod strict = marker != null ? marker : strictMath.findMethod(method.getName(), method.getSignature());
        if (strict == null) {
            return false; // another JDK without the StrictMath twin: Graal's usual handling
        }
        b.handleReplacedInvoke(InvokeKind.Static, strict, args, false);
        return true;
    }
}
