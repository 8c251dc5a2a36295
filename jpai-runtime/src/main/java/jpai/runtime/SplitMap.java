package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jpai.Devices;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.DeviceContext;
import jpai.runtime.opencl.DeviceReplicas;
import jpai.runtime.opencl.KernelLaunch;
import jpai.runtime.opencl.LaunchProfile;
import jpai.runtime.opencl.LaunchResult;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/**
 * A map split over several devices ({@code f.on(Devices)}): each apply cuts the rows of the outermost
 * index (the elements, for a 1-D map) into one part per device, by shares that follow the parts'
 * measured times ({@link SplitPlan}), and runs the parts at once, one thread per device. A part's
 * device holds a copy of the input rows it maps and of every captured
 * array ({@link DeviceReplicas}), kept between applies and sent again only when the array changes or
 * the part moves; its results are copied into the host result at once, and the device keeps them as
 * its copy of that part, so that a split map applied next to the result finds it there.
 *
 * <p>The same kernel runs everywhere (compiled once; built per device), so results are the JVM's, as
 * on one device. A part whose kernel exits reports its lowest exiting element; Java then runs the
 * map from the lowest such element of all parts on, which gives the sequential loop's results and
 * exception. A part that cannot run (a driver error) makes the whole apply run in Java, as a
 * single-device failure does.
 *
 * <p>Thread-safe: concurrent applies of one function share its {@link SplitPlan}, whose record of the
 * parts' times they update in any order (a split is only a guess, never a result).
 */
final class SplitMap {

    private final SplitPlan plan;

    SplitMap(Devices devices) {
        this.plan = new SplitPlan(devices);
    }

    Devices devices() {
        return plan.devices();
    }

    /**
     * Runs the map of {@code compiled} over {@code input} into {@code output} in parts. Returns how
     * many elements, from the first, hold the kernel's (that is, Java's) results: all of them, or,
     * after a kernel exit, those before the lowest exiting element; 0 after saying why when the map
     * must run in Java.
     */
    <T, R> long run(KernelCache kernels, KernelCache.Compiled compiled, PArray<T> input, PArray<R> output, Supplier<String> operation) {
        List<DeviceChoice.OpenCL> set = plan.devicesOrFallBack(operation);
        if (set == null) {
            return 0;
        }
        int[] indexSpace = PArrayStorage.rangeExtents(input);
        long rows = DeviceMap.rows(input, indexSpace);
        long rowLength = DeviceMap.rowLength(indexSpace);
        long[] bounds = plan.split(rows);
        List<ComponentBuffer> leased = new ArrayList<>();
        try {
            List<DeviceContext> contexts = new ArrayList<>();
            for (DeviceChoice.OpenCL device : set) {
                contexts.add(OpenCLRuntime.context(device));
            }
            KernelBinding probe = DeviceMap.bindRows(contexts.get(0), compiled, input, output, indexSpace, 0, rows);
            SplitPlan.leaseReadArrays(probe.launch(), leased);
            for (int c = 0; c < output.componentCount(); c++) { // the result too: its parts are copied in at the end
                ComponentBuffer buffer = PArrayStorage.buffer(output, c);
                buffer.acquireLease();
                leased.add(buffer);
            }
            List<ComponentBuffer> partInputs = indexSpace == null ? SplitPlan.partInputs(input, probe) : List.of(); // an index space is read from no buffer
            List<java.util.concurrent.Callable<Part>> running = new ArrayList<>();
            for (int d = 0; d < set.size(); d++) {
                if (bounds[d + 1] > bounds[d]) {
                    int device = d;
                    DeviceContext context = contexts.get(d);
                    running.add(() -> runPart(device, context, compiled, input, output, indexSpace, bounds[device], bounds[device + 1], rowLength, partInputs));
                }
            }
            SplitPlan.Parts<Part> outcome = SplitPlan.runAll(running);
            List<Part> parts = outcome.done();
            OpenCLRuntimeException failed = outcome.failed();
            // every part is back in the host result (up to its exit): a host write, and each device's copy holds its part of it
            for (int c = 0; c < output.componentCount(); c++) {
                ComponentBuffer buffer = PArrayStorage.buffer(output, c);
                buffer.hostWritten();
                DeviceReplicas.of(buffer).partsWritten(buffer);
            }
            if (failed != null) {
                Offload.fallBack(operation.get(), failed.getMessage());
                return 0;
            }
            plan.report(parts, operation);
            long exited = input.length();
            KernelDeoptimizedException firstExit = null;
            for (Part part : parts) {
                if (part.exit() != null && part.javaFrom() < exited) {
                    exited = part.javaFrom();
                    firstExit = part.exit();
                }
            }
            if (firstExit != null) {
                long from = exited;
                KernelExits.handle(operation.get(), firstExit, "elements " + from + " to " + (input.length() - 1) + " re-ran in Java (the parts' results before element " + from
                                + " are Java's and were kept)", input.length() - from, kernels);
            }
            return exited;
        } finally {
            for (ComponentBuffer buffer : leased) {
                buffer.releaseLease();
            }
        }
    }

    /**
     * What one part did: its device's position in the set, its elements, its time, what it sent
     * (its launch's profile has the copy back), and, after a kernel exit, the exit and the element
     * Java must run from.
     */
    private record Part(int device, long elements, long nanos, LaunchProfile profile, SplitPlan.Sent sent, long javaFrom, KernelDeoptimizedException exit)
                    implements SplitPlan.PartReport {
    }

    private static Part runPart(int device, DeviceContext context, KernelCache.Compiled compiled, PArray<?> input, PArray<?> output, int[] indexSpace, long firstRow,
                    long endRow, long rowLength, List<ComponentBuffer> partInputs) {
        long start = System.nanoTime();
        KernelBinding binding = DeviceMap.bindRows(context, compiled, input, output, indexSpace, firstRow, endRow);
        KernelLaunch launch = binding.launch();
        long firstElement = firstRow * rowLength;
        long endElement = endRow * rowLength;
        SplitPlan.Sent sent = SplitPlan.place(launch, context, partInputs, firstElement, endElement, firstElement, endElement); // the results come back within the launch
        LaunchResult result = context.launch(compiled.kernel(), launch);
        KernelDeoptimizedException exit = null;
        long javaFrom = endElement;
        try {
            KernelBinding.checkStatus(result, indexSpace);
        } catch (KernelDeoptimizedException e) {
            exit = e;
            javaFrom = e.kernelExited() ? Math.max(firstElement, e.element()) : firstElement;
        }
        long nanos = System.nanoTime() - start;
        nanos += SplitPlan.slowedDown(device, result.profile().kernelNanos());
        return new Part(device, endElement - firstElement, nanos, result.profile(), sent, exit == null ? Long.MAX_VALUE : javaFrom, exit);
    }
}
