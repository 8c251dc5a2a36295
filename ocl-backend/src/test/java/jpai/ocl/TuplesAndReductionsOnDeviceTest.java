package jpai.ocl;

import static jpai.ocl.KernelTestSupport.BIFUNCTION_APPLY;
import static jpai.ocl.KernelTestSupport.FUNCTION_APPLY;
import static jpai.ocl.KernelTestSupport.assertSameValue;
import static jpai.ocl.KernelTestSupport.capturesOf;
import static jpai.ocl.KernelTestSupport.captureValues;
import static jpai.ocl.KernelTestSupport.compile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.KernelGraph;
import jpai.compiler.ValueShape;

/** Tuples as arguments and results (one buffer per component), and reductions with and without a mapper. */
class TuplesAndReductionsOnDeviceTest {

    /** The first pass's leaf width, as the runtime's combining order defines it. */
    private static final int LEAF = 16;

    /** A tuple as the runtime's API might define it. */
    record Tuple2<A, B>(A _1, B _2) {
    }

    static ValueShape.Tuple tuple(Class<?> first, Class<?> second) {
        try {
            return new ValueShape.Tuple(Tuple2.class, List.of(Tuple2.class.getDeclaredField("_1"), Tuple2.class.getDeclaredField("_2")),
                            List.of(ValueShape.ofBoxed(first), ValueShape.ofBoxed(second)));
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void tupleArgumentsAndResultsAreComponents() {
        Function<Tuple2<Float, Integer>, Tuple2<Integer, Float>> swapScale = t -> new Tuple2<>(t._2() * 2, t._1() + t._2());
        ValueShape.Tuple in = tuple(Float.class, Integer.class);
        ValueShape.Tuple out = tuple(Integer.class, Float.class);
        KernelGraph graph = compile(swapScale, FUNCTION_APPLY, List.of(in), out);
        KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(in.components(), out.components()));
        assertTrue(source.text().contains("(float x0, int x1, __private int *r0, __private float *r1)"), source.text());
        float[] firsts = {1.5f, -2f, Float.NaN, 0f};
        int[] seconds = {3, Integer.MAX_VALUE, -1, 0};
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().map(source, 4, List.of(firsts, seconds), out.components(), List.of());
        assertEquals(DeoptReason.NONE, result.reason());
        for (int i = 0; i < 4; i++) {
            Tuple2<Integer, Float> expected = swapScale.apply(new Tuple2<>(firsts[i], seconds[i]));
            assertSameValue(expected._1(), result.ints(0)[i], "component 1 of element " + i);
            assertSameValue(expected._2(), result.floats(1)[i], "component 2 of element " + i);
        }
    }

    @Test
    void reduceWithAMapperFoldsGroupsIntoPartials() {
        int n = 10_000;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 7919 - 5000;
        }
        int offset = 3;
        Function<Integer, Integer> mapper = x -> x * x + offset;
        BinaryOperator<Integer> sum = (a, b) -> a + b;
        KernelGraph mapperGraph = compile(mapper, FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelGraph combinerGraph = compile(sum, BIFUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().reduce(combinerGraph, mapperGraph, new ReduceKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Int), LEAF));
        assertEquals("jpai_reduce", source.kernelName());
        assertEquals(1, source.captures().size(), "the mapper's capture");
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().reduce(source, n, List.of(values), List.of(JavaKind.Int), captureValues(mapper, capturesOf(mapper)), List.of(0), LEAF, 64);
        assertEquals(10, result.ints(0).length, "625 leaves in groups of 64");
        assertEquals(DeoptReason.NONE, result.reason());
        int device = 0;
        for (int partial : result.ints(0)) {
            device = sum.apply(device, partial);
        }
        List<Integer> mapped = new ArrayList<>();
        for (int value : values) {
            mapped.add(mapper.apply(value));
        }
        assertEquals(KernelTestSupport.reduceInJava(0, sum, mapped), device);
    }

