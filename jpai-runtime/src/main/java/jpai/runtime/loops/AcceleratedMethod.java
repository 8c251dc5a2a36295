package jpai.runtime.loops;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.vm.ci.meta.JavaKind;
import jpai.Executor;
import jpai.agent.MarkedLocal;
import jpai.compiler.KernelBailoutException;
import jpai.compiler.CapturedValue;
import jpai.compiler.ParallelLoopCompiler;
import jpai.ocl.KernelSource;
import jpai.compiler.Speculation;
import jpai.compiler.Speculations;
import jpai.compiler.ValueShape;
import jpai.compiler.loops.IndexedElements;
import jpai.compiler.loops.MarkedVariable;
import jpai.compiler.phases.LoopCarriedDependencesPhase.LoopCarriedDependenceException;
import jpai.ocl.GeneratorOptions;
import jpai.ocl.MapKernelSpec;
import jpai.ocl.OpenCLKernelGenerator;
import jpai.runtime.Explain;
import jpai.FallbackException;
import jpai.runtime.JpaiOptions;
import jpai.runtime.Offload;
import jpai.runtime.SpeculationHistory;
import jpai.runtime.profile.Profiler;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.InPlaceUpdate;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * One {@code @Accelerate} method: its original body, compiled once (its parameters' types are its
 * argument shape; array lengths are run-time values), and the decision for each call: the device, or
 * the original body in Java ({@link AcceleratedMethods#NOT_RUN}), with the reason said under
 * {@code -Djpai.explain=true}. A loop refused for a loop-carried dependence is warned about always,
 * once.
 */
final class AcceleratedMethod {

    private final Method body;
    private final List<MarkedVariable> parallel;
    private final MarkedVariable reduce;
    /** Whether the {@code @Reduce} variable was marked {@code reassociate = true}. */
    private final boolean reassociate;
    private volatile String name;
    private volatile CompiledLoop compiled;
    /** The speculations {@link #compiled} was compiled with. */
    private volatile Speculations compiledWith;
    /** The {@link #kernelOptions()} the loop was compiled with. */
    private volatile Object compiledFor;
    /** The speculations the method's kernel may still make, narrowed when one fails. */
    private final SpeculationHistory speculations = new SpeculationHistory();

    private AcceleratedMethod(Method body, List<MarkedVariable> parallel, MarkedVariable reduce, boolean reassociate) {
        this.body = body;
        this.parallel = parallel;
        this.reduce = reduce;
        this.reassociate = reassociate;
    }

    static AcceleratedMethod of(Method body, List<MarkedLocal> locals) {
        List<MarkedVariable> parallel = new ArrayList<>();
        MarkedVariable reduce = null;
        boolean reassociate = false;
        for (MarkedLocal local : locals) {
            MarkedVariable variable = new MarkedVariable(local.slot(), local.startPc(), local.endPc());
            if (local.kind() == MarkedLocal.Kind.PARALLEL) {
                parallel.add(variable);
            } else {
                reduce = variable;
                reassociate = local.kind() == MarkedLocal.Kind.REDUCE_REASSOCIATED;
            }
        }
        return new AcceleratedMethod(body, List.copyOf(parallel), reduce, reassociate);
    }

    /** The method as messages name it: "Saxpy::saxpy at Saxpy.java:12", or its class and name when Graal is not there. */
    String name() {
        String known = name;
        if (known == null) {
            try {
                known = "accelerated method " + new ParallelLoopCompiler().describe(body).displayName();
            } catch (RuntimeException | LinkageError e) {
                known = "accelerated method " + body.getDeclaringClass().getName() + "::" + body.getName().substring(jpai.compiler.LambdaDescription.ORIGINAL_BODY_PREFIX.length());
            }
            name = known;
        }
        return known;
    }

    /**
     * One call: its result on the device, or {@link AcceleratedMethods#NOT_RUN}. Profiled as an
     * apply is ({@code AF.lastProfile()}): the device's part, and whether the original body must run.
     */
    Object call(Object[] arguments) {
        Profiler.begin(name());
        try {
            return callOnDevice(arguments);
        } catch (FallbackException e) {
            throw e;
        } catch (InPlaceUpdate.UndoFailedException e) {
            // a PArray argument's data is not what the call started from: running the body in Java would compute from it
            throw new IllegalStateException(name() + " cannot run: " + e.getMessage() + "; compute the array's contents again", e);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            Offload.methodFallBack(name(), "JPAI failed (" + e + ")");
            return AcceleratedMethods.NOT_RUN;
        } finally {
            Profiler.end();
        }
    }

    private Object callOnDevice(Object[] arguments) {
        if (OpenCLRuntime.choice() instanceof DeviceChoice.JavaThreads none) {
            Explain.methodInJava(name(), "no OpenCL device is in use (" + none.why() + ")");
            return AcceleratedMethods.NOT_RUN;
        }
        DeviceChoice.OpenCL device = Offload.device(Executor.AUTO, this::name);
        if (device == null) {
            return AcceleratedMethods.NOT_RUN; // the JVM's set-up lacks a flag, said once
        }
        boolean instance = !Modifier.isStatic(body.getModifiers());
        Object[] declared = instance ? Arrays.copyOfRange(arguments, 1, arguments.length) : arguments;
        Map<Object, String> seen = RectangularArguments.identities();
        String problem = ArgumentChecks.problem(body, declared, seen);
        if (problem != null) {
            Offload.methodFallBack(name(), problem);
            return AcceleratedMethods.NOT_RUN;
        }
        CompiledLoop loop = compiled();
        if (loop.kernel() == null) {
            if (loop.dependence()) {
                Explain.notice("WARNING: " + name() + " runs sequentially in Java: " + loop.refusal());
            } else {
                Offload.methodFallBack(name(), loop.refusal());
            }
            return AcceleratedMethods.NOT_RUN;
        }
        Object[] values = ReceiverFields.values(loop, arguments);
        problem = ReceiverFields.problem(loop, values, declared.length, seen);
        if (problem != null) {
            Offload.methodFallBack(name(), problem);
            return AcceleratedMethods.NOT_RUN;
        }
        if (loop.innerNotParallel() != null) {
            Explain.methodPartlySequential(name(), loop.innerNotParallel());
        }
        return LoopLaunch.run(device, loop, arguments, values, name(), speculations);
    }

    /**
     * The compiled loop, compiled again when a speculation it makes has failed since (bounded:
     * {@link SpeculationHistory}), or when the options that shape its kernel changed since
     * ({@link #kernelOptions()}: {@code AF} functions key their kernels by them too).
     */
    private CompiledLoop compiled() {
        CompiledLoop known = compiled;
        Speculations allowed = speculations.allowed().without(Speculation.UNTAKEN_BRANCHES);
        Object options = kernelOptions();
        if (known == null || !compiledWith.isWithin(allowed) || !options.equals(compiledFor)) {
            synchronized (this) {
                known = compiled;
                if (known == null || !compiledWith.isWithin(allowed) || !options.equals(compiledFor)) {
                    if (known != null && known.kernel() != null && !compiledWith.isWithin(allowed)) {
                        Profiler.recompiled();
                    }
                    known = compile(allowed);
                    compiledWith = allowed;
                    compiledFor = options;
                    compiled = known;
                }
            }
        }
        return known;
    }

    /**
     * What, besides the speculations, decides the kernel's code: the generator's options (fast math,
     * division and sqrt, tiling), how {@code Math}'s functions are computed, and the unsafe
     * measurement switch; a property value that is not understood stands as its message (the
     * compilation then refuses with it, once per value).
     */
    private static Object kernelOptions() {
        try {
            return List.of(JpaiOptions.generatorOptions(), JpaiOptions.mathFunctions(), jpai.compiler.UnsafeExitCheckRemoval.requested());
        } catch (IllegalArgumentException e) {
            return String.valueOf(e.getMessage());
        }
    }

    private CompiledLoop compile(Speculations allowed) {
        boolean instance = !Modifier.isStatic(body.getModifiers());
        List<ValueShape> shapes = new ArrayList<>();
        Map<Integer, IndexedElements> indexed = new HashMap<>();
        Class<?>[] types = body.getParameterTypes();
        for (int k = 0; k < types.length; k++) {
            Class<?> type = types[k];
            if (type.isPrimitive()) {
                shapes.add(new ValueShape.Primitive(JavaKind.fromJavaClass(type)));
            } else if (type.isArray() && type.getComponentType().isPrimitive()) {
                shapes.add(new ValueShape.PrimitiveArray(JavaKind.fromJavaClass(type.getComponentType())));
            } else if (type.isArray() && type.getComponentType().isArray() && type.getComponentType().getComponentType().isPrimitive()) {
                shapes.add(new ValueShape.RectangularArray(JavaKind.fromJavaClass(type.getComponentType().getComponentType())));
            } else if (PArrayParameters.isPArray(body, k)) {
                JavaKind kind = PArrayParameters.declaredElementKind(body, k);
                if (kind == null) {
                    return CompiledLoop.refused("its parameter " + (k + 1) + " is a PArray without a scalar element type; declare it PArray<Float>, PArray<Integer>, ...", false);
                }
                shapes.add(new ValueShape.PrimitiveArray(kind)); // a buffer on the device, as an array is
                indexed.put(k, PArrayParameters.accessors(kind));
            } else {
                return CompiledLoop.refused("its parameter " + (k + 1) + " is a " + type.getSimpleName()
                                + "; accelerated methods take primitives, primitive arrays of one or two dimensions and PArrays of scalars", false);
            }
        }
        try {
            List<CapturedValue> fields = instance ? ReceiverFields.of(body) : List.of();
            long graalStart = System.nanoTime();
            ParallelLoopCompiler.LoopKernel loop = loopCompiler().compile(body, shapes, indexed, fields, parallel, reduce, reassociate, allowed);
            Profiler.graal(System.nanoTime() - graalStart);
            JavaKind reductionKind = null;
            if (loop.reduction() != null) {
                reductionKind = loop.graph().signature().resultComponents().get(0);
                if (!ReductionCombiners.supports(reductionKind) || JavaKind.fromJavaClass(body.getReturnType()) != reductionKind) {
                    return CompiledLoop.refused("its @Reduce variable is a " + reductionKind.getJavaName() + " returned as a " + body.getReturnType().getSimpleName()
                                    + "; reductions on the device are of int or long variables (float and double ones with @Reduce(reassociate = true)) returned as such", false);
                }
            }
            GeneratorOptions options;
            try {
                options = JpaiOptions.generatorOptions();
            } catch (IllegalArgumentException e) {
                return CompiledLoop.refused(e.getMessage(), false);
            }
            int dimensions = loop.firsts().size();
            var spec = new MapKernelSpec(java.util.Collections.nCopies(dimensions, JavaKind.Int), loop.graph().signature().resultComponents(), dimensions);
            long generationStart = System.nanoTime();
            var source = new OpenCLKernelGenerator(options).map(loop.graph(), spec);
            Profiler.codeGeneration(System.nanoTime() - generationStart);
            LoopKernelDump.write(loop.graph(), source);
            for (String note : source.notes()) {
                Explain.tiling(name(), note);
            }
            KernelSource unchecked = null;
            if (loop.indexExitLengths() != null && !loop.indexExitLengths().isEmpty()) {
                // the same loop without its index checks, for calls whose arrays are long enough
                long secondStart = System.nanoTime();
                ParallelLoopCompiler.LoopKernel trusting = loopCompiler().compile(body, shapes, indexed, fields, parallel, reduce, reassociate, allowed, true);
                Profiler.graal(System.nanoTime() - secondStart);
                secondStart = System.nanoTime();
                unchecked = new OpenCLKernelGenerator(options).map(trusting.graph(), spec);
                Profiler.codeGeneration(System.nanoTime() - secondStart);
                LoopKernelDump.write(trusting.graph(), unchecked, "unchecked");
            }
            List<Integer> indexExitLengths = CompiledLoop.confirmedIndexExits(loop.indexExitLengths(), source, unchecked);
            if (indexExitLengths == null) {
                unchecked = null; // it still has an exit: no call may run it without a status
            }
            return new CompiledLoop(source, loop.firsts(), loop.limits(), loop.reduction(), reductionKind, loop.reductionInitial(), null, false, loop.innerNotParallel(),
                            instance ? 1 : 0, fields, indexExitLengths, unchecked);
        } catch (LoopCarriedDependenceException e) {
            return CompiledLoop.refused(e.getMessage(), true);
        } catch (KernelBailoutException e) {
            if (e.isInternalError()) {
                Explain.notice("WARNING: " + name() + ": " + e.getMessage() + "; it runs in Java. Please report it.");
            }
            return CompiledLoop.refused(e.getMessage(), false);
        }
    }

    /** The loop compiler, computing {@code Math}'s functions as the runtime's options say ({@link JpaiOptions#mathFunctions()}). */
    private static ParallelLoopCompiler loopCompiler() {
        return new ParallelLoopCompiler(new jpai.compiler.KernelGraphCompiler(JpaiOptions.mathFunctions(), jpai.compiler.plugin.PhasePlugins.configured()));
    }

}
