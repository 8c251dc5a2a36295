package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/**
 * A captured element reader (the runtime's PArray, here a stand-in with the same two methods) is a
 * read-only buffer on the device: {@code get} a bounds-checked load, {@code length} its length.
 */
class ElementReadersOnDeviceTest {

    /** Reads boxed elements by a long index, like PArray. */
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
    }

    private static final double[] WEIGHTS = {0.5, -1.25, Double.NaN, 3e300, -0.0};

    private static KernelSource map(Function<Long, Double> f) {
        CapturedValue capture = null;
        for (var field : f.getClass().getDeclaredFields()) {
            if (field.getType() == Elements.class) {
                capture = new CapturedValue(field, new ValueShape.ElementReader(JavaKind.Double, KernelTestSupport.method(Elements.class, "get", long.class),
                                KernelTestSupport.method(Elements.class, "length")));
            }
        }
        KernelGraph graph = new KernelGraphCompiler().compile(f, KernelTestSupport.FUNCTION_APPLY,
                        new KernelSignature(List.of(new ValueShape.BoxedPrimitive(JavaKind.Long)), new ValueShape.BoxedPrimitive(JavaKind.Double), List.of(capture)));
        return new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(JavaKind.Long), List.of(JavaKind.Double)));
    }

    private static Elements<Double> weights() {
        Double[] boxed = new Double[WEIGHTS.length];
        for (int i = 0; i < boxed.length; i++) {
            boxed[i] = WEIGHTS[i];
        }
        return new Elements<>(boxed);
    }

    @Test
    void getAndLengthReadTheBuffer() {
        Elements<Double> weights = weights();
        Function<Long, Double> f = i -> weights.get(i % weights.length()) * 2.0 + weights.length();
        long[] indices = {0, 1, 2, 3, 4, 5, 11};
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().map(map(f), indices.length, List.of(indices), List.of(JavaKind.Double), List.of(WEIGHTS));
        assertEquals(DeoptReason.NONE, result.reason());
        for (int i = 0; i < indices.length; i++) {
            KernelTestSupport.assertSameValue(f.apply(indices[i]), ((double[]) result.outputs().get(0))[i], "element " + i);
        }
    }

    @Test
    void anIndexOutOfBoundsExitsWithTheBoundsCheckReason() {
        Elements<Double> weights = weights();
        Function<Long, Double> f = i -> weights.get(i);
        for (long outside : new long[] {-1, WEIGHTS.length, Long.MIN_VALUE, 1L << 32}) {
            OpenCLTestDevice.Result result = OpenCLTestDevice.get().map(map(f), 2, List.of(new long[] {0, outside}), List.of(JavaKind.Double), List.of(WEIGHTS));
            assertEquals(DeoptReason.BOUNDS_CHECK, result.reason(), "index " + outside);
            assertEquals(1, result.status()[1], "the failing element");
        }
    }
}
