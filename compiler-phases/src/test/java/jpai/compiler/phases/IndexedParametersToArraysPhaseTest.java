package jpai.compiler.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.java.StoreIndexedNode;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.ParallelLoopCompiler;
import jpai.compiler.Speculations;
import jpai.compiler.ValueShape;
import jpai.compiler.loops.IndexedElements;
import jpai.compiler.loops.LoopBound;
import jpai.compiler.loops.MarkedVariable;

/**
 * An accelerated method's indexed parameters (the runtime's {@code PArray}, here a stand-in with the
 * same three methods) become array parameters: no call is left, {@code put} is an element store
 * behind a bounds-check exit, and {@code length()} is a loop bound the runtime computes.
 */
class IndexedParametersToArraysPhaseTest {

    /** Elements by a long index, boxed, as the runtime's PArray gives them. */
    public static final class Elements<T> {
        private final T[] values;

        @SafeVarargs
        Elements(T... values) {
            this.values = values;
        }

        public T get(long index) {
            return values[(int) index];
        }

        public void put(long index, T value) {
            values[(int) index] = value;
        }

        public long length() {
            return values.length;
        }

        public T first() {
            return values[0];
        }
    }

    static void saxpy(float alpha, Elements<Float> x, Elements<Float> y) {
        for (int i = 0; i < y.length(); i++) {
            y.put(i, alpha * x.get(i) + y.get(i));
        }
    }

    static void callsAnotherMethod(Elements<Float> x) {
        for (int i = 0; i < x.length(); i++) {
            x.put(i, x.first());
        }
    }

    private static IndexedElements floats() {
        return new IndexedElements(JavaKind.Float, PhaseTestSupport.method(Elements.class, "get", long.class), PhaseTestSupport.method(Elements.class, "put", long.class, Object.class),
                        PhaseTestSupport.method(Elements.class, "length"));
    }

    private static Method method(String name) {
        for (Method method : IndexedParametersToArraysPhaseTest.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void getPutAndLengthBecomeArrayAccessesAndTheLengthALoopBound() {
        ValueShape floatArray = new ValueShape.PrimitiveArray(JavaKind.Float);
        // the loop variable i is in slot 3 (after alpha, x, y) over the whole method
        ParallelLoopCompiler.LoopKernel loop = new ParallelLoopCompiler().compile(method("saxpy"), List.of(new ValueShape.Primitive(JavaKind.Float), floatArray, floatArray),
                        Map.of(1, floats(), 2, floats()), List.of(), List.of(new MarkedVariable(3, 0, 10_000)), null, false, Speculations.WITHOUT_PROFILE);
        var graph = loop.graph().graph();
        assertEquals(0, graph.getNodes().filter(n -> n instanceof Invoke).count(), "no call is left");
        assertEquals(1, graph.getNodes().filter(StoreIndexedNode.class).count(), "y.put is one element store");
        assertTrue(graph.getNodes().filter(FixedGuardNode.class).filter(g -> ((FixedGuardNode) g).getReason() == DeoptimizationReason.BoundsCheckException).isNotEmpty(),
                        "x.get(i) is checked against x's length");
        assertEquals(new LoopBound.ArrayLength(2), loop.limits().get(0));
        assertEquals(7L, loop.limits().get(0).valueFor(new Object[] {1f, null, (java.util.function.LongSupplier) () -> 7L}));
        assertEquals(java.util.Set.of(1, 2), java.util.Set.copyOf(loop.indexExitLengths()), "the kernel exits only where i passes x's or y's length");
    }

    @Test
    void anyOtherCallOnTheParameterIsRefusedNamingIt() {
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> new ParallelLoopCompiler().compile(method("callsAnotherMethod"),
                        List.of(new ValueShape.PrimitiveArray(JavaKind.Float)), Map.of(0, floats()), List.of(), List.of(new MarkedVariable(1, 0, 10_000)), null, false, Speculations.WITHOUT_PROFILE));
        assertTrue(e.getMessage().startsWith("the parameter x (a Elements<Float>) is used by"), e.getMessage());
        assertTrue(e.getMessage().contains("put(long, value)"), e.getMessage());
    }
}
