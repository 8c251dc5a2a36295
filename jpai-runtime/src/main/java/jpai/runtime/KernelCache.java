package jpai.runtime;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import jdk.vm.ci.meta.JavaKind;
import jpai.DataType;
import jpai.ElementType;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;
import jpai.ocl.KernelSource;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.runtime.profile.Profiler;

/**
 * The kernels compiled from one user function, one per data type it was applied to, or the reason
 * there is none. Thread-safe; each kernel is compiled once.
 */
final class KernelCache {

    /**
     * What the compiler made of the function for one data type.
     *
     * @param kernel the OpenCL program, or null
     * @param bailout why there is no kernel, or null
     * @param description the function as messages name it ("lambda at Saxpy.java:42")
     */
    record Compiled(KernelSource kernel, String bailout, String description) {
    }

    private static final Method FUNCTION_APPLY = method(Function.class, "apply", Object.class);
    private static final Method BINARY_APPLY = method(java.util.function.BiFunction.class, "apply", Object.class, Object.class);

    private final Object function;
    private final Method interfaceMethod;
    private final ConcurrentHashMap<List<DataType>, Compiled> kernels = new ConcurrentHashMap<>();
    private volatile String description;

    KernelCache(Function<?, ?> function) {
        this.function = function;
        this.interfaceMethod = FUNCTION_APPLY;
    }

    KernelCache(BinaryOperator<?> operator) {
        this.function = operator;
        this.interfaceMethod = BINARY_APPLY;
    }

    /** The function as messages name it: "lambda at Saxpy.java:42", or its class when Graal is not there. */
    String description() {
        String known = description;
        if (known == null) {
            try {
                known = new KernelGraphCompiler().describe(function, interfaceMethod).displayName();
            } catch (RuntimeException | LinkageError e) {
                known = function.getClass().getName();
            }
            description = known;
        }
        return known;
    }

    /**
     * A name for profiles, cheap to get: the description once something asked for it, until then
     * the function's class (finding the source line needs Graal, which a Java-only run never loads).
     */
    String nameForProfiles() {
        String known = description;
        return known != null ? known : function.getClass().getSimpleName();
    }

    /** The map kernel for {@code input} elements giving {@code output} elements. */
    Compiled forMap(DataType input, DataType output) {
        return kernels.computeIfAbsent(List.of(input, output), key -> compileMap(input, output));
    }

    /** The reduce kernel for elements of {@code type}. */
    Compiled forReduce(DataType type) {
        return kernels.computeIfAbsent(List.of(type), key -> new Compiled(null, "reductions are not compiled to OpenCL yet", description()));
    }

    private Compiled compileMap(DataType input, DataType output) {
        KernelGraphCompiler compiler;
        try {
            compiler = new KernelGraphCompiler();
        } catch (RuntimeException | LinkageError e) {
            return new Compiled(null, "the Graal compiler is not available (" + e.getMessage() + "); start java with the flags in build/jpai.argfile", description());
        }
        if (!(input instanceof ElementType in) || !(output instanceof ElementType out)) {
            return new Compiled(null, "tuples are not compiled to OpenCL yet", description());
        }
        try {
            KernelSignature signature = new KernelSignature(List.of(ValueShape.ofBoxed(in.boxClass())), ValueShape.ofBoxed(out.boxClass()));
            long start = System.nanoTime();
            KernelGraph graph = compiler.compile(function, interfaceMethod, signature);
            long compiled = System.nanoTime();
            Profiler.graal(compiled - start);
            KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(kind(in)), kind(out)));
            Profiler.codeGeneration(System.nanoTime() - compiled);
            dump(graph, source);
            return new Compiled(source, null, description());
        } catch (KernelBailoutException e) {
            return new Compiled(null, e.getMessage(), description());
        }
    }

    private static void dump(KernelGraph graph, KernelSource source) {
        Path dir = JpaiOptions.dumpOpenCL();
        if (dir == null) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(graph.lambda().identifier() + "." + source.kernelName() + ".cl"), source.text());
        } catch (IOException e) {
            Explain.notice("could not write the kernel dump to " + dir + ": " + e.getMessage());
        }
    }

    static JavaKind kind(ElementType type) {
        return JavaKind.fromJavaClass(type.primitiveClass());
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
