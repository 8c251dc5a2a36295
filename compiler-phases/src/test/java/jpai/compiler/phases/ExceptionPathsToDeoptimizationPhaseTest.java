package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.capturedField;
import static jpai.compiler.phases.PhaseTestSupport.compile;
import static jpai.compiler.phases.PhaseTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.AbstractDeoptimizeNode;
import jdk.graal.compiler.nodes.DeoptimizeNode;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.UnwindNode;
import jdk.graal.compiler.nodes.extended.BytecodeExceptionNode;
import jdk.vm.ci.meta.DeoptimizationReason;
import jpai.compiler.CapturedValue;
import jpai.compiler.ValueShape;

class ExceptionPathsToDeoptimizationPhaseTest {

    static Set<DeoptimizationReason> exits(StructuredGraph graph) {
        Set<DeoptimizationReason> reasons = graph.getNodes().filter(DeoptimizeNode.class).stream().map(DeoptimizeNode::getReason).collect(Collectors.toSet());
        graph.getNodes().filter(FixedGuardNode.class).forEach(guard -> reasons.add(guard.getReason()));
        return reasons;
    }

    static void assertNoExceptionLeft(StructuredGraph graph) {
        assertEquals(0, count(graph, BytecodeExceptionNode.class), "BytecodeException left");
        assertEquals(0, count(graph, UnwindNode.class), "Unwind left");
        assertEquals(0, graph.getNodes().filter(n -> n instanceof Invoke).count(), "a call on an exception path left");
    }

    @Test
    void divisionByZeroBecomesAnArithmeticExit() {
        StructuredGraph graph = compile((Integer x) -> 100 / x, Integer.class, Integer.class, List.of()).graph();
        assertNoExceptionLeft(graph);
        assertEquals(Set.of(DeoptimizationReason.ArithmeticException), exits(graph));
    }

    @Test
    void arrayIndexBecomesABoundsExit() {
        float[] table = {1f, 2f};
        Function<Integer, Float> f = i -> table[i];
        StructuredGraph graph = compile(f, Integer.class, Float.class, List.of(new CapturedValue(capturedField(f, float[].class), new ValueShape.PrimitiveArray(jdk.vm.ci.meta.JavaKind.Float)))).graph();
        assertNoExceptionLeft(graph);
        // a captured array may be null: its null check (a test of its length argument) is an exit too
        assertEquals(Set.of(DeoptimizationReason.BoundsCheckException, DeoptimizationReason.NullCheckException), exits(graph));
    }

    @Test
    void anExplicitThrowBecomesAnExitAndItsConstructorCallsVanish() {
        StructuredGraph graph = compile((Integer x) -> {
            if (x < 0) {
                throw new IllegalStateException("negative " + x);
            }
            return x;
        }, Integer.class, Integer.class, List.of()).graph();
        assertNoExceptionLeft(graph);
        assertEquals(Set.of(DeoptimizationReason.NotCompiledExceptionHandler), exits(graph));
    }

    @Test
    void aFunctionThatAlwaysThrowsIsOneExit() {
        StructuredGraph graph = compile((Integer x) -> {
            throw new UnsupportedOperationException();
        }, Integer.class, Integer.class, List.of()).graph();
        assertNoExceptionLeft(graph);
        assertEquals(1, count(graph, AbstractDeoptimizeNode.class));
        assertTrue(graph.start().next() instanceof DeoptimizeNode, "the start leads straight to the exit");
    }
}
