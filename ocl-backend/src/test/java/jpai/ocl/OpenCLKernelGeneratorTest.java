package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

class OpenCLKernelGeneratorTest {

    static KernelSource map(Function<?, ?> function, Class<?> in, Class<?> out) throws NoSuchMethodException {
        Method apply = Function.class.getMethod("apply", Object.class);
        KernelGraph graph = new KernelGraphCompiler().compile(function, apply, new KernelSignature(List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out)));
        return new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(kind(in)), kind(out)));
    }

    static JavaKind kind(Class<?> boxed) {
        return ((ValueShape.BoxedPrimitive) ValueShape.ofBoxed(boxed)).kind();
    }

    @Test
    void saxpyLikeMapIsStraightLineFloatCode() throws Exception {
        KernelSource source = map((Float x) -> x * 2.0f + 1.0f, Float.class, Float.class);
        System.out.println(source.text());
        String text = source.text();
        assertTrue(text.contains("#pragma OPENCL FP_CONTRACT OFF"), text);
        assertTrue(text.contains("float p1"), text);
        assertTrue(text.contains("0x1.0p1f"), "the constant 2.0f in hexadecimal: " + text);
        assertFalse(text.contains("goto"), "straight-line code has no jumps: " + text);
        assertFalse(text.contains("cl_khr_fp64"), text);
        assertTrue(source.buildOptions().contains("-cl-fp32-correctly-rounded-divide-sqrt"));
    }

    @Test
    void branchesBecomeJumpsWithPhis() throws Exception {
        KernelSource source = map((Integer x) -> x > 10 ? x * 3 : x - 7, Integer.class, Integer.class);
        System.out.println(source.text());
        assertTrue(source.text().contains("as_int((uint)("), "wrapping integer arithmetic: " + source.text());
    }

    @Test
    void loopsAreEmitted() throws Exception {
        KernelSource source = map((Integer x) -> {
            int sum = 0;
            for (int i = 0; i < x; i++) {
                sum += i * x;
            }
            return sum;
        }, Integer.class, Integer.class);
        System.out.println(source.text());
        assertTrue(source.text().contains("goto"), source.text());
    }

    @Test
    void doublesEnableTheExtension() throws Exception {
        KernelSource source = map((Double x) -> Math.sqrt(x) + 0.5, Double.class, Double.class);
        assertTrue(source.text().contains("cl_khr_fp64"), source.text());
        assertTrue(source.text().contains("sqrt("), source.text());
    }

    @Test
    void integerDivisionBailsOutNamingTheLine() {
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> map((Integer x) -> 100 / x, Integer.class, Integer.class));
        assertTrue(e.getMessage().contains("OpenCLKernelGeneratorTest.java:"), e.getMessage());
    }
}
