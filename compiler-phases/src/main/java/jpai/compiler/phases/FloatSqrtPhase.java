package jpai.compiler.phases;

import java.util.Optional;

import jdk.graal.compiler.core.common.calc.FloatConvert;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.FloatConvertNode;
import jdk.graal.compiler.nodes.calc.SqrtNode;
import jdk.graal.compiler.phases.Phase;

/**
 * Computes {@code (float) Math.sqrt(x)} of a {@code float x} as a {@code float} square root. Exact,
 * not an approximation: a {@code double} has more than twice the bits of a {@code float}, so the
 * correctly rounded {@code double} square root of a {@code float}, rounded to {@code float}, is the
 * correctly rounded {@code float} square root (no double-rounding error), which OpenCL gives under
 * {@code -cl-fp32-correctly-rounded-divide-sqrt}.
 *
 * <p>Expects: Graal's intrinsic {@link SqrtNode} (for {@code Math.sqrt} and {@code StrictMath.sqrt}).
 * Does: replaces each {@code D2F(sqrt(F2D(x)))} by {@code sqrt(x)} in {@code float}; the
 * {@code double} nodes left without usages are removed by dead code elimination.
 */
public final class FloatSqrtPhase extends Phase {

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        for (FloatConvertNode narrow : graph.getNodes().filter(FloatConvertNode.class).snapshot()) {
            if (narrow.isAlive() && narrow.getFloatConvert() == FloatConvert.D2F && narrow.getValue() instanceof SqrtNode sqrt
                            && sqrt.getValue() instanceof FloatConvertNode widen && widen.getFloatConvert() == FloatConvert.F2D) {
                ValueNode floatSqrt = graph.addOrUniqueWithInputs(SqrtNode.create(widen.getValue(), NodeView.DEFAULT));
                narrow.replaceAtUsagesAndDelete(floatSqrt);
            }
        }
    }
}
