package jpai.runtime;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.TriFunction;
import jpai.Tuple2;
import jpai.Tuple3;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.ClaimedChunks;
import jpai.runtime.exec.JavaMap;
import jpai.runtime.memory.HostReadHint;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.map(f)}: {@code out[i] = f(in[i])} for every element, on the executor it was given. On
 * {@link Executor#AUTO} and {@link Executor#ACCELERATOR} it runs on the chosen OpenCL device when
 * the compiler can turn {@code f} into a kernel that computes what Java computes, else on Java
 * threads, saying why with {@code -Djpai.explain=true}.
 *
 * <p>Immutable and thread-safe. Per input type, the first {@code apply} finds the output type (by
 * running {@code f} on element 0, unless it was given) and compiles the kernel; every later apply,
 * also of the same function placed on another executor with {@link #on}, reuses both.
 */
public final class MapFunction<T, R> implements ArrayFunction<T, R> {

    /** What all placements of one map share: the function, and what was learnt about it. */
    private static final class Definition<T, R> {
        final Function<T, R> function;
        final DataType declaredOutput;
        final ConcurrentHashMap<DataType, DataType> outputTypes = new ConcurrentHashMap<>();
        final KernelCache kernels;
        /** The output type of the last input type applied: most functions see one input type only. */
        private volatile TypePair lastTypes;
        /** Whether the caller reads the results on the host (then the device copies them back in the launch). */
        final HostReadHint resultReads = new HostReadHint();
        /** {@code AUTO}'s measured times of this function on either side ({@link JpaiOptions#COST_MODEL}). */
        final CostModel costs = new CostModel();

        Definition(Function<T, R> function, DataType declaredOutput, KernelCache kernels) {
            this.function = function;
            this.declaredOutput = declaredOutput;
            this.kernels = kernels;
        }

        DataType outputTypeFor(PArray<T> input) {
            DataType inputType = input.type();
            TypePair last = lastTypes;
            if (last != null && last.input() == inputType) {
                return last.output();
            }
            DataType output = outputTypes.computeIfAbsent(inputType, type -> declaredOutput != null ? declaredOutput : inferOutputType(this, input));
            lastTypes = new TypePair(inputType, output);
            return output;
        }
    }

    private record TypePair(DataType input, DataType output) {
    }

    private final Definition<T, R> definition;
    private final Executor executor;
    /** The devices an apply is split over ({@code on(Devices)}), or null for one device. */
    private final SplitMap split;

    public MapFunction(Function<T, R> function, DataType declaredOutput) {
        this(new Definition<>(Objects.requireNonNull(function), declaredOutput, new KernelCache(function)), Executor.AUTO);
    }

    /**
     * {@code AF.map2D(f)}: a map over pairs written as a function of the two components. Java runs
     * {@code f.apply(t._1(), t._2())}; the device compiles {@code f} itself, so that messages and
     * profiles name the user's lambda.
     */
    public static <A, B, R> MapFunction<Tuple2<A, B>, R> ofComponents(BiFunction<A, B, R> f, DataType declaredOutput) {
        Objects.requireNonNull(f);
        Function<Tuple2<A, B>, R> java = t -> f.apply(t._1(), t._2());
        return new MapFunction<>(new Definition<>(java, declaredOutput, KernelCache.ofComponentFunction(f, method(BiFunction.class, 2))), Executor.AUTO);
    }

    /** {@code AF.map3D(f)}: as {@link #ofComponents(BiFunction, DataType)} for triples. */
    public static <A, B, C, R> MapFunction<Tuple3<A, B, C>, R> ofComponents(TriFunction<A, B, C, R> f, DataType declaredOutput) {
        Objects.requireNonNull(f);
        Function<Tuple3<A, B, C>, R> java = t -> f.apply(t._1(), t._2(), t._3());
        return new MapFunction<>(new Definition<>(java, declaredOutput, KernelCache.ofComponentFunction(f, method(TriFunction.class, 3))), Executor.AUTO);
    }

    /** The functional interface's {@code apply} of {@code arity} object arguments. */
    private static java.lang.reflect.Method method(Class<?> type, int arity) {
        try {
            return type.getMethod("apply", java.util.Collections.nCopies(arity, Object.class).toArray(Class<?>[]::new));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private MapFunction(Definition<T, R> definition, Executor executor) {
        this(definition, executor, null);
    }

    private MapFunction(Definition<T, R> definition, Executor executor, SplitMap split) {
        this.definition = definition;
        this.executor = executor;
        this.split = split;
    }

    @Override
    public PArray<R> apply(PArray<T> input) {
        Inputs.check(input, "map");
        Profiler.begin(definition.kernels.labelForProfiles("map of "));
        try {
            return applyProfiled(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernel compiles once its Java threads are done
        }
    }

    @SuppressWarnings("unchecked")
    private PArray<R> applyProfiled(PArray<T> input) {
        DataType outputType = definition.outputTypeFor(input);
        // Every element is written, by the kernel or by Java, before anything reads it.
        // Tiering: the kernel if it is ready; if not, this apply runs tiered and Java threads write its
        // result, which then comes from plain memory, where they write it fastest (see
        // PArrayStorage.allocateUninitializedPlain; a kernel ready just after this look costs a transfer
        // from plain memory, no more).
        boolean tiering = Offload.mayTier(executor);
        KernelCache.Compiled ready = tiering ? definition.kernels.mapKernelIfReady(input.type(), outputType, indexDimensions(input)) : null;
        PArray<R> output = (PArray<R>) (tiering && ready == null ? PArrayStorage.allocateUninitializedPlain(outputType, input.length())
                        : PArray.allocateUninitialized(outputType, input.length()));
        try {
            switch (executor) {
                case SEQUENTIAL -> JavaMap.sequential(definition.function, input, output);
                case THREADS -> JavaMap.threads(definition.function, input, output);
                case AUTO, ACCELERATOR -> {
                    long computed = split != null ? runSplit(input, output) : runOnDevice(input, output, ready);
                    if (computed == TIERED) {
                        break; // tiered, or on Java threads by the cost model's choice: every element is computed
                    }
                    if (computed < input.length()) {
                        JavaMap.threads(definition.function, input, output, computed);
                    }
                }
            }
            return output;
        } catch (RuntimeException | Error e) {
            output.close();
            throw e;
        }
    }

    private static int indexDimensions(PArray<?> input) {
        int[] indexSpace = PArrayStorage.rangeExtents(input);
        return indexSpace == null ? 0 : indexSpace.length;
    }

    /**
     * This map on Java threads, its result in plain memory: for arrays that the runtime writes and
     * reads on Java threads alone, when a first apply runs tiered (a fused map-reduce's intermediate,
     * a fused pipeline's stages), where pinning a fresh block would cost more than the map (see
     * {@link PArrayStorage#allocateUninitializedPlain}).
     */
    @SuppressWarnings("unchecked")
    PArray<R> applyOnJavaThreadsInPlainMemory(PArray<T> input) {
        Inputs.check(input, "map");
        Profiler.begin(definition.kernels.labelForProfiles("map of "));
        try {
            PArray<R> output = (PArray<R>) PArrayStorage.allocateUninitializedPlain(definition.outputTypeFor(input), input.length());
            try {
                JavaMap.threads(definition.function, input, output);
                return output;
            } catch (RuntimeException | Error e) {
                output.close();
                throw e;
            }
        } finally {
            Profiler.end();
        }
    }

    /**
     * {@link #runOnDevice}'s answer for an apply run tiered ({@link TieredMap}) or where the cost model
     * chose: every element is computed.
     */
    private static final long TIERED = -1;

    /**
     * Tries the OpenCL device. Returns how many elements, from the first, hold Java's results when
     * it returns: {@link #TIERED} when the apply ran tiered or on Java threads by the cost model's
     * choice; all of them when the kernel ran to the end; none (after saying why) when the map must
     * run in Java; after a kernel exit, those before the lowest element that exited. A map
     * kernel writes nothing but its output elements and an element it completes took the path Java
     * takes, with no effect outside the element, so Java need only run the elements from the exit on
     * to give the sequential loop's results, effects and exception (docs/java-semantics.md,
     * "Re-execution after an exit").
     */
    private long runOnDevice(PArray<T> input, PArray<R> output, KernelCache.Compiled readyForTiering) {
        DeviceChoice.OpenCL device = Offload.device(executor, () -> "map of " + definition.kernels.description());
        if (device == null) {
            return 0;
        }
        int[] indexSpace = PArrayStorage.rangeExtents(input); // a range is read from no buffer: its work-items' ids are its elements
        int dimensions = indexSpace == null ? 0 : indexSpace.length;
        KernelCache.Compiled compiled;
        if (Offload.mayTier(executor)) {
            compiled = readyForTiering;
            if (compiled == null) {
                ClaimedChunks.Outcome first = TieredMap.run(definition.function, TieredMap.Kernels.of(definition.kernels, input.type(), output.type(), dimensions), device, input, output, indexSpace,
                                () -> "map of " + definition.kernels.description());
                definition.costs.javaRanTiered(executor, first); // Java's first pace, for the cost model
                return TIERED;
            }
        } else {
            compiled = definition.kernels.forMap(input.type(), output.type(), dimensions);
        }
        String reason = compiled.bailout();
        if (reason == null) {
            try {
                if (onJavaByCost(compiled, device, input, output, indexSpace)) {
                    return TIERED;
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                DeviceMap.run(device, compiled, input, output, indexSpace, definition.resultReads);
                definition.costs.deviceRan(input.length(), timed);
                return input.length();
            } catch (KernelDeoptimizedException e) {
                long first = e.kernelExited() ? e.element() : 0;
                String rerun = first == 0 ? "the operation re-ran in Java"
                                : "elements " + first + " to " + (input.length() - 1) + " re-ran in Java (the kernel's results before element " + first + " are Java's and were kept)";
                KernelExits.handle("map of " + compiled.description(), e, rerun, input.length() - first, definition.kernels);
                return first;
            } catch (OpenCLRuntimeException e) {
                reason = e.getMessage();
            }
        }
        Offload.fallBack("map of " + compiled.description(), reason);
        return 0;
    }

    /**
     * The map split over {@link #split}'s devices ({@link SplitMap}); returns how many elements, from
     * the first, hold Java's results, as {@link #runOnDevice} does.
     */
    private long runSplit(PArray<T> input, PArray<R> output) {
        KernelCache.Compiled compiled = definition.kernels.forMap(input.type(), output.type(), indexDimensions(input));
        if (compiled.bailout() != null) {
            Offload.fallBack("map of " + compiled.description(), compiled.bailout());
            return 0;
        }
        return split.run(definition.kernels, compiled, input, output, () -> "map of " + compiled.description());
    }

    /**
     * {@code AUTO}'s cost model ({@link CostModel}): when it prefers Java threads for this apply, runs
     * it there (or, to measure their pace, shares it with the device) and returns true; every element
     * is then computed. Else false: the device runs it.
     */
    private boolean onJavaByCost(KernelCache.Compiled compiled, DeviceChoice.OpenCL device, PArray<T> input, PArray<R> output, int[] indexSpace) {
        CostModel.Choice choice = Offload.chooseByCost(executor, definition.costs, input.length(), compiled.differsFromJvm() == null, () -> "map of " + compiled.description());
        if (choice == null || !choice.onJava()) {
            return false;
        }
        if (choice.sharesWithDevice()) {
            ClaimedChunks.Outcome shared = TieredMap.shareAfter(definition.function, definition.kernels, compiled, choice.javaBudgetNanos(), device,
                            input, output, indexSpace, () -> "map of " + compiled.description());
            definition.costs.javaRan(shared.takenOverFrom(), shared.javaNanos());
        } else {
            CostModel.Run timed = CostModel.Run.startIfModelled(executor);
            JavaMap.threads(definition.function, input, output);
            definition.costs.javaRan(input.length(), timed);
        }
        return true;
    }

    /**
     * The output type for elements of {@code inputType}, when known without running the function
     * (declared, or found by an earlier apply), else null.
     */
    DataType knownOutputType(DataType inputType) {
        return definition.declaredOutput != null ? definition.declaredOutput : definition.outputTypes.get(inputType);
    }

    /**
     * Records {@code result}'s type, the function's result for an element of {@code inputType}
     * (a fused pipeline ran element 0 through its stages in Java), as the output type for that
     * input type, and returns the type recorded.
     */
    DataType recordOutputType(DataType inputType, Object result) {
        DataType type = definition.declaredOutput != null ? definition.declaredOutput : DataType.of(result);
        DataType known = definition.outputTypes.putIfAbsent(inputType, type);
        return known != null ? known : type;
    }

    /** Runtime type analysis: the output type is the type of {@code f(element 0)}. */
    private static <T, R> DataType inferOutputType(Definition<T, R> definition, PArray<T> input) {
        if (input.length() == 0) {
            throw new IllegalArgumentException("cannot find the output type of the map of " + definition.kernels.description()
                            + " from an empty input: give it, as in AF.map(f, Float.class)");
        }
        R first = definition.function.apply(firstElement(input));
        if (first == null) {
            throw new NullPointerException("the map of " + definition.kernels.description() + " returned null for element 0; PArray elements cannot be null");
        }
        try {
            return DataType.of(first);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the map of " + definition.kernels.description() + " returns " + first.getClass().getName()
                            + ", which a PArray cannot hold: return a Byte, Short, Character, Integer, Long, Float, Double, Boolean or a Tuple2..Tuple8 of them", e);
        }
    }

    Function<T, R> function() {
        return definition.function;
    }

    Executor executor() {
        return executor;
    }

    /** Whether its applies are split over several devices ({@code on(Devices)}): it is then never fused with its neighbours. */
    boolean isSplit() {
        return split != null;
    }

    KernelCache kernels() {
        return definition.kernels;
    }

    /**
     * Element 0, read without bringing an input that lives on the device (an intermediate of a
     * composed function) back in full: only that element moves.
     */
    @SuppressWarnings("unchecked")
    static <T> T firstElement(PArray<T> input) {
        if (input.componentCount() == 1 && !input.isTuples()) {
            return (T) PArrayStorage.buffer(input, 0).element(0);
        }
        Object[] components = new Object[input.componentCount()];
        for (int i = 0; i < components.length; i++) {
            components[i] = PArrayStorage.buffer(input, i).element(0);
        }
        return (T) jpai.Tuple.of(components);
    }

    @Override
    public ArrayFunction<T, R> on(Executor where) {
        return where == executor && split == null ? this : new MapFunction<>(definition, Objects.requireNonNull(where, "on: the executor is null"));
    }

    /** This map split over {@code devices} ({@link SplitMap}): as {@code ACCELERATOR}, never tiered nor routed by cost. */
    @Override
    public ArrayFunction<T, R> on(jpai.Devices devices) {
        Objects.requireNonNull(devices, "on: the devices are null");
        return split != null && split.devices().equals(devices) ? this : new MapFunction<>(definition, Executor.ACCELERATOR, new SplitMap(devices));
    }

    @Override
    public String toString() {
        return "map of " + definition.kernels.description() + (split != null ? " on " + split.devices() : executor == Executor.AUTO ? "" : " on " + executor);
    }
}
