package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * What automatic tiling writes (docs/backend.md, "Tiling"), read from the generated text: which
 * loops are tiled, the kernel's required work-group, every barrier reached by every work-item (the
 * function is called past the end of the elements too), and the explanation of each decision.
 * Results on devices: TilingTest in the test module and the device tests here that run loops.
 */
class LoopTilingTest {

    private static KernelSource generate(Function<Integer, Float> f, GeneratorOptions options) {
        KernelGraph graph = KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Float.class));
        return new OpenCLKernelGenerator(options).map(graph, new MapKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Float), 1));
    }

    @Test
    void anAllPairsLoopReadsTheSameElementsThroughATileOfTheGroup() {
        float[] x = new float[100];
        float[] m = new float[100];
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < x.length; j++) {
                sum += m[j] * (x[j] - x[i]);
            }
            return sum;
        };
        KernelSource source = generate(f, GeneratorOptions.JAVA_SEMANTICS);
        String text = source.text();
        assertEquals(List.of(256L), source.requiredLocalSize());
        assertTrue(text.contains("__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void jpai_map("), text);
        assertTrue(text.contains("__local float jpai_tile0[256];") && text.contains("__local float jpai_tile1[256];"), text);
        assertFalse(text.contains("jpai_tile2"), "two arrays, two tiles: " + text);
        assertEquals(2, text.split("barrier\\(CLK_LOCAL_MEM_FENCE\\)", -1).length - 1, "two barriers: " + text);
        assertTrue(text.contains("const bool jpai_active = i < n;") && text.contains("if (jpai_active) {"), "every work-item calls the function: " + text);
        assertFalse(text.contains("if (i < n)"), text);
        // x[i]'s check, in the loop's body in Java, is tested once before the loop (LoopInvariantExitsPhase)
        assertTrue(java.util.regex.Pattern.compile("jpai_left = (1 /\\* BOUNDS_CHECK|10 /\\* HOISTED_LOOP_EXIT) at LoopTilingTest.java:\\d+ \\*/;\\s*goto jpai_tiles;")
                        .matcher(text).find(), "x[i] out of bounds still fills the tiles: " + text);
        assertTrue(source.notes().get(0).endsWith("through __local tiles of 256 iterations, work-groups of 256"), source.notes().toString());
    }

    @Test
    void withTilingOffTheKernelIsTheUntiledOne() {
        float[] x = new float[100];
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < x.length; j++) {
                sum += x[j] * i;
            }
            return sum;
        };
        KernelSource source = generate(f, new GeneratorOptions(false, false));
        assertTrue(source.requiredLocalSize().isEmpty());
        assertFalse(source.text().contains("barrier") || source.text().contains("__local") || source.text().contains("reqd_work_group_size"), source.text());
        assertTrue(source.notes().isEmpty(), source.notes().toString());
    }

    @Test
    void aLoopWhoseBoundFollowsTheElementIsNotTiledAndSaysWhy() {
        float[] x = new float[100];
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < i; j++) {
                sum += x[j];
            }
            return sum;
        };
        KernelSource source = generate(f, GeneratorOptions.JAVA_SEMANTICS);
        assertTrue(source.requiredLocalSize().isEmpty());
        assertFalse(source.text().contains("barrier"), source.text());
        assertEquals(1, source.notes().size(), source.notes().toString());
        assertTrue(source.notes().get(0).contains("is not tiled: its bounds are not computed from captured values"), source.notes().toString());
    }

    @Test
    void aLoopWithADataDependentBreakIsNotTiledAndSaysWhy() {
        float[] x = new float[100];
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < x.length; j++) {
                if (x[j] > i) {
                    break;
                }
                sum += x[j];
            }
            return sum;
        };
        KernelSource source = generate(f, GeneratorOptions.JAVA_SEMANTICS);
        assertTrue(source.requiredLocalSize().isEmpty());
        assertTrue(source.notes().get(0).contains("is not tiled: it has more than one exit"), source.notes().toString());
    }

    /**
     * Captured element readers (the runtime's PArray), read with {@code get((long) j)} as the
     * benchmark suite's N-Body does: their buffers are tiled like arrays, the fill bounded by each
     * buffer's length parameter (tiling needs every check out of the loop: they were hoisted).
     */
    @Test
    void elementReadersReadAtTheCounterAreTiledLikeArrays() {
        ElementReadersOnDeviceTest.Elements<Float> x = new ElementReadersOnDeviceTest.Elements<>(1f, 2f, 3f);
        ElementReadersOnDeviceTest.Elements<Float> m = new ElementReadersOnDeviceTest.Elements<>(1f, 2f, 3f);
        int n = 3;
        Function<Integer, Float> f = i -> {
            float sum = 0;
            for (int j = 0; j < n; j++) {
                sum += m.get(j) * (x.get(j) - x.get(i));
            }
            return sum;
        };
        List<CapturedValue> captures = new java.util.ArrayList<>();
        for (var field : f.getClass().getDeclaredFields()) {
            if (field.getType() == ElementReadersOnDeviceTest.Elements.class) {
                captures.add(new CapturedValue(field, new ValueShape.ElementReader(JavaKind.Float, KernelTestSupport.method(ElementReadersOnDeviceTest.Elements.class, "get", long.class),
                                KernelTestSupport.method(ElementReadersOnDeviceTest.Elements.class, "length"))));
            } else if (field.getType() == int.class) {
                captures.add(new CapturedValue(field, new ValueShape.Primitive(JavaKind.Int)));
            }
        }
        KernelGraph graph = new KernelGraphCompiler().compile(f, KernelTestSupport.FUNCTION_APPLY,
                        new KernelSignature(List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Float.class), captures));
        KernelSource source = new OpenCLKernelGenerator(GeneratorOptions.JAVA_SEMANTICS).map(graph, new MapKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Float), 1));
        String text = source.text();
        assertEquals(List.of(256L), source.requiredLocalSize());
        assertTrue(text.contains("__local float jpai_tile0[256];") && text.contains("__local float jpai_tile1[256];"), text);
        assertTrue(text.contains("jpai_i < c1_length) {\n                    jpai_v = c1[jpai_i];") && text.contains("jpai_i < c2_length) {\n                    jpai_v = c2[jpai_i];"), "each fill is bounded by its buffer's length: " + text);
        assertTrue(source.notes().get(0).contains("reads the captured") && source.notes().get(0).endsWith("through __local tiles of 256 iterations, work-groups of 256"),
                        source.notes().toString());
    }
}