    @Test
    void reduceOfTuplesWithoutAMapper() {
        BinaryOperator<Tuple2<Integer, Long>> maxAndSum = (a, b) -> new Tuple2<>(Math.max(a._1(), b._1()), a._2() + b._2());
        ValueShape.Tuple element = tuple(Integer.class, Long.class);
        KernelGraph combiner = compile(maxAndSum, BIFUNCTION_APPLY, List.of(element, element), element);
        KernelSource source = new OpenCLKernelGenerator().reduce(combiner, null, new ReduceKernelSpec(element.components(), element.components(), LEAF));
        int n = 1000;
        int[] firsts = new int[n];
        long[] seconds = new long[n];
        List<Tuple2<Integer, Long>> elements = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            firsts[i] = (i * 37) % 1001 - 500;
            seconds[i] = (long) i << 33;
            elements.add(new Tuple2<>(firsts[i], seconds[i]));
        }
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().reduce(source, n, List.of(firsts, seconds), element.components(), List.of(), List.of(Integer.MIN_VALUE, 0L), LEAF, 32);
        assertEquals(DeoptReason.NONE, result.reason());
        Tuple2<Integer, Long> device = new Tuple2<>(Integer.MIN_VALUE, 0L);
        for (int g = 0; g < result.ints(0).length; g++) {
            device = maxAndSum.apply(device, new Tuple2<>(result.ints(0)[g], result.longs(1)[g]));
        }
        assertEquals(KernelTestSupport.reduceInJava(new Tuple2<>(Integer.MIN_VALUE, 0L), maxAndSum, elements), device);
    }

    @Test
    void aFailingMapperInAReductionReportsIt() {
        Function<Integer, Integer> mapper = x -> 100 / x;
        BinaryOperator<Integer> sum = (a, b) -> a + b;
        KernelGraph mapperGraph = compile(mapper, FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelGraph combinerGraph = compile(sum, BIFUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().reduce(combinerGraph, mapperGraph, new ReduceKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Int), LEAF));
        int[] values = {1, 2, 3, 0, 5, 6, 7, 8};
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().reduce(source, values.length, List.of(values), List.of(JavaKind.Int), List.of(), List.of(0), LEAF, 4);
        assertEquals(DeoptReason.DIVISION_BY_ZERO, result.reason());
        assertEquals(3, result.status()[1]);
    }

    /**
     * "First non-zero" is associative but not commutative: each group's partial must be the first
     * non-zero element of its elements, in order, for odd lengths, local sizes that do not divide
     * them and both kinds of pass (the first, through the local tile, and a later one, leaves of one).
     */
    @Test
    void everyGroupKeepsItsElementsInOrder() {
        BinaryOperator<Integer> firstNonZero = (a, b) -> a != 0 ? a : b;
        KernelGraph combiner = compile(firstNonZero, BIFUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().reduce(combiner, null, new ReduceKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Int), LEAF));
        java.util.Random random = new java.util.Random(11);
        for (int n : new int[] {1, 2, 15, 17, 1023, 1025, 16_387}) {
            int[] values = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(9) == 0 ? i + 1 : 0;
            }
            for (int localSize : new int[] {2, 8, 64}) {
                for (int leafWidth : new int[] {LEAF, 1}) {
                    OpenCLTestDevice.Result result = OpenCLTestDevice.get().reduce(source, n, List.of(values), List.of(JavaKind.Int), List.of(), List.of(0), leafWidth, localSize);
                    assertEquals(DeoptReason.NONE, result.reason());
                    int[] partials = result.ints(0);
                    long elementsPerGroup = (long) leafWidth * localSize;
                    for (int g = 0; g < partials.length; g++) {
                        int expected = 0;
                        for (long i = g * elementsPerGroup; i < Math.min(n, (g + 1) * elementsPerGroup) && expected == 0; i++) {
                            expected = values[(int) i];
                        }
                        assertEquals(expected, partials[g], "group " + g + " of " + n + " elements, local size " + localSize + ", leaf width " + leafWidth);
                    }
                }
            }
        }
    }

    /** A mapper that fails late in a group's tile is reported at its element, also in the last, partial group. */
    @Test
    void aMapperFailureWhileLoadingTheTileNamesItsElement() {
        Function<Integer, Integer> mapper = x -> 100 / x;
        BinaryOperator<Integer> sum = (a, b) -> a + b;
        KernelGraph mapperGraph = compile(mapper, FUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelGraph combinerGraph = compile(sum, BIFUNCTION_APPLY, List.of(ValueShape.ofBoxed(Integer.class), ValueShape.ofBoxed(Integer.class)), ValueShape.ofBoxed(Integer.class));
        KernelSource source = new OpenCLKernelGenerator().reduce(combinerGraph, mapperGraph, new ReduceKernelSpec(List.of(JavaKind.Int), List.of(JavaKind.Int), LEAF));
        int n = 5000;
        int[] values = new int[n];
        java.util.Arrays.fill(values, 7);
        values[4990] = 0;
        OpenCLTestDevice.Result result = OpenCLTestDevice.get().reduce(source, n, List.of(values), List.of(JavaKind.Int), List.of(), List.of(0), LEAF, 32);
        assertEquals(DeoptReason.DIVISION_BY_ZERO, result.reason());
        assertEquals(4990, result.status()[1]);
    }
}
