package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.compile;
import static jpai.compiler.phases.PhaseTestSupport.count;
import static jpai.compiler.phases.PhaseTestSupport.pair;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.AbstractNewObjectNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.virtual.CommitAllocationNode;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;
import jpai.compiler.nodes.TupleValueNode;
import jpai.compiler.phases.PhaseTestSupport.Pair;

/** {@link TupleKernelArgumentsPhase} and {@link TupleResultComponentsPhase}. */
class TuplePhasesTest {

    static void assertNoObjectsLeft(StructuredGraph graph) {
        assertEquals(0, count(graph, LoadFieldNode.class), "field reads left");
        assertEquals(0, count(graph, BoxNode.class), "boxes left");
        assertEquals(0, count(graph, AbstractNewObjectNode.class), "allocations left");
        assertEquals(0, count(graph, CommitAllocationNode.class), "materialised allocations left");
    }

    @Test
    void tupleArgumentBecomesOnePrimitiveParameterPerComponent() {
        Function<Pair<Float, Integer>, Float> f = p -> p.first() * p.second();
        KernelGraph kernel = compile(f, new KernelSignature(List.of(pair(Float.class, Integer.class)), ValueShape.ofBoxed(Float.class)));
        ParameterNode first = kernel.inputs().argumentComponent(0, 0);
        ParameterNode second = kernel.inputs().argumentComponent(0, 1);
        assertNotNull(first);
        assertNotNull(second);
        assertEquals(JavaKind.Float, first.getStackKind());
        assertEquals(JavaKind.Int, second.getStackKind());
        assertNoObjectsLeft(kernel.graph());
    }

    @Test
    void tupleResultIsReturnedAsComponentsAndTheAllocationDisappears() {
        BinaryOperator<Pair<Integer, Double>> combine = (a, b) -> new Pair<>(a.first() + b.first(), Math.max(a.second(), b.second()));
        ValueShape.Tuple shape = pair(Integer.class, Double.class);
        KernelGraph kernel = compile(combine, new KernelSignature(List.of(shape, shape), shape));
        for (ReturnNode ret : kernel.graph().getNodes(ReturnNode.TYPE)) {
            TupleValueNode tuple = (TupleValueNode) ret.result();
            assertEquals(JavaKind.Int, tuple.components().get(0).getStackKind());
            assertEquals(JavaKind.Double, tuple.components().get(1).getStackKind());
        }
        assertNoObjectsLeft(kernel.graph());
    }

    @Test
    void returningTheArgumentTupleReturnsItsComponents() {
        Function<Pair<Integer, Integer>, Pair<Integer, Integer>> identity = p -> p;
        ValueShape.Tuple shape = pair(Integer.class, Integer.class);
        KernelGraph kernel = compile(identity, new KernelSignature(List.of(shape), shape));
        for (ReturnNode ret : kernel.graph().getNodes(ReturnNode.TYPE)) {
            TupleValueNode tuple = (TupleValueNode) ret.result();
            assertEquals(kernel.inputs().argumentComponent(0, 0), tuple.components().get(0));
            assertEquals(kernel.inputs().argumentComponent(0, 1), tuple.components().get(1));
        }
    }

    @Test
    void aTupleUsedAsAnObjectBails() {
        Function<Pair<Integer, Integer>, Integer> hash = p -> System.identityHashCode(p);
        KernelBailoutException e = assertThrows(KernelBailoutException.class,
                        () -> compile(hash, new KernelSignature(List.of(pair(Integer.class, Integer.class)), ValueShape.ofBoxed(Integer.class))));
        assertTrue(e.getMessage().contains("TuplePhasesTest.java:"), e.getMessage());
    }
}
