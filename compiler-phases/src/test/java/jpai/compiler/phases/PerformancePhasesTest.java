package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.capturedField;
import static jpai.compiler.phases.PhaseTestSupport.compile;
import static jpai.compiler.phases.PhaseTestSupport.compileWithOpenCLMath;
import static jpai.compiler.phases.PhaseTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.core.common.type.IntegerStamp;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.LoopBeginNode;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.ValuePhiNode;
import jdk.graal.compiler.nodes.calc.CompareNode;
import jdk.graal.compiler.nodes.calc.FloatConvertNode;
import jdk.graal.compiler.nodes.calc.IntegerBelowNode;
import jdk.graal.compiler.nodes.calc.IntegerLessThanNode;
import jdk.graal.compiler.nodes.calc.SqrtNode;
import jdk.graal.compiler.replacements.nodes.UnaryMathIntrinsicNode;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;
import jpai.compiler.nodes.MathCallNode;

/**
 * The phases that make kernels faster without changing results: {@link FloatSqrtPhase},
 * {@link FloatTranscendentalsPhase}, {@link CountedLoopIndexStampPhase},
 * {@link SpeculativeBoundsCheckHoistingPhase}, {@link NarrowWidenedComparisonsPhase}, on real lambdas through the whole compiler.
 */
class PerformancePhasesTest {

    private static List<CapturedValue> arrays(Object lambda, Class<?> type, JavaKind kind) {
        List<CapturedValue> captures = new ArrayList<>();
        for (var field : lambda.getClass().getDeclaredFields()) {
            if (field.getType() == type) {
                captures.add(new CapturedValue(field, new ValueShape.PrimitiveArray(kind)));
            }
        }
        return captures;
    }

    private static long boundsExits(StructuredGraph graph) {
        return graph.getNodes().filter(DeoptimizeNode.class).filter(d -> ((DeoptimizeNode) d).getReason() == DeoptimizationReason.BoundsCheckException).count();
    }

    /** The guards the hoisting phase put before loops: they exit with LoopLimitCheck, not BoundsCheckException. */
    private static long hoistedGuards(StructuredGraph graph) {
        return graph.getNodes().filter(FixedGuardNode.class).filter(g -> ((FixedGuardNode) g).getReason() == DeoptimizationReason.LoopLimitCheck).count();
    }

    @Test
    void floatSquareRootStaysInFloat() {
        Function<Float, Float> f = x -> (float) Math.sqrt(x) + 1f;
        StructuredGraph graph = compile(f, Float.class, Float.class, List.of()).graph();
        assertEquals(1, count(graph, SqrtNode.class));
        assertEquals(JavaKind.Float, graph.getNodes().filter(SqrtNode.class).first().getStackKind());
        assertEquals(0, count(graph, FloatConvertNode.class), "no conversion to double and back");
    }

    @Test
    void floatTranscendentalsUseTheFloatBuiltIn() {
        Function<Float, Float> f = x -> (float) Math.sin(x) * (float) Math.exp(-0.5f * x) + (float) Math.atan2(x, 2.0);
        StructuredGraph graph = compileWithOpenCLMath(f, Float.class, Float.class).graph();
        assertEquals(0, count(graph, UnaryMathIntrinsicNode.class));
        List<String> functions = new ArrayList<>();
        for (MathCallNode call : graph.getNodes().filter(MathCallNode.class)) {
            assertEquals(JavaKind.Float, call.getStackKind());
            functions.add(call.function());
        }
        assertTrue(functions.containsAll(List.of("sin", "exp", "atan2")), functions.toString());
        assertEquals(0, count(graph, FloatConvertNode.class));
    }

    @Test
    void aDoubleResultKeepsTheDoubleBuiltIn() {
        Function<Float, Double> f = x -> Math.sin(x) + (float) Math.cos(x);
        StructuredGraph graph = compileWithOpenCLMath(f, Float.class, Double.class).graph();
        // sin's result is used as a double: it stays; cos is only narrowed: it becomes the float built-in.
        assertEquals(1, count(graph, UnaryMathIntrinsicNode.class));
        assertEquals(1, graph.getNodes().filter(MathCallNode.class).filter(c -> ((MathCallNode) c).getStackKind() == JavaKind.Float).count());
    }

