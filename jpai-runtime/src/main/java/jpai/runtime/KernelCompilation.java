package jpai.runtime;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jpai.DataType;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.PhaseTimings;
import jpai.compiler.ValueShape;
import jpai.ocl.KernelSource;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.ocl.ReduceKernelSpec;
import jpai.runtime.exec.CombiningTree;

/**
 * Compiles a function to an OpenCL map kernel the way the runtime does (the same shapes, captures,
 * compiler and generator), but uncached and timed: for compile-time benchmarks and tools. Nothing
 * is built or launched, and the runtime's {@code KernelCache} is neither read nor filled.
 */
public final class KernelCompilation {

    private static final Method FUNCTION_APPLY = applyMethod();
    private static final Method BINARY_APPLY = binaryApplyMethod();

    /**
     * One compilation.
     *
     * @param graphNanos Graal graph building (parsing, inlining, Graal's phases and ours)
     * @param generationNanos OpenCL C generation from the graph
     * @param phases the compiler's steps, timed (of the mapper, for a fused reduction)
     * @param kernel the generated program
     */
    public record Result(long graphNanos, long generationNanos, PhaseTimings phases, KernelSource kernel) {
        public long totalNanos() {
            return graphNanos + generationNanos;
        }
    }

    private KernelCompilation() {
    }

    /**
     * Compiles {@code function} as the map of {@code input} elements to {@code output} elements.
     *
     * @throws jpai.compiler.KernelBailoutException if it does not compile to a kernel
     */
    public static Result map(Function<?, ?> function, DataType input, DataType output) {
        KernelSignature signature = new KernelSignature(List.of(KernelShapes.of(input)), KernelShapes.of(output), KernelShapes.capturesOf(function));
        KernelGraphCompiler compiler = new KernelGraphCompiler();
        long start = System.nanoTime();
        KernelGraph graph = compiler.compile(function, FUNCTION_APPLY, signature);
        long built = System.nanoTime();
        KernelSource kernel = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(KernelShapes.kinds(input), KernelShapes.kinds(output)));
        long generated = System.nanoTime();
        return new Result(built - start, generated - built, graph.timings(), kernel);
    }

    /**
     * Compiles the reduction of {@code input} elements mapped by {@code mapper} to {@code element}s
     * and combined by {@code combiner}, fused into one kernel as the runtime does for
     * {@code map(mapper).reduce(combiner, identity)}; {@code mapper} may be null.
     */
    public static Result reduce(BinaryOperator<?> combiner, DataType element, Function<?, ?> mapper, DataType input) {
        KernelGraphCompiler compiler = new KernelGraphCompiler();
        ValueShape shape = KernelShapes.of(element);
        long start = System.nanoTime();
        KernelGraph combinerGraph = compiler.compile(combiner, BINARY_APPLY, new KernelSignature(List.of(shape, shape), shape, KernelShapes.capturesOf(combiner)));
        KernelGraph mapperGraph = mapper == null ? null
                        : compiler.compile(mapper, FUNCTION_APPLY, new KernelSignature(List.of(KernelShapes.of(input)), shape, KernelShapes.capturesOf(mapper)));
        long built = System.nanoTime();
        DataType inputType = mapper == null ? element : input;
        KernelSource kernel = new OpenCLKernelGenerator().reduce(combinerGraph, mapperGraph, new ReduceKernelSpec(KernelShapes.kinds(inputType), KernelShapes.kinds(element), CombiningTree.LEAF));
        long generated = System.nanoTime();
        PhaseTimings phases = mapperGraph == null ? combinerGraph.timings() : mapperGraph.timings();
        return new Result(built - start, generated - built, phases, kernel);
    }

    private static Method binaryApplyMethod() {
        try {
            return BiFunction.class.getMethod("apply", Object.class, Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static Method applyMethod() {
        try {
            return Function.class.getMethod("apply", Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
