package jpai.compiler.phases;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jdk.graal.compiler.core.common.calc.FloatConvert;
import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.GraphState;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValueNode;
import jdk.graal.compiler.nodes.calc.FloatConvertNode;
import jdk.graal.compiler.phases.Phase;
import jdk.graal.compiler.replacements.nodes.BinaryMathIntrinsicNode;
import jdk.graal.compiler.replacements.nodes.UnaryMathIntrinsicNode;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.nodes.MathCallNode;

/**
 * Computes {@code (float) Math.f(x)} of {@code float} arguments with the {@code float} built-in
 * {@code f} instead of converting to {@code double}, calling the {@code double} built-in and rounding
 * back. Not exact: the {@code float} built-in is within OpenCL's {@code float} bound of the exact
 * value, and Java's {@code (float) Math.f(x)} within half a {@code float} ulp plus Java's
 * {@code double} bound, so the two differ by at most the sum listed per function in
 * {@link #FLOAT_ULPS_VS_JAVA} (the "float, vs Java" column of docs/java-semantics.md, the one place
 * tolerances are stated). Only the functions listed there are rewritten; the runtime turns the phase
 * off with {@code -Djpai.floatmath=false} (then a {@code float} result is within 1 ulp of Java's).
 *
 * <p>Expects: the {@code Math} functions as Graal's {@link UnaryMathIntrinsicNode}s,
 * {@link BinaryMathIntrinsicNode}s ({@code pow}) or our {@link MathCallNode}s, of {@code double}s.
 * Does: where every argument is {@code F2D} of a {@code float} (or a {@code double} constant that is
 * exactly a {@code float}) and every usage of the call is a {@code D2F}, replaces those {@code D2F}s
 * by one {@code float} {@link MathCallNode} of the same function; the {@code double} nodes left
 * without usages are removed by dead code elimination.
 */
public final class FloatTranscendentalsPhase extends Phase {

    /**
     * Function → bound, in {@code float} ulps, of the distance between the {@code float} built-in's
     * result and Java's {@code (float) Math.f(x)}: the OpenCL 1.2 full-profile {@code float} bound
     * (section 7.4) plus 1 (Java's rounding to {@code float}, half an ulp, plus Java's {@code double}
     * error, a tiny fraction of a {@code float} ulp, rounded up). Mirrors docs/java-semantics.md.
     */
    public static final Map<String, Integer> FLOAT_ULPS_VS_JAVA = Map.ofEntries(
                    Map.entry("sin", 4 + 1), Map.entry("cos", 4 + 1), Map.entry("tan", 5 + 1),
                    Map.entry("asin", 4 + 1), Map.entry("acos", 4 + 1), Map.entry("atan", 5 + 1), Map.entry("atan2", 6 + 1),
                    Map.entry("sinh", 4 + 1), Map.entry("cosh", 4 + 1), Map.entry("tanh", 5 + 1),
                    Map.entry("exp", 3 + 1), Map.entry("expm1", 3 + 1), Map.entry("log", 3 + 1), Map.entry("log10", 3 + 1), Map.entry("log1p", 2 + 1),
                    Map.entry("pow", 16 + 1), Map.entry("cbrt", 2 + 1), Map.entry("hypot", 4 + 1));

    @Override
    public Optional<NotApplicable> notApplicableTo(GraphState graphState) {
        return ALWAYS_APPLICABLE;
    }

    @Override
    protected void run(StructuredGraph graph) {
        for (Node node : graph.getNodes().snapshot()) {
            if (!node.isAlive()) {
                continue;
            }
            String function;
            List<ValueNode> arguments;
            if (node instanceof UnaryMathIntrinsicNode unary) {
                function = unary.getOperation().name().toLowerCase(java.util.Locale.ROOT);
                arguments = List.of(unary.getValue());
            } else if (node instanceof BinaryMathIntrinsicNode binary && binary.getOperation() == BinaryMathIntrinsicNode.BinaryOperation.POW) {
                function = "pow";
                arguments = List.of(binary.getX(), binary.getY());
            } else if (node instanceof MathCallNode call && call.getStackKind() == JavaKind.Double) {
                function = call.function();
                arguments = call.arguments();
            } else {
                continue;
            }
            if (!FLOAT_ULPS_VS_JAVA.containsKey(function) || ((ValueNode) node).hasNoUsages() || !onlyNarrowed((ValueNode) node)) {
                continue;
            }
            List<ValueNode> floatArguments = new ArrayList<>();
            for (ValueNode argument : arguments) {
                ValueNode narrow = asFloat(graph, argument);
                if (narrow == null) {
                    break;
                }
                floatArguments.add(narrow);
            }
            if (floatArguments.size() != arguments.size()) {
                continue;
            }
            MathCallNode floatCall = graph.addWithoutUnique(new MathCallNode(function, floatArguments, JavaKind.Float));
            floatCall.setNodeSourcePosition(node.getNodeSourcePosition());
            for (Node usage : node.usages().snapshot()) {
                ((FloatConvertNode) usage).replaceAtUsagesAndDelete(floatCall);
            }
        }
    }

    private static boolean onlyNarrowed(ValueNode call) {
        for (Node usage : call.usages()) {
            if (!(usage instanceof FloatConvertNode convert && convert.getFloatConvert() == FloatConvert.D2F)) {
                return false;
            }
        }
        return true;
    }

    /** The {@code float} whose {@code double} {@code value} is, or null. */
    private static ValueNode asFloat(StructuredGraph graph, ValueNode value) {
        if (value instanceof FloatConvertNode widen && widen.getFloatConvert() == FloatConvert.F2D) {
            return widen.getValue();
        }
        if (value instanceof ConstantNode constant && constant.asJavaConstant() != null && constant.asJavaConstant().getJavaKind() == JavaKind.Double) {
            double d = constant.asJavaConstant().asDouble();
            float f = (float) d;
            if (Double.doubleToRawLongBits(f) == Double.doubleToRawLongBits(d)) {
                return ConstantNode.forFloat(f, graph);
            }
        }
        return null;
    }
}
