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
import jdk.graal.compiler.nodes.ConstantNode;
import jdk.graal.compiler.nodes.java.LoadFieldNode;
import jdk.graal.compiler.nodes.java.LoadIndexedNode;
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

    /**
     * A captured {@code float[][]}: one flat {@code float[]} parameter, a row count and a row length;
     * no load of a row object remains, only element loads of the flat parameter.
     */
    @Test
    void aCapturedMatrixIsOneFlatParameterWithRowCountAndRowLength() {
        float[][] m = {{1, 2}, {3, 4}};
        Function<Integer, Float> f = i -> m[i % m.length][i & 1] + m[0].length;
        KernelGraph kernel = compile(f, Integer.class, Float.class, List.of(new CapturedValue(capturedField(f, float[][].class), new ValueShape.RectangularArray(JavaKind.Float))));
        ObjectStamp stamp = (ObjectStamp) kernel.inputs().capture(0).stamp(NodeView.DEFAULT);
        assertEquals(float[].class.getName(), stamp.type().toClassName(), stamp.toString());
        assertNotNull(kernel.inputs().captureLength(0));
        assertNotNull(kernel.inputs().captureRowLength(0));
        assertEquals(0, count(kernel.graph(), ArrayLengthNode.class));
        for (LoadIndexedNode load : kernel.graph().getNodes().filter(LoadIndexedNode.class)) {
            assertEquals(JavaKind.Float, load.elementKind(), "only element loads remain: " + load);
            assertTrue(load.array() == kernel.inputs().capture(0), "from the flat parameter: " + load);
        }
    }

    /** {@code p.scale()} and {@code p.weights()[i]} of a captured record: parameters for the two fields, no read of the record. */
    @Test
    void fieldsOfACapturedRecordBecomeParameters() throws NoSuchFieldException {
        Params p = new Params(2f, new float[] {1f, 2f});
        Function<Integer, Float> f = i -> p.weights()[i & 1] * p.scale();
        java.lang.reflect.Field record = capturedField(f, Params.class);
        KernelGraph kernel = compile(f, Integer.class, Float.class, List.of(
                        CapturedValue.throughFields(record, List.of(Params.class.getDeclaredField("scale")), new ValueShape.Primitive(JavaKind.Float)),
                        CapturedValue.throughFields(record, List.of(Params.class.getDeclaredField("weights")), new ValueShape.PrimitiveArray(JavaKind.Float))));
        assertEquals(JavaKind.Float, kernel.inputs().capture(0).getStackKind());
        assertNotNull(kernel.inputs().captureLength(1));
        assertTrue(kernel.inputs().isRead(0) && kernel.inputs().isRead(1));
        assertEquals(0, count(kernel.graph(), LoadFieldNode.class));
    }

    /** A field of a captured object that the runtime did not list (a String) bails out naming it. */
    @Test
    void anUnlistedFieldOfACapturedObjectBailsNamingIt() throws NoSuchFieldException {
        Named n = new Named("abc", 1);
        Function<Integer, Integer> f = i -> i + n.name().length();
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, Integer.class, Integer.class, List.of(
                        CapturedValue.throughFields(capturedField(f, Named.class), List.of(Named.class.getDeclaredField("count")), new ValueShape.Primitive(JavaKind.Int)))));
        assertTrue(e.getMessage().contains("the lambda reads the field name of the captured Named: of type String, which the runtime does not pass to OpenCL"), e.getMessage());
    }

    /** A user's static final array read by the lambda is a captured array found by the compiler, not a constant. */
    @Test
    void aStaticArrayBecomesAParameter() {
        Function<Integer, Integer> f = i -> STATIC_TABLE[i & 3];
        KernelGraph kernel = compile(f, Integer.class, Integer.class, List.of());
        assertEquals(1, kernel.captures().size());
        assertTrue(kernel.captures().get(0).staticArray() == STATIC_TABLE);
        assertTrue(kernel.inputs().isRead(0));
        for (ConstantNode constant : kernel.graph().getNodes().filter(ConstantNode.class)) {
            assertTrue(constant.asJavaConstant() == null || constant.asJavaConstant().getJavaKind() != JavaKind.Object, "no constant array: " + constant);
        }
    }

    private static final int[] STATIC_TABLE = {4, 3, 2, 1};

    record Params(float scale, float[] weights) {
    }

    record Named(String name, int count) {
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
