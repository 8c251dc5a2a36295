package jpai.ocl;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        return new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(kind(in)), List.of(kind(out))));
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
        assertTrue(text.contains("(float x0, __private float *r0)"), text);
        assertTrue(text.contains("0x1.0p1f"), "the constant 2.0f in hexadecimal: " + text);
        assertFalse(text.contains("goto"), "straight-line code has no jumps: " + text);
        assertFalse(text.contains("cl_khr_fp64"), text);
        assertTrue(source.buildOptions().contains("-cl-fp32-correctly-rounded-divide-sqrt"));
    }

    /**
     * Fused maps: one map kernel that calls each stage's function (one lambda twice: two functions
     * of distinct names) on the previous stage's private result, the captures of every stage in
     * slot order, no intermediate buffer; component lists that do not match a stage are refused.
     */
    @Test
    void fusedMapsCallEachStageInOneKernel() throws Exception {
        float scale = 3f;
        int offset = 7;
        Function<Float, Float> f = x -> x * scale;
        Function<Float, Integer> g = x -> (int) (float) x + offset;
        KernelGraph first = KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Float.class)), ValueShape.ofBoxed(Float.class));
        KernelGraph second = KernelTestSupport.compile(g, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Float.class)), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().fusedMap(List.of(first, first, second), List.of(List.of(JavaKind.Float), List.of(JavaKind.Float), List.of(JavaKind.Float),
                        List.of(JavaKind.Int)), 0);
        String text = source.text();
        assertEquals("jpai_map", source.kernelName());
        assertEquals(1, text.split("__kernel ", -1).length - 1, text);
        assertTrue(text.contains("jpai_s0_") && text.contains("jpai_s1_") && text.contains("jpai_s2_"), text);
        List<KernelParameter.Role> roles = source.parameters().stream().map(KernelParameter::role).toList();
        assertEquals(1, roles.stream().filter(r -> r == KernelParameter.Role.INPUT_BUFFER).count(), roles.toString());
        assertEquals(1, roles.stream().filter(r -> r == KernelParameter.Role.OUTPUT_BUFFER).count(), roles.toString());
        assertEquals(3, source.captures().size(), "the captures of the three stages: " + source.captures());
        assertTrue(text.contains("out0[i] = (int) s2_0;"), text);
        assertThrows(IllegalArgumentException.class, () -> new OpenCLKernelGenerator().fusedMap(List.of(first, second), List.of(List.of(JavaKind.Float), List.of(JavaKind.Float),
                        List.of(JavaKind.Float)), 0));
        assertThrows(IllegalArgumentException.class, () -> new OpenCLKernelGenerator().fusedMap(List.of(first), List.of(List.of(JavaKind.Float), List.of(JavaKind.Float)), 0));
    }

    @Test
    void aMapOverIndicesReadsNoInputBuffer() throws Exception {
        Function<Integer, Float> reciprocal = i -> 1.0f / (i + 1);
        KernelGraph graph = KernelTestSupport.compile(reciprocal, KernelTestSupport.FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Float.class));
        KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Float), 1));
        String text = source.text();
        assertFalse(source.parameters().stream().anyMatch(p -> p.role() == KernelParameter.Role.INPUT_BUFFER), "no input buffer: " + source.parameters());
        assertFalse(text.contains("in0"), text);
        assertTrue(text.contains("(int) i"), "the work-item's index is the element: " + text);
        assertThrows(IllegalArgumentException.class, () -> new MapKernelSpec(List.of(JavaKind.Float), List.of(JavaKind.Float), 1));
    }

    /**
     * A map over a 2-D index space: i from NDRange dimension 1 plus the slab's base, j from dimension
     * 0, a guard per extent, the row-major position in 64-bit arithmetic, no division or remainder,
     * no input buffer, the extents as arguments after the base.
     */
    @Test
    void aMapOverA2DIndexSpaceTakesEachIndexFromItsOwnDimension() throws Exception {
        Function<TuplesAndReductionsOnDeviceTest.Tuple2<Integer, Integer>, Integer> f = ij -> ij._1() * 100 + ij._2();
        ValueShape.Tuple in = TuplesAndReductionsOnDeviceTest.tuple(Integer.class, Integer.class);
        KernelGraph graph = KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(in), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(in.components(), List.of(JavaKind.Int), 2));
        String kernel = source.text().substring(source.text().indexOf("__kernel void jpai_map"));
        System.out.println(kernel);
        assertTrue(kernel.contains("const long i0 = base + (long) get_global_id(1);"), kernel);
        assertTrue(kernel.contains("const long i1 = (long) get_global_id(0);"), kernel);
        assertTrue(kernel.contains("if (i0 < extent0 && i1 < extent1)"), kernel);
        assertTrue(kernel.contains("const long i = i0 * extent1 + i1;"), kernel);
        assertTrue(kernel.contains("(int) i0, (int) i1"), kernel);
        assertFalse(kernel.replaceAll("/\\*.*?\\*/", "").matches("(?s).*[/%].*"), "no division or remainder: " + kernel);
        List<KernelParameter.Role> roles = source.parameters().stream().map(KernelParameter::role).toList();
        assertFalse(roles.contains(KernelParameter.Role.INPUT_BUFFER), roles.toString());
        int base = roles.indexOf(KernelParameter.Role.BASE_INDEX);
        assertEquals(List.of(KernelParameter.Role.INDEX_EXTENT, KernelParameter.Role.INDEX_EXTENT), roles.subList(base + 1, base + 3), roles.toString());
        assertThrows(IllegalArgumentException.class, () -> new MapKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Int), 2), "two dimensions need two int components");
        assertThrows(IllegalArgumentException.class, () -> new MapKernelSpec(List.of(JavaKind.Int, JavaKind.Int, JavaKind.Int, JavaKind.Int), List.of(JavaKind.Int), 4));
    }

    record Triple<A, B, C>(A _1, B _2, C _3) {
    }

    /** Three dimensions: k from dimension 0, j from 1, i (with the base) from 2; position (i * extent1 + j) * extent2 + k. */
    @Test
    void aMapOverA3DIndexSpaceUsesThreeDimensions() throws Exception {
        Function<Triple<Integer, Integer, Integer>, Integer> f = t -> t._1() - t._2() + t._3();
        ValueShape.Tuple in = new ValueShape.Tuple(Triple.class, List.of(Triple.class.getDeclaredField("_1"), Triple.class.getDeclaredField("_2"), Triple.class.getDeclaredField("_3")),
                        List.of(ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class)));
        KernelGraph graph = KernelTestSupport.compile(f, KernelTestSupport.FUNCTION_APPLY, List.of(in), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(in.components(), List.of(JavaKind.Int), 3));
        String kernel = source.text().substring(source.text().indexOf("__kernel void jpai_map"));
        assertTrue(kernel.contains("const long i0 = base + (long) get_global_id(2);"), kernel);
        assertTrue(kernel.contains("const long i1 = (long) get_global_id(1);"), kernel);
        assertTrue(kernel.contains("const long i2 = (long) get_global_id(0);"), kernel);
        assertTrue(kernel.contains("if (i0 < extent0 && i1 < extent1 && i2 < extent2)"), kernel);
        assertTrue(kernel.contains("const long i = (i0 * extent1 + i1) * extent2 + i2;"), kernel);
        assertEquals(3, source.parameters().stream().filter(p -> p.role() == KernelParameter.Role.INDEX_EXTENT).count());
    }

    @Test
    void branchesBecomeJumpsWithPhis() throws Exception {
        KernelSource source = map((Integer x) -> x > 10 ? x * 3 : x - 7, Integer.class, Integer.class);
        System.out.println(source.text());
        assertTrue(source.text().contains("as_int((uint)("), "wrapping integer arithmetic: " + source.text());
    }

    /**
     * The C forms whose meaning C leaves to the implementation, which NVIDIA's compiler folds
     * differently from PoCL's (docs/java-semantics.md, "C forms the backend never emits"): 8- and
     * 16-bit values (declared or reinterpreted), OpenCL's {@code abs} on integers, a cast of an
     * arbitrary integer to a narrower signed type. None may appear in any kernel. (The map kernel's
     * store {@code (short) r0} converts the element function's result, which Java's narrowing already
     * put in range: defined.)
     */
    @Test
    void noImplementationDefinedIntegerForms() throws Exception {
        java.util.regex.Pattern forbidden = java.util.regex.Pattern.compile("as_(char|short)\\(|[^_a-z]abs\\(|\\((char|short)\\) ?\\(?(?!r\\d)[a-z]|\\b(char|short) v\\d");
        List<KernelSource> kernels = List.of(
                        map((Integer x) -> x * 3 + (x << 4) - (x >>> 2), Integer.class, Integer.class),
                        map((Integer x) -> (short) (x * -1), Integer.class, Short.class),
                        map((Integer x) -> (byte) (int) x, Integer.class, Byte.class),
                        map((Long x) -> (int) (long) x, Long.class, Integer.class),
                        map((Long x) -> (short) (x * 31), Long.class, Short.class),
                        map((Integer x) -> Math.abs(x) < 0, Integer.class, Boolean.class),
                        map((Integer x) -> (double) (int) Math.abs((long) x), Integer.class, Double.class),
                        map((Long x) -> Math.abs(x), Long.class, Long.class),
                        map((Integer x) -> -x, Integer.class, Integer.class),
                        map((Integer x) -> x / 7 + x % 5 + Integer.divideUnsigned(x, 3), Integer.class, Integer.class),
                        map((Character c) -> (short) ((short) (char) c * -1), Character.class, Short.class));
        for (KernelSource kernel : kernels) {
            java.util.regex.Matcher m = forbidden.matcher(kernel.text());
            assertFalse(m.find(), () -> "implementation-defined form '" + m.group() + "' in:\n" + kernel.text());
        }
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
        String text = source.text();
        assertTrue(text.contains("for (;;)"), text);
        assertTrue(text.contains("break;"), "the loop's exit is a break: " + text);
        assertFalse(text.contains("goto"), "structured: " + text);
    }

    @Test
    void branchesAreIfElseAndExitsAreGuardClauses() throws Exception {
        KernelSource source = map((Integer x) -> {
            int result;
            if (x > 10) {
                result = x * 3;
            } else if (x < -10) {
                result = 100 / (x + 20); // x + 20 may be 0: the parser's zero check stays
            } else {
                result = x - 7;
            }
            return result;
        }, Integer.class, Integer.class);
        String text = source.text();
        assertTrue(text.contains("} else {"), text);
        assertTrue(text.contains("return 3 /* DIVISION_BY_ZERO"), "the division's exit names its reason: " + text);
        assertFalse(text.contains("goto"), text);
    }

    @Test
    void aDivisionGuardedByTheParsersZeroCheckGetsNoSecondCheck() throws Exception {
        int n = Integer.parseInt("512"); // a captured divisor whose value the compiler does not know
        String text = KernelTestSupport.map((Integer e) -> e / n + e % n, Integer.class, Integer.class).text();
        assertEquals(1, text.split("DIVISION_BY_ZERO", -1).length - 1, "one zero check for both operations: " + text);
    }

    @Test
    void nestedLoopsWithBreakAndEarlyReturnStayStructured() throws Exception {
        KernelSource source = map((Integer x) -> {
            int found = -1;
            outer: for (int i = 0; i < x; i++) {
                for (int j = 0; j < i; j++) {
                    if (i * j == x) {
                        found = i;
                        break outer;
                    }
                    if (j * 7 == x) {
                        return j;
                    }
                }
            }
            return found;
        }, Integer.class, Integer.class);
        String text = source.text();
        assertTrue(text.split("for \\(;;\\)", -1).length - 1 >= 2, "two loops: " + text);
        assertFalse(text.contains("L:"), text);
    }

    @Test
    void doublesEnableTheExtension() throws Exception {
        KernelSource source = map((Double x) -> Math.sqrt(x) + 0.5, Double.class, Double.class);
        assertTrue(source.text().contains("cl_khr_fp64"), source.text());
        assertTrue(source.text().contains("sqrt("), source.text());
    }

    static int factorial(int n) {
        return n <= 1 ? 1 : n * factorial(n - 1);
    }

    @Test
    void recursionBailsOutNamingTheMethodAndLine() {
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> map((Integer x) -> factorial(x), Integer.class, Integer.class));
        assertTrue(e.getMessage().contains("recursion in OpenCLKernelGeneratorTest.factorial is not supported on OpenCL"), e.getMessage());
        assertTrue(e.getMessage().contains("OpenCLKernelGeneratorTest.java:"), e.getMessage());
    }

    @Test
    void fastMathDropsTheStrictPragmaAndOptions() throws Exception {
        Method apply = Function.class.getMethod("apply", Object.class);
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        KernelGraph graph = new KernelGraphCompiler().compile(f, apply, new KernelSignature(List.of(ValueShape.ofBoxed(Float.class)), ValueShape.ofBoxed(Float.class)));
        KernelSource fast = new OpenCLKernelGenerator(new GeneratorOptions(true)).map(graph, new MapKernelSpec(List.of(JavaKind.Float), List.of(JavaKind.Float)));
        assertFalse(fast.text().contains("FP_CONTRACT OFF"), fast.text());
        assertTrue(fast.buildOptions().contains("-cl-fast-relaxed-math"));
    }

    /**
     * -Djpai.exactDivSqrt: builtin keeps OpenCL's operators and the build option; double and fma call
     * their helpers for float / and sqrt (double ones stay operators) and drop the option, and the
     * double helpers make the program need fp64. Fast math keeps the relaxed operators whatever the
     * formulation.
     */
    @Test
    void eachFormulationOfFloatDivisionAndSqrtEmitsItsHelpersAndBuildOptions() throws Exception {
        Method apply = Function.class.getMethod("apply", Object.class);
        Function<Float, Float> f = x -> 1.0f / (float) Math.sqrt(x) + x / 3f + (float) (1.0 / Math.sqrt(x));
        KernelGraph graph = new KernelGraphCompiler().compile(f, apply, new KernelSignature(List.of(ValueShape.ofBoxed(Float.class)), ValueShape.ofBoxed(Float.class)));
        MapKernelSpec spec = new MapKernelSpec(List.of(JavaKind.Float), List.of(JavaKind.Float));
        KernelSource builtin = new OpenCLKernelGenerator(new GeneratorOptions(false, ExactFloatDivSqrt.BUILTIN)).map(graph, spec);
        assertFalse(builtin.text().contains("jpai_div_float") || builtin.text().contains("jpai_sqrt_float"), builtin.text());
        assertEquals(OpenCLKernelGenerator.JAVA_SEMANTICS_BUILD_OPTIONS, builtin.buildOptions());
        for (ExactFloatDivSqrt formulation : List.of(ExactFloatDivSqrt.DOUBLE, ExactFloatDivSqrt.FMA)) {
            KernelSource source = new OpenCLKernelGenerator(new GeneratorOptions(false, formulation)).map(graph, spec);
            String text = source.text();
            String suffix = "_float_" + formulation.optionValue() + "(";
            assertTrue(text.contains("static float jpai_div" + suffix) && text.contains("static float jpai_sqrt" + suffix), text);
            assertTrue(text.split(java.util.regex.Pattern.quote("jpai_div" + suffix), -1).length - 1 >= 2, "the float division x / 3f calls the helper: " + text);
            if (formulation == ExactFloatDivSqrt.FMA) {
                assertTrue(text.contains("static float jpai_reciprocal_sqrt_float_fma(") && text.indexOf("static float jpai_reciprocal_sqrt_float_fma(") > text.indexOf("static float jpai_sqrt_float_fma("),
                                "1.0f / sqrt: one helper, defined after the two it calls: " + text);
            }
            assertTrue(text.contains("sqrt(convert_double(") || text.contains("sqrt(x"), "the double sqrt of the lambda stays: " + text);
            assertTrue(text.contains("cl_khr_fp64"), "both programs use double: " + text);
            assertEquals("", source.buildOptions(), "no option slows the float / and sqrt the helpers replaced");
            assertTrue(text.contains("#pragma OPENCL FP_CONTRACT OFF"), text);
        }
        KernelSource fast = new OpenCLKernelGenerator(new GeneratorOptions(true, ExactFloatDivSqrt.FMA)).map(graph, spec);
        assertFalse(fast.text().contains("jpai_div_float") || fast.text().contains("jpai_sqrt_float"), fast.text());
        assertEquals(OpenCLKernelGenerator.FAST_MATH_BUILD_OPTIONS, fast.buildOptions());
        assertEquals(ExactFloatDivSqrt.FMA, ExactFloatDivSqrt.fromOptionValue(" FMA "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ExactFloatDivSqrt.fromOptionValue("rsqrt"));
        assertTrue(e.getMessage().contains("builtin, double or fma"), e.getMessage());
    }
}
