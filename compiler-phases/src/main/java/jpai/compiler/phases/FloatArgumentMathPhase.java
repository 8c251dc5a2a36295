package jpai.compiler.phases;

import java.util.HashMap;
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
import jdk.vm.ci.code.Architecture;
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
 * ranges, checked: {@code (float) StrictMath}'s bits). Runs with {@code MathFunctions.JAVA_FLOAT_ARGUMENTS}
 * (the default on a GPU): on the H100 DFT's exact kernel takes 1.45 ms with it against 4.93 ms with
 * FdLibm alone (0.23 ms with OpenCL's {@code float} built-ins), Black-Scholes' 0.103 against 0.109 ms.
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

    /** Marker ({@link FloatArgumentMath}'s class and method) → its rewrite (a method of the same class). */
    private static final Map<String, String> REWRITES = Map.of(
                    key("mathSin"), "sinRoundedToFloat", key("mathCos"), "cosRoundedToFloat", key("mathExp"), "expRoundedToFloat", key("mathLog"), "logRoundedToFloat");

    /** {@link #REWRITES} with exp's and log's approximations from the device's {@code double} built-ins ({@code MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG}). */
    private static final Map<String, String> DEVICE_EXP_LOG_REWRITES = withDeviceExpLog();

    private static Map<String, String> withDeviceExpLog() {
        Map<String, String> rewrites = new HashMap<>(REWRITES);
        rewrites.put(key("mathExp"), "expRoundedToFloatFromDevice");
        rewrites.put(key("mathLog"), "logRoundedToFloatFromDevice");
        return Map.copyOf(rewrites);
    }

    private final Map<String, String> rewrites;

    /** The rewrites of {@code MathFunctions.JAVA_FLOAT_ARGUMENTS}. */
    public FloatArgumentMathPhase() {
        this(false);
    }

    /** @param deviceExpLog exp's and log's approximations from the device's {@code double} built-ins ({@code MathFunctions.JAVA_FLOAT_DEVICE_EXP_LOG}) */
    public FloatArgumentMathPhase(boolean deviceExpLog) {
        this.rewrites = deviceExpLog ? DEVICE_EXP_LOG_REWRITES : REWRITES;
    }

    /**
     * Whether this phase may run for a host: one whose compiler reads {@code Math.fma} as one node
     * (the float-argument functions' polynomials are written with it; without the intrinsic its Java
     * code, with {@code BigDecimal}, would keep every such kernel off the device). Graal intrinsifies
     * it on AArch64 and on AMD64 with FMA.
     */
    public static boolean supportedOn(Architecture host) {
        return !host.getName().equals("AMD64") || host.getFeatures().stream().anyMatch(feature -> feature.nameEquals("FMA"));
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
                invoke.callTarget().setTargetMethod(method(context, rewrites.get(key(invoke.getTargetMethod()))));
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