    @Test
    void boundsChecksOfTheLoopCounterLeaveTheLoop() {
        float[] a = {1f, 2f, 3f};
        float[] b = {4f, 5f, 6f};
        Function<Integer, Float> f = k -> {
            float sum = 0f;
            for (int j = 0; j < a.length; j++) {
                sum += a[j] * b[j];
            }
            return sum + k;
        };
        KernelGraph kernel = compile(f, Integer.class, Float.class, arrays(f, float[].class, JavaKind.Float));
        StructuredGraph graph = kernel.graph();
        assertEquals(1, count(graph, LoopBeginNode.class));
        // a[j] is implied by the loop condition; b[j] becomes one check before the loop.
        assertEquals(0, boundsExits(graph), "no check left in the loop");
        assertEquals(1, hoistedGuards(graph));
    }

    @Test
    void anInvariantOffsetIsHoistedToo() {
        float[] m = new float[16];
        int n = 4;
        Function<Integer, Float> f = row -> {
            float sum = 0f;
            for (int j = 1; j < n; j++) {
                sum += m[row * n + j] - m[j - 1];
            }
            return sum;
        };
        List<CapturedValue> captures = new ArrayList<>(arrays(f, float[].class, JavaKind.Float));
        captures.add(new CapturedValue(capturedField(f, int.class), new ValueShape.Primitive(JavaKind.Int)));
        StructuredGraph graph = compile(f, Integer.class, Float.class, captures).graph();
        assertEquals(0, boundsExits(graph), "no check left in the loop");
        assertTrue(hoistedGuards(graph) >= 1);
    }

    @Test
    void aStridedIndexIsHoistedToo() {
        float[] m = new float[16];
        int n = 4;
        Function<Integer, Float> f = c -> {
            float sum = 0f;
            for (int j = 0; j < 4; j++) {
                sum += m[j * 4 + c]; // a constant stride: j << 2
            }
            for (int k = 0; k < n; k++) {
                sum += m[k * n + c] * m[n * k]; // a captured stride, on either side
            }
            return sum;
        };
        List<CapturedValue> captures = new ArrayList<>(arrays(f, float[].class, JavaKind.Float));
        captures.add(new CapturedValue(capturedField(f, int.class), new ValueShape.Primitive(JavaKind.Int)));
        StructuredGraph graph = compile(f, Integer.class, Float.class, captures).graph();
        assertEquals(2, count(graph, LoopBeginNode.class));
        assertEquals(0, boundsExits(graph), "no check left in the loops");
        // j * 4 + c: c >= 0 and 12 + c < length; k * n + c: c >= 0 and (n - 1) * n + c < length, and, n
        // possibly negative, the same two at the other end; n * k: (n - 1) * n < length and its other end.
        assertTrue(hoistedGuards(graph) >= 4, "guards before the loops: " + hoistedGuards(graph));
    }

    /** A captured element reader's checks {@code (long) index |<| (long) length}, as the benchmark suite's N-Body and matmul read their PArrays. */
    @Test
    void anElementReadersChecksAreHoistedToo() {
        ElementReaderCallsToAccessesPhaseTest.Elements<Float> x = new ElementReaderCallsToAccessesPhaseTest.Elements<>(1f, 2f, 3f, 4f);
        ElementReaderCallsToAccessesPhaseTest.Elements<Float> m = new ElementReaderCallsToAccessesPhaseTest.Elements<>(1f, 2f, 3f, 4f);
        int n = 2;
        Function<Integer, Float> f = i -> {
            float sum = 0f;
            for (int j = 0; j < n; j++) {
                sum += x.get(j) * m.get(i * n + j) + m.get(j * n + i);
            }
            return sum;
        };
        List<CapturedValue> captures = new ArrayList<>();
        for (var field : f.getClass().getDeclaredFields()) {
            if (field.getType() == ElementReaderCallsToAccessesPhaseTest.Elements.class) {
                captures.add(new CapturedValue(field, ElementReaderCallsToAccessesPhaseTest.reader(JavaKind.Float)));
            }
        }
        captures.add(new CapturedValue(capturedField(f, int.class), new ValueShape.Primitive(JavaKind.Int)));
        StructuredGraph graph = compile(f, Integer.class, Float.class, captures).graph();
        assertEquals(1, count(graph, LoopBeginNode.class));
        long checks = graph.getNodes().filter(FixedGuardNode.class).filter(g -> ((FixedGuardNode) g).getReason() == DeoptimizationReason.BoundsCheckException).count();
        assertEquals(0, checks, "no element reader check left in the loop");
        assertTrue(hoistedGuards(graph) >= 3, "guards before the loop: " + hoistedGuards(graph));
    }

