package jpai.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Supplier;

import jpai.DataType;
import jpai.Devices;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.exec.CombiningTree;
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
 * A reduction (or a fused map then reduce) split over several devices ({@code on(Devices)}), with
 * the bits of one device and of Java: {@link CombiningTree}'s tree depends on the length only, and
 * an aligned block of {@code 2^k} leaves is one of its nodes wherever it is computed. So each
 * device computes the first pass of the reduction (the node of each of its work-groups) over a part
 * made of whole blocks of the largest group of the set, the host reads those nodes back, and
 * combines them in order with the tree ({@link CombiningTree.Accumulator}, each device's nodes at the
 * level of its groups), as the device's later passes would. A part's device keeps its rows of the
 * input and every captured array ({@link DeviceReplicas}), as a split map does ({@link SplitMap}).
 *
 * <p>Exceptions: a part whose kernel exits makes the whole reduction run in Java, as on one
 * device (Java's exception then is the sequential fold's); the host's combines run in the
 * sequential fold's order and throw what it throws there.
 */
final class SplitReduce {


    private final SplitPlan plan;

    SplitReduce(Devices devices) {
        this.plan = new SplitPlan(devices);
    }

    Devices devices() {
        return plan.devices();
    }

    /** What one part did: its device's position in the set, its elements, the nodes it read back (at {@code level}), its time, its kernel's exit or null. */
    private record Part(int device, long elements, Object[] nodes, int level, long nanos, LaunchProfile profile, SplitPlan.Sent sent,
                    KernelDeoptimizedException exit) implements SplitPlan.PartReport {
    }

    /**
     * Reduces {@code input} (mapped by {@code first}'s mapper, if it has one) into one value of
     * {@code type}; null when Java must compute it (a fallback or a kernel exit, said already): a
     * reduction's value is never null (an array's elements and the identity never are).
     *
     * @param first the reduction's first-pass kernel (with the mapper of a fused map then reduce)
     * @param operator the combiner, for the host's combines of the parts' nodes
     */
    Object run(KernelCache.Compiled first, Object identity, DataType type, BinaryOperator<Object> operator, PArray<?> input, Supplier<String> operation,
                    KernelCache... functions) {
        List<DeviceChoice.OpenCL> set = plan.devicesOrFallBack(operation);
        if (set == null) {
            return null;
        }
        long n = input.length();
        if (n == 0) {
            return identity;
        }
        List<ComponentBuffer> leased = new ArrayList<>();
        try {
            List<DeviceContext> contexts = new ArrayList<>();
            long[] localSizes = new long[set.size()];
            long[] leavesPerGroup = new long[set.size()];
            long largestGroup = 1;
            for (int d = 0; d < set.size(); d++) {
                DeviceContext context = OpenCLRuntime.context(set.get(d));
                contexts.add(context);
                localSizes[d] = DeviceReduce.localSize(context, type);
                leavesPerGroup[d] = DeviceReduce.firstPassLeavesPerGroup(first, localSizes[d]);
                largestGroup = Math.max(largestGroup, leavesPerGroup[d]);
            }
            // parts of whole blocks of the largest group: every group of every device is then a node of the tree
            long block = CombiningTree.LEAF * largestGroup;
            long blocks = (n + block - 1) / block;
            long[] bounds = plan.split(blocks);
            List<ComponentBuffer> partInputs;
            try (PArray<?> probePartials = PArray.allocateUninitialized(type, 1)) {
                KernelBinding probe = new KernelBinding(first).common(input).reduction(identity, probePartials, localSizes[0], CombiningTree.LEAF, leavesPerGroup[0]);
                SplitPlan.leaseReadArrays(probe.launch(), leased); // each part's partials are its own
                partInputs = SplitPlan.partInputs(input, probe);
            }
            List<java.util.concurrent.Callable<Part>> running = new ArrayList<>();
            for (int d = 0; d < set.size(); d++) {
                long from = Math.min(n, bounds[d] * block);
                long to = Math.min(n, bounds[d + 1] * block);
                if (to > from) {
                    int device = d;
                    running.add(() -> runPart(device, contexts.get(device), first, identity, type, input, from, to, localSizes[device], leavesPerGroup[device],
                                    partInputs));
                }
            }
            SplitPlan.Parts<Part> outcome = SplitPlan.runAll(running);
            List<Part> parts = outcome.done();
            OpenCLRuntimeException failed = outcome.failed();
            if (failed != null) {
                Offload.fallBack(operation.get(), failed.getMessage());
                return null;
            }
            plan.report(parts, operation);
            for (Part part : parts) {
                if (part.exit() != null) {
                    KernelExits.handle(operation.get(), part.exit(), "the operation re-ran in Java", n, functions);
                    return null;
                }
            }
            CombiningTree.Accumulator tree = new CombiningTree.Accumulator(operator);
            for (Part part : parts) { // in the order of their devices, which is the order of their parts
                for (Object node : part.nodes()) {
                    tree.push(node, part.level());
                }
            }
            return tree.root(identity);
        } finally {
            for (ComponentBuffer buffer : leased) {
                buffer.releaseLease();
            }
        }
    }

    private static Part runPart(int device, DeviceContext context, KernelCache.Compiled first, Object identity, DataType type, PArray<?> input, long from, long to,
                    long localSize, long leavesPerGroup, List<ComponentBuffer> partInputs) {
        long start = System.nanoTime();
        long groupElements = CombiningTree.LEAF * leavesPerGroup;
        long totalGroups = (input.length() + groupElements - 1) / groupElements;
        long firstGroup = from / groupElements;
        long endGroup = (to + groupElements - 1) / groupElements;
        try (PArray<?> partials = PArray.allocateUninitialized(type, totalGroups)) {
            KernelBinding binding = new KernelBinding(first).common(input).reduction(identity, partials, localSize, CombiningTree.LEAF, leavesPerGroup);
            KernelLaunch launch = binding.launch();
            launch.localSize(localSize).globalSize((endGroup - firstGroup) * localSize).firstItem(firstGroup * localSize);
            // the kernel writes its groups' partials, which come back within the launch
            SplitPlan.Sent sent = SplitPlan.place(launch, context, partInputs, from, to, firstGroup, endGroup);
            LaunchResult result = context.launch(first.kernel(), launch);
            try {
                KernelBinding.checkStatus(result);
            } catch (KernelDeoptimizedException e) {
                return new Part(device, to - from, new Object[0], 0, System.nanoTime() - start, result.profile(), sent, e);
            }
            for (int c = 0; c < partials.componentCount(); c++) {
                PArrayStorage.buffer(partials, c).hostWritten();
            }
            Object[] nodes = new Object[(int) (endGroup - firstGroup)];
            for (int g = 0; g < nodes.length; g++) {
                nodes[g] = partials.get(firstGroup + g);
            }
            long nanos = System.nanoTime() - start;
            nanos += SplitPlan.slowedDown(device, result.profile().kernelNanos());
            return new Part(device, to - from, nodes, Long.numberOfTrailingZeros(leavesPerGroup), nanos, result.profile(), sent, null);
        }
    }
}
