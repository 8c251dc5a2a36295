package jpai.runtime;

import java.util.Objects;
import java.util.function.BinaryOperator;

import jpai.ArrayFunction;
import jpai.DataType;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.JavaScan;
import jpai.runtime.opencl.OpenCLRuntimeException;
import jpai.runtime.profile.Profiler;

/**
 * {@code AF.scan(operator, identity)} and {@code AF.scanExclusive}: every prefix of the elements
 * combined, in JPAI's one scan order on every executor (docs/java-semantics.md, "Scans"), so the
 * result of any associative operator is the sequential fold's, and a float scan's bits do not
 * depend on where it ran: on the device by {@link DeviceScan}, on the JVM by {@link JavaScan}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ScanFunction<T> implements ArrayFunction<T, T> {

    private final BinaryOperator<T> operator;
    private final T identity;
    private final boolean exclusive;
    private final DataType type;
    private final KernelCache kernels;
    /** {@code AUTO}'s measured times of this scan on either side ({@link JpaiOptions#COST_MODEL}), shared by its placements. */
    private final CostModel costs;
    private final Executor executor;

    public ScanFunction(BinaryOperator<T> operator, T identity, boolean exclusive) {
        this(operator, identity, exclusive, typeOfIdentity(identity, exclusive), new KernelCache(operator), new CostModel(), Executor.AUTO);
    }

    private ScanFunction(BinaryOperator<T> operator, T identity, boolean exclusive, DataType type, KernelCache kernels, CostModel costs, Executor executor) {
        this.operator = operator;
        this.identity = identity;
        this.exclusive = exclusive;
        this.type = type;
        this.kernels = kernels;
        this.costs = costs;
        this.executor = executor;
    }

    private static DataType typeOfIdentity(Object identity, boolean exclusive) {
        try {
            return DataType.of(identity);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the " + name(exclusive) + " identity is a " + identity.getClass().getName()
                            + ", which a PArray cannot hold: use a Byte, Short, Character, Integer, Long, Float, Double, Boolean or a Tuple2..Tuple8 of them", e);
        }
    }

    private static String name(boolean exclusive) {
        return exclusive ? "scanExclusive" : "scan";
    }

    @Override
    public PArray<T> apply(PArray<T> input) {
        Inputs.check(input, name(exclusive));
        Profiler.begin(kernels.labelForProfiles(exclusive ? "scanExclusive of " : "scan of "));
        try {
            return applyProfiled(input);
        } finally {
            Profiler.end();
            AfterApply.applyEnded(); // a tiered apply's kernels compile once its Java threads are done
        }
    }

    @SuppressWarnings("unchecked")
    private PArray<T> applyProfiled(PArray<T> input) {
        if (!input.type().equals(type)) {
            throw new IllegalArgumentException(name(exclusive) + " of " + kernels.description() + " with identity " + identity + " (a " + type.javaName()
                            + ") was applied to a PArray<" + input.type().javaName() + ">; the identity must have the elements' type");
        }
        PArray<T> output = (PArray<T>) PArray.allocateUninitialized(type, input.length());
        try {
            switch (executor) {
                case SEQUENTIAL -> JavaScan.sequential(operator, identity, input, output, exclusive);
                case THREADS -> JavaScan.threads(operator, identity, input, output, exclusive);
                case AUTO, ACCELERATOR -> {
                    if (!runOnDevice(input, output, FusedMappers.none(type))) {
                        CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                        JavaScan.threads(operator, identity, input, output, exclusive);
                        costs.javaRan(input.length(), timed); // Java's pace, for the cost model
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            output.close();
            throw e;
        }
        return output;
    }

    /**
     * Whether the device wrote {@code output}, the scan of the elements {@code mappers} make of
     * {@code input}'s (maps fused in front: {@link MapScanFunction}); false when Java must (after
     * saying why) or is chosen (tiering, the cost model).
     */
    boolean runOnDevice(PArray<?> input, PArray<T> output, FusedMappers mappers) {
        String operation = MapsFusedInto.operation(mappers, name(exclusive) + " of " + kernels.description());
        DeviceChoice.OpenCL device = Offload.device(executor, () -> operation);
        if (device == null) {
            return false;
        }
        boolean singlePass = DeviceScan.singlePass(device);
        if (Offload.mayTier(executor) && !kernels.compiledInBackground(java.util.List.of("scan", type, singlePass, mappers),
                        () -> singlePass ? java.util.List.of(kernels.forScan(type, true, mappers))
                                        : mappers.isEmpty() ? java.util.List.of(kernels.forReduce(type), kernels.forScan(type, false))
                                                        : java.util.List.of(kernels.forReduce(type, mappers), kernels.forScan(type, false, mappers), kernels.forReduce(type), kernels.forScan(type, false)),
                        () -> jpai.runtime.opencl.OpenCLRuntime.context(device))) {
            // on Java threads the scan has the device's combining order: the same bits either way
            Offload.ranTiered(() -> operation);
            return false;
        }
        KernelCache.Compiled firstTotals = singlePass ? null : kernels.forReduce(type, mappers);
        KernelCache.Compiled firstScan = kernels.forScan(type, singlePass, mappers);
        KernelCache.Compiled totals = singlePass ? null : kernels.forReduce(type);
        KernelCache.Compiled scan = singlePass ? null : kernels.forScan(type, false);
        String reason = null;
        for (KernelCache.Compiled compiled : java.util.Arrays.asList(firstTotals, firstScan, totals, scan)) {
            if (reason == null && compiled != null && compiled.bailout() != null) {
                reason = compiled.bailout();
            }
        }
        if (reason == null) {
            try {
                if (Offload.javaByCost(executor, costs, input.length(), () -> operation)) {
                    return false;
                }
                CostModel.Run timed = CostModel.Run.startIfModelled(executor);
                if (singlePass) {
                    DeviceScan.runSinglePass(device, firstScan, identity, type, input, output, exclusive);
                } else {
                    DeviceScan.run(device, firstTotals, firstScan, totals, scan, identity, type, input, output, exclusive);
                }
                costs.deviceRan(input.length(), timed);
                return true;
            } catch (KernelDeoptimizedException e) {
                if (e.reason() == jpai.ocl.DeoptReason.NO_FORWARD_PROGRESS && singlePass) {
                    SinglePass.gaveUp(device, operation);
                    return runOnDevice(input, output, mappers); // in several passes now
                }
                Offload.deoptimized(operation, e.getMessage() + MapsFusedInto.unfusedNote(mappers, "scan"), true);
                return false;
            } catch (OpenCLRuntimeException e) {
                reason = e.getMessage();
            }
        }
        MapsFusedInto.didNotRun(operation, reason, mappers, "scan");
        return false;
    }

    DataType type() {
        return type;
    }

    Executor executor() {
        return executor;
    }

    KernelCache kernels() {
        return kernels;
    }

    @Override
    public ArrayFunction<T, T> on(Executor where) {
        return where == executor ? this : new ScanFunction<>(operator, identity, exclusive, type, kernels, costs, Objects.requireNonNull(where, "on: the executor is null"));
    }

    /** Only maps split over several devices so far. */
    @Override
    public ArrayFunction<T, T> on(jpai.Devices devices) {
        java.util.Objects.requireNonNull(devices, "on: the devices are null");
        throw new UnsupportedOperationException(this + ": a scan does not split over several devices yet; only maps and reductions do (apply it on one device, or split the maps before it)");
    }

    @Override
    public String toString() {
        return name(exclusive) + " of " + kernels.description() + " from " + identity + (executor == Executor.AUTO ? "" : " on " + executor);
    }
}