    @Test
    void anIndexThatIsNotAffineInTheCounterKeepsItsCheck() {
        float[] m = new float[16];
        Function<Integer, Float> f = c -> {
            float sum = 0f;
            for (int j = 0; j < 4; j++) {
                sum += m[j * j + c];
            }
            return sum;
        };
        StructuredGraph graph = compile(f, Integer.class, Float.class, arrays(f, float[].class, JavaKind.Float)).graph();
        assertEquals(1, boundsExits(graph));
        assertEquals(0, hoistedGuards(graph));
    }

    @Test
    void theCounterOfACountedLoopIsNotNegative() {
        int[] data = {1, 2, 3};
        Function<Integer, Integer> f = k -> {
            int sum = 0;
            for (int j = 0; j < data.length; j++) {
                sum += (j * k) % data.length;
            }
            return sum;
        };
        StructuredGraph graph = compile(f, Integer.class, Integer.class, arrays(f, int[].class, JavaKind.Int)).graph();
        // j < data.length with j >= 0: data.length >= 1 in the body, no zero test of the remainder left.
        assertEquals(0, graph.getNodes().filter(DeoptimizeNode.class).filter(d -> ((DeoptimizeNode) d).getReason() == DeoptimizationReason.ArithmeticException).count());
        for (ValuePhiNode phi : graph.getNodes().filter(ValuePhiNode.class)) {
            if (phi.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && phi.merge() instanceof LoopBeginNode && phi.singleBackValueOrThis() != phi
                            && phi.valueAt(0).isConstant() && phi.valueAt(0).asJavaConstant().asInt() == 0 && stamp.lowerBound() == 0 && stamp.upperBound() == Integer.MAX_VALUE) {
                return;
            }
        }
        throw new AssertionError("no loop counter with the stamp [0, MAX_VALUE]");
    }

    /** A loop over a captured reader's {@code long} length tests the {@code int}s, not their widenings. */
    @Test
    void comparisonsOfWidenedIntsCompareTheInts() {
        ElementReaderCallsToAccessesPhaseTest.Elements<Float> centres = new ElementReaderCallsToAccessesPhaseTest.Elements<>(1f, 2f, 3f);
        Function<Integer, Integer> nearest = x -> {
            int best = 0;
            float distance = Float.MAX_VALUE;
            for (int c = 0; c < centres.length(); c++) {
                float d = Math.abs(centres.get(c) - x);
                if (d < distance) {
                    distance = d;
                    best = c;
                }
            }
            return Integer.toUnsignedLong(x) < Integer.toUnsignedLong(best - 1) ? best : -best;
        };
        StructuredGraph graph = compile(nearest, Integer.class, Integer.class,
                        List.of(new CapturedValue(capturedField(nearest, ElementReaderCallsToAccessesPhaseTest.Elements.class), ElementReaderCallsToAccessesPhaseTest.reader(JavaKind.Float)))).graph();
        List<String> wide = new ArrayList<>();
        for (CompareNode compare : graph.getNodes().filter(CompareNode.class)) {
            if (compare.getX().stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && stamp.getBits() == 64) {
                wide.add(compare + "(" + compare.getX() + ", " + compare.getY() + ")");
            }
        }
        assertEquals(List.of(), wide, "no comparison of longs left (the unsigned one Graal's canonicaliser narrows to an unsigned int comparison itself)");
        boolean counterTested = false;
        for (ValuePhiNode phi : graph.getNodes().filter(ValuePhiNode.class)) {
            // i < length with i >= 0: the canonicaliser makes it an unsigned comparison of the ints
            counterTested |= phi.stamp(NodeView.DEFAULT) instanceof IntegerStamp stamp && stamp.getBits() == 32
                            && phi.usages().filter(n -> n instanceof IntegerLessThanNode || n instanceof IntegerBelowNode).isNotEmpty();
        }
        List<String> all = new ArrayList<>(); for (CompareNode c : graph.getNodes().filter(CompareNode.class)) { all.add(c + "(" + c.getX() + ", " + c.getY() + ")"); }
        assertTrue(counterTested, "the loop tests its int counter: " + all);
    }
}
