package jpai.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jdk.graal.compiler.graph.Node;
import jdk.graal.compiler.nodes.NodeView;
import jdk.graal.compiler.nodes.ParameterNode;
import jdk.graal.compiler.nodes.ReturnNode;
import jdk.graal.compiler.nodes.StructuredGraph;
import jdk.graal.compiler.nodes.calc.IsNullNode;
import jdk.graal.compiler.nodes.extended.BoxNode;
import jdk.graal.compiler.nodes.extended.UnboxNode;
import jdk.graal.compiler.nodes.java.InstanceOfNode;
import jdk.vm.ci.meta.JavaKind;

class KernelGraphCompilerTest {

    static final Method APPLY = applyMethod();

    static Method applyMethod() {
        try {
            return Function.class.getMethod("apply", Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    static KernelGraph compile(Function<?, ?> function, Class<?> in, Class<?> out) {
        return new KernelGraphCompiler().compile(function, APPLY, new KernelSignature(List.of(ValueShape.ofBoxed(in)), ValueShape.ofBoxed(out)));
    }

    static long count(StructuredGraph graph, Class<? extends Node> type) {
        return graph.getNodes().filter(type).count();
    }

    @Test
    void floatLambdaHasNoBoxingNullChecksOrCasts() {
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        KernelGraph kernel = compile(f, Float.class, Float.class);
        StructuredGraph graph = kernel.graph();
        assertEquals(0, count(graph, IsNullNode.class), "IsNull left");
        assertEquals(0, count(graph, UnboxNode.class), "Unbox left");
        assertEquals(0, count(graph, BoxNode.class), "Box left");
        assertEquals(0, count(graph, InstanceOfNode.class), "checkcast left");
        ParameterNode argument = kernel.inputs().argumentComponent(0, 0);
        assertEquals(JavaKind.Float, argument.getStackKind());
        for (ReturnNode ret : graph.getNodes(ReturnNode.TYPE)) {
            assertEquals(JavaKind.Float, ret.result().getStackKind());
        }
    }

    @Test
    void integerCacheBoxingIsRemovedToo() {
        Function<Integer, Integer> f = x -> x * 31 + 7;
        KernelGraph kernel = compile(f, Integer.class, Integer.class);
        StructuredGraph graph = kernel.graph();
        assertEquals(0, count(graph, BoxNode.class));
        assertEquals(0, count(graph, UnboxNode.class));
        assertEquals(JavaKind.Int, kernel.inputs().argumentComponent(0, 0).stamp(NodeView.DEFAULT).getStackKind());
    }

    @Test
    void identityReturnsTheBarePrimitive() {
        Function<Double, Double> f = x -> x;
        StructuredGraph graph = compile(f, Double.class, Double.class).graph();
        assertEquals(0, count(graph, UnboxNode.class));
        for (ReturnNode ret : graph.getNodes(ReturnNode.TYPE)) {
            assertTrue(ret.result() instanceof ParameterNode, "returns its argument: " + ret.result());
            assertEquals(JavaKind.Double, ret.result().getStackKind());
        }
    }

    @Test
    void lambdaIsNamedBySourceLine() {
        Function<Float, Float> f = x -> x + 1.0f; int line = 84;
        KernelGraph kernel = compile(f, Float.class, Float.class);
        assertEquals("KernelGraphCompilerTest.java", kernel.lambda().location().fileName());
        assertEquals(line, kernel.lambda().location().line());
        assertTrue(kernel.lambda().displayName().startsWith("lambda at KernelGraphCompilerTest.java:"), kernel.lambda().displayName());
        assertFalse(kernel.timings().steps().isEmpty());
    }

    @Test
    void argumentUsedAsObjectBailsOutWithTheLine() {
        Function<Float, Integer> f = x -> System.identityHashCode(x);
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> compile(f, Float.class, Integer.class));
        assertTrue(e.getMessage().contains("KernelGraphCompilerTest.java:"), e.getMessage());
    }

    /**
     * Issue 19 item 7: {@code Short.valueOf} is parsed as a box only once its cache class is
     * initialised; before that its inlined body loaded a box from the cache array, and the lambda
     * fell back ("uses an object (LoadIndexed)") in a JVM that had not boxed a small short yet. The
     * compiler now initialises every box cache first: no box and no array load is left, whatever
     * ran before (in a fresh test JVM this class's tests may be the first to box).
     */
    @Test
    void smallBoxesDoNotDependOnTheBoxCache() {
        List<KernelGraph> kernels = List.of(compile((Short s) -> (short) (s + 1), Short.class, Short.class), compile((Byte b) -> (byte) (b * 3), Byte.class, Byte.class),
                        compile((Character c) -> (char) (c + 1), Character.class, Character.class), compile((Long x) -> x * 3 + 1, Long.class, Long.class));
        for (KernelGraph kernel : kernels) {
            assertEquals(0, count(kernel.graph(), BoxNode.class), kernel.lambda().identifier());
            assertEquals(0, count(kernel.graph(), jdk.graal.compiler.nodes.java.LoadIndexedNode.class), kernel.lambda().identifier());
        }
        for (String cache : List.of("java.lang.Byte$ByteCache", "java.lang.Short$ShortCache", "java.lang.Character$CharacterCache", "java.lang.Long$LongCache")) {
            assertTrue(jpai.compiler.GraalAccess.get().providers().getMetaAccess().lookupJavaType(classNamed(cache)).isInitialized(), cache);
        }
    }

    private static Class<?> classNamed(String name) {
        try {
            return Class.forName(name, false, null);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }
}
