package jpai.compiler.phases;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.StructuredGraph;
import jpai.compiler.CapturedValue;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;

/** Compiles real lambdas for the phase tests. */
final class PhaseTestSupport {

    static final Method APPLY = method(Function.class, "apply", Object.class);
    static final Method BIAPPLY = method(BiFunction.class, "apply", Object.class, Object.class);

    /** A tuple as the runtime's API might define it. */
    record Pair<A, B>(A first, B second) {
    }

    private PhaseTestSupport() {
    }

    static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    static KernelGraph compile(Object function, KernelSignature signature) {
        return new KernelGraphCompiler().compile(function, function instanceof BiFunction ? BIAPPLY : APPLY, signature);
    }

    /** Compiles with {@code Math}'s functions as OpenCL built-ins ({@code -Djpai.math=opencl}). */
    static KernelGraph compileWithOpenCLMath(Function<?, ?> function, Class<?> in, Class<?> out) {
        KernelSignature signature = new KernelSignature(List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out), List.of());
        return new KernelGraphCompiler(jpai.compiler.MathFunctions.OPENCL_BUILTINS).compile(function, APPLY, signature);
    }

    static KernelGraph compile(Function<?, ?> function, Class<?> in, Class<?> out, List<CapturedValue> captures) {
        return compile(function, new KernelSignature(List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out), captures));
    }

    static ValueShape.Tuple pair(Class<?> first, Class<?> second) {
        try {
            return new ValueShape.Tuple(Pair.class, List.of(Pair.class.getDeclaredField("first"), Pair.class.getDeclaredField("second")),
                            List.of(ValueShape.ofBoxed(first), ValueShape.ofBoxed(second)));
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }

    /** The one instance field of a capturing lambda with the given type. */
    static Field capturedField(Object lambda, Class<?> type) {
        for (Field field : lambda.getClass().getDeclaredFields()) {
            if (field.getType() == type) {
                return field;
            }
        }
        throw new AssertionError("no captured " + type + " in " + lambda.getClass());
    }

    static long count(StructuredGraph graph, Class<? extends Node> type) {
        return graph.getNodes().filter(type).count();
    }
}
