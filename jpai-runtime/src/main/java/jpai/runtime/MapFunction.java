package jpai.runtime;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import jdk.vm.ci.meta.JavaKind;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.PArray;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.KernelGraph;
import jpai.compiler.KernelGraphCompiler;
import jpai.compiler.KernelSignature;
import jpai.compiler.ValueShape;
import jpai.ocl.KernelSource;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaThreadsMap;
import jpai.runtime.opencl.MapLauncher;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * {@code AF.map(f)}: runs {@code f} on every element, on the chosen OpenCL device when the compiler
 * can turn {@code f} into a kernel that computes what Java computes, else on Java threads.
 *
 * <p>Per input element type, the first {@code apply} finds the output type (by running {@code f} on
 * element 0, unless it was given) and compiles the kernel; later applies reuse both.
 */
public final class MapFunction<T, R> implements ArrayFunction<T, R> {

    private static final Method FUNCTION_APPLY = functionApply();

    private final Function<T, R> function;
    private final ElementType declaredOutput;
    private final ConcurrentHashMap<ElementType, ElementType> outputTypes = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<ElementType, CompiledMap> kernels = new ConcurrentHashMap<>();

    public MapFunction(Function<T, R> function, ElementType declaredOutput) {
        this.function = function;
        this.declaredOutput = declaredOutput;
    }

    /**
     * What the compiler made of the function for one input type: the kernel, or why there is none.
     *
     * @param description the function as messages name it ("lambda at Saxpy.java:42")
     */
    private record CompiledMap(KernelSource kernel, String bailout, String description) {
    }

    @Override
    @SuppressWarnings("unchecked")
    public PArray<R> apply(PArray<T> input) {
        Objects.requireNonNull(input, "map applied to a null PArray");
        if (input.isClosed()) {
            throw new IllegalStateException("map applied to a closed PArray");
        }
        ElementType outputType = outputTypes.computeIfAbsent(input.elementType(), type -> declaredOutput != null ? declaredOutput : inferOutputType(input));
        PArray<R> output = (PArray<R>) PArray.allocate(outputType, input.length());
        if (OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device) {
            CompiledMap compiled = kernels.computeIfAbsent(input.elementType(), type -> compile(type, outputType));
            String reason = compiled.bailout();
            if (reason == null) {
                try {
                    MapLauncher.run(OpenCLRuntime.context(device), compiled.kernel(), List.of(input), output);
                    return output;
                } catch (OpenCLRuntimeException e) {
                    reason = e.getMessage();
                }
            }
            fallBack(compiled.description(), reason);
        }
        JavaThreadsMap.run(function, input, output);
        return output;
    }

    private static void fallBack(String description, String reason) {
        String operation = "map of " + description;
        if (JpaiOptions.fallbackIsError()) {
            throw new FallbackException(operation + " cannot run on OpenCL: " + reason, null);
        }
        Explain.fallback(operation, reason);
    }

    private CompiledMap compile(ElementType inputType, ElementType outputType) {
        KernelGraphCompiler compiler;
        try {
            compiler = new KernelGraphCompiler();
        } catch (RuntimeException | LinkageError e) {
            return new CompiledMap(null, "the Graal compiler is not available (" + e.getMessage()
                            + "); start java with the flags in build/jpai.argfile", function.getClass().getName());
        }
        String description = compiler.describe(function, FUNCTION_APPLY).displayName();
        try {
            KernelSignature signature = new KernelSignature(List.of(ValueShape.ofBoxed(inputType.boxClass())), ValueShape.ofBoxed(outputType.boxClass()));
            KernelGraph graph = compiler.compile(function, FUNCTION_APPLY, signature);
            KernelSource source = new OpenCLKernelGenerator().map(graph, new MapKernelSpec(List.of(kind(inputType)), List.of(kind(outputType))));
            dump(graph, source);
            return new CompiledMap(source, null, description);
        } catch (KernelBailoutException e) {
            return new CompiledMap(null, e.getMessage(), description);
        }
    }

    /** Runtime type analysis: the output type is the class of {@code f(element 0)}. */
    private ElementType inferOutputType(PArray<T> input) {
        if (input.length() == 0) {
            throw new IllegalArgumentException("cannot find the output type of map from an empty input: give it, as in AF.map(f, Float.class)");
        }
        R first = function.apply(input.get(0));
        if (first == null) {
            throw new NullPointerException("the mapped function returned null for element 0; PArray elements cannot be null");
        }
        return ElementType.of(first.getClass());
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

    private static JavaKind kind(ElementType type) {
        return JavaKind.fromJavaClass(type.primitiveClass());
    }

    private static Method functionApply() {
        try {
            return Function.class.getMethod("apply", Object.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
