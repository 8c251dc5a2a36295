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
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.java.ArrayLengthNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;

class CapturedValuesToParametersPhaseTest {

    private int scale = 2;

    @Test
    void capturedPrimitivesAndBoxesBecomePrimitiveParameters() {
        float factor = 1.5f;
        Integer offset = 3;
        Function<Float, Float> f = x -> x * factor + offset;
        KernelGraph kernel = compile(f, Float.class, Float.class, List.of(new CapturedValue(capturedField(f, float.class), new ValueShape.Primitive(JavaKind.Float)),
                        new CapturedValue(capturedField(f, Integer.class), new ValueShape.BoxedPrimitive(JavaKind.Int))));
        assertEquals(JavaKind.Float, kernel.inputs().capture(0).getStackKind());
        assertEquals(JavaKind.Int, kernel.inputs().capture(1).getStackKind());
        assertEquals(0, count(kernel.graph(), LoadFieldNode.class));
        assertEquals(0, count(kernel.graph(), BoxNode.class));
    }

    @Test
    void capturedArrayIsANonNullExactParameterWithALengthParameter() {
        double[] table = {1, 2, 3};
        Function<Integer, Double> f = i -> table[i % table.length];
        KernelGraph kernel = compile(f, Integer.class, Double.class, List.of(new CapturedValue(capturedField(f, double[].class), new ValueShape.PrimitiveArray(JavaKind.Double))));
        ParameterNode array = kernel.inputs().capture(0);
        ObjectStamp stamp = (ObjectStamp) array.stamp(NodeView.DEFAULT);
        assertTrue(stamp.nonNull() && stamp.isExactType(), stamp.toString());
        assertNotNull(kernel.inputs().captureLength(0));
        assertEquals(0, count(kernel.graph(), ArrayLengthNode.class));
    }

    @Test
    void anUnlistedCaptureBailsNamingTheField() {
        long limit = 10;
        Function<Long, Long> f = x -> Math.min(x, limit);
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, Long.class, Long.class, List.of()));
        assertTrue(e.getMessage().contains("field " + capturedField(f, long.class).getName()), e.getMessage());
    }

    @Test
    void capturingThisBailsWithAdvice() {
        Function<Integer, Integer> f = x -> x * scale;
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, Integer.class, Integer.class, List.of()));
        assertEquals("the lambda captures `this` (uses a field or method of CapturedValuesToParametersPhaseTest); copy the field into a local variable first", e.reason());
    }

    @Test
    void aShapeThatContradictsTheFieldBails() {
        float factor = 1.5f;
        Function<Float, Float> f = x -> x * factor;
        assertThrows(KernelBailoutException.class,
                        () -> compile(f, Float.class, Float.class, List.of(new CapturedValue(capturedField(f, float.class), new ValueShape.Primitive(JavaKind.Int)))));
    }
}
