package jpai.compiler.phases;

import java.util.Map;
import java.util.Optional;

import jdk.graal.compiler.core.common.calc.FloatConvert;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.FrameState;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.FloatConvertNode;
import jdk.graal.compiler.nodes.spi.CoreProviders;
import jdk.graal.compiler.phases.BasePhase;
import jdk.vm.ci.meta.JavaKind;
import jdk.vm.ci.meta.ResolvedJavaMethod;
import jpai.compiler.math.FloatArgumentExpLog;
import jpai.compiler.math.FloatArgumentMath;
import jpai.compiler.math.FloatArgumentTrig;

/**
 * Computes {@code (float) Math.f((double) x)} of a {@code float} {@code x}, for {@code f} one of
 * {@code sin}, {@code cos}, {@code exp} and {@code log}, from the {@code float}
 * ({@link FloatArgumentTrig}, {@link FloatArgumentExpLog}: a few {@code double} operations and a
 * rounding test, FdLibm only where the test cannot decide) instead of FdLibm's general
 * {@code double} algorithm. Both give results Java allows (for every {@code float} of the fast
 * ranges, checked: {@code (float) StrictMath}'s bits). On the H100 FdLibm made a DFT kernel 20 times
 * slower than OpenCL's {@code float} built-ins, and Black-Scholes' 2.6 times.
 *
 * <p>Expects: a first inlining round that left the calls of those {@code Math} functions as calls of
 * their markers ({@link FloatArgumentMath#mathSin}, ...: {@link MathAsStrictMathPlugin} reads
 * {@code Math.f} so, {@link KernelInliningPolicy} left them). Does: each marker call whose argument
 * is a widened {@code float} (or a {@code double} constant that is exactly a {@code float}) and whose
 * value is only rounded to {@code float} (frame states aside) is redirected to its
 * {@code ...RoundedToFloat} method (same signature, so nothing else changes); the next inlining
 * round inlines every call, markers included (they call {@code StrictMath}). Calls of
 * {@code StrictMath.f} are never touched: their bits are fixed.
 */
public final class FloatArgumentMathPhase extends BasePhase<CoreProviders> {

    /**
     * {@code -Djpai.floatArgumentMath=true} turns this phase on; read when a kernel compiles. Off by
     * default until measured on a GPU: on PoCL (a CPU device) Black-Scholes' exact kernel (five exp and
     * a log per element) took 10.5-12.7 ms with it against 5.7-9.2 ms with FdLibm alone, DFT's (sin and
     * cos) 32 ms against 43 ms (session 17, docs/java-semantics.md).
     */
    public static final String PROPERTY = "jpai.floatArgumentMath";

    /** Marker ({@link FloatArgumentMath}'s class and method) → its rewrite (a method of the same class). */
    private static final Map<String, String> REWRITES = Map.of(
                    key("mathSin"), "sinRoundedToFloat", key("mathCos"), "cosRoundedToFloat", key("mathExp"), "expRoundedToFloat", key("mathLog"), "logRoundedToFloat");

    /** Whether kernels compiled now compute these functions of {@code float}s this way ({@link #PROPERTY}). */
    public static boolean enabled() {
        return "true".equalsIgnoreCase(System.getProperty(PROPERTY, "false").strip());
    }

    private static String key(String marker) {
        return FloatArgumentMath.class.getName() + "." + marker;
    }

    private static String key(ResolvedJavaMethod method) {
        return method.getDeclaringClass().toJavaName() + "." + method.getName();
    }

    /** Whether {@code method} is the marker of one of the {@code Math} functions this phase rewrites. */
    static boolean isMarker(ResolvedJavaMethod method) {
        return method != null && REWRITES.containsKey(key(method));
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        for (Node node : graph.getNodes().snapshot()) {
            if (node.isAlive() && node instanceof Invoke invoke && isMarker(invoke.getTargetMethod()) && invoke.callTarget().arguments().size() == 1
                            && isWidenedFloat(invoke.callTarget().arguments().get(0)) && onlyRoundedToFloat(invoke.asNode())) {
                invoke.callTarget().setTargetMethod(method(context, REWRITES.get(key(invoke.getTargetMethod()))));
            }
        }
    }

    private static ResolvedJavaMethod method(CoreProviders context, String name) {
        try {
            return context.getMetaAccess().lookupJavaMethod(FloatArgumentMath.class.getMethod(name, double.class));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isWidenedFloat(ValueNode value) {
        if (value instanceof FloatConvertNode widen) {
            return widen.getFloatConvert() == FloatConvert.F2D;
        }
        if (value instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.asJavaConstant().getJavaKind() == JavaKind.Double) {
            double d = constant.asJavaConstant().asDouble();
            return Double.doubleToRawLongBits((float) d) == Double.doubleToRawLongBits(d);
        }
        return false;
    }

    /** Every use of the call's value rounds it to {@code float} (a frame state holds it too: the interpreter would round it next). */
    private static boolean onlyRoundedToFloat(ValueNode call) {
        boolean rounded = false;
        for (Node usage : call.usages()) {
            if (usage instanceof FloatConvertNode convert && convert.getFloatConvert() == FloatConvert.D2F) {
                rounded = true;
            } else if (!(usage instanceof FrameState)) {
                return false;
            }
        }
        return rounded;
    }
}
