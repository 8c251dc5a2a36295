package jpai.compiler.phases;

import java.util.Optional;

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
import jpai.compiler.math.FloatArgumentTrig;
import jdk.graal.compiler.core.common.calc.FloatConvert;

/**
 * Computes {@code (float) Math.sin((double) f)} and {@code (float) Math.cos((double) f)} from the
 * {@code float} ({@link FloatArgumentTrig}: a few {@code double} operations and a rounding test, FdLibm
 * only where the test cannot decide) instead of FdLibm's general {@code double} algorithm. Both give
 * results Java allows; on the H100 FdLibm's made a DFT kernel 20 times slower than OpenCL's
 * {@code float} built-ins.
 *
 * <p>Expects: a first inlining round that left the calls of {@code Math.sin}/{@code cos} as calls of
 * {@link FloatArgumentTrig#mathSin}/{@link FloatArgumentTrig#mathCos} ({@link MathAsStrictMathPlugin},
 * {@link KernelInliningPolicy} leaving them). Does: each such call whose argument is a widened
 * {@code float} (or a {@code double} constant that is exactly a {@code float}) and whose value is
 * only rounded to {@code float} (frame states aside) is redirected to
 * {@link FloatArgumentTrig#sinRoundedToFloat}/{@link FloatArgumentTrig#cosRoundedToFloat} (same
 * signature, so nothing else changes); the next inlining round inlines every call. Calls of
 * {@code StrictMath.sin} are never touched: their bits are fixed.
 */
public final class FloatArgumentTrigPhase extends BasePhase<CoreProviders> {

    /** {@code -Djpai.floatArgumentTrig=false}: FdLibm for every {@code sin} and {@code cos} (to measure what this phase saves). */
    public static final String PROPERTY = "jpai.floatArgumentTrig";

    /** Whether kernels compiled now compute {@code float} arguments' sin and cos this way (the default). */
    public static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").strip());
    }

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    /** Whether {@code method} is {@code Math.sin}'s or {@code Math.cos}'s marker. */
    static boolean isMathSinOrCos(ResolvedJavaMethod method) {
        return method != null && method.getDeclaringClass().toJavaName().equals(FloatArgumentTrig.class.getName())
                        && (method.getName().equals("mathSin") || method.getName().equals("mathCos"));
    }

    @Override
    protected void run(StructuredGraph graph, CoreProviders context) {
        ResolvedJavaMethod sin = helper(context, "sinRoundedToFloat");
        ResolvedJavaMethod cos = helper(context, "cosRoundedToFloat");
        for (Node node : graph.getNodes().snapshot()) {
            if (node.isAlive() && node instanceof Invoke invoke && isMathSinOrCos(invoke.getTargetMethod()) && invoke.callTarget().arguments().size() == 1
                            && isWidenedFloat(invoke.callTarget().arguments().get(0)) && onlyRoundedToFloat(invoke.asNode())) {
                invoke.callTarget().setTargetMethod(invoke.getTargetMethod().getName().equals("mathSin") ? sin : cos);
            }
        }
    }

    private static ResolvedJavaMethod helper(CoreProviders context, String name) {
        try {
            return context.getMetaAccess().lookupJavaMethod(FloatArgumentTrig.class.getMethod(name, double.class));
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
