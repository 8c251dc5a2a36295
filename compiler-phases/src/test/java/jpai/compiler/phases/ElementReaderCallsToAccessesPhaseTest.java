package jpai.compiler.phases;

import static jpai.compiler.phases.PhaseTestSupport.capturedField;
import static jpai.compiler.phases.PhaseTestSupport.compile;
import static jpai.compiler.phases.PhaseTestSupport.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.core.common.type.ObjectStamp;
import jdk.graal.compiler.nodes.FixedGuardNode;
import jdk.graal.compiler.nodes.Invoke;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
import jdk.vm.ci.meta.DeoptimizationReason;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;

class ElementReaderCallsToAccessesPhaseTest {

    /** An element reader like the runtime's PArray: boxed elements by a long index, a long length. */
    public static final class Elements<T> {
        private final T[] values;

        @SafeVarargs
        Elements(T... values) {
            this.values = values;
        }

        public T get(long index) {
            if (index < 0 || index >= values.length) {
                throw new IndexOutOfBoundsException("index " + index);
            }
            return values[(int) index];
        }

        public long length() {
            return values.length;
        }

        public T first() {
            return values[0];
        }
    }

    static ValueShape.ElementReader reader(JavaKind kind) {
        return new ValueShape.ElementReader(kind, PhaseTestSupport.method(Elements.class, "get", long.class), PhaseTestSupport.method(Elements.class, "length"));
    }

    @Test
    void getAndLengthBecomeABoundsCheckedLoadOfTheArrayParameter() {
        Elements<Double> weights = new Elements<>(0.5, 1.5, 2.5);
        Function<Integer, Double> f = x -> weights.get((x & 0x7fffffff) % weights.length()) * 2.0;
        KernelGraph kernel = compile(f, Integer.class, Double.class, List.of(new CapturedValue(capturedField(f, Elements.class), reader(JavaKind.Double))));
        assertEquals(0, kernel.graph().getNodes().filter(n -> n instanceof Invoke).count());
        assertEquals(0, count(kernel.graph(), LoadFieldNode.class));
        assertEquals(0, count(kernel.graph(), BoxNode.class), "the unboxing in the lambda cancels the box");
        assertEquals(1, count(kernel.graph(), LoadIndexedNode.class));
        assertTrue(kernel.graph().getNodes().filter(FixedGuardNode.class).filter(g -> ((FixedGuardNode) g).getReason() == DeoptimizationReason.BoundsCheckException).isNotEmpty(),
                        "a bounds check guards the load");
        ObjectStamp array = (ObjectStamp) kernel.inputs().capture(0).stamp(NodeView.DEFAULT);
        assertEquals("[D", array.type().getName());
        assertTrue(array.nonNull());
        assertNotNull(kernel.inputs().captureLength(0));
    }

    @Test
    void anotherUseOfTheReaderBailsNamingIt() {
        Elements<Float> values = new Elements<>(1f, 2f);
        Function<Integer, Float> f = x -> values.first() + x;
        KernelBailoutException e = assertThrows(KernelBailoutException.class,
                        () -> compile(f, Integer.class, Float.class, List.of(new CapturedValue(capturedField(f, Elements.class), reader(JavaKind.Float)))));
        assertTrue(e.getMessage().contains("on OpenCL only its get(long) and length() are supported"), e.getMessage());
        assertTrue(e.getMessage().contains("ElementReaderCallsToAccessesPhaseTest.java:"), e.getMessage());
    }
}
