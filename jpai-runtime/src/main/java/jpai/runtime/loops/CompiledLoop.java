package jpai.runtime.loops;

import java.util.List;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.CapturedValue;
import jpai.compiler.loops.LoopBound;
import jpai.compiler.loops.ReductionOperator;
import jpai.ocl.KernelParameter;
import jpai.ocl.KernelSource;

/**
 * What the compiler made of an accelerated method for one argument shape: the kernel of one
 * iteration and how the runtime sizes and finishes a call, or why there is no kernel.
 *
 * @param kernel the program, or null
 * @param firsts each parallel loop's first index, from the arguments: one per dimension of the
 *            kernel's index space, the outermost loop's first
 * @param limits each parallel loop's limit, from the arguments, likewise
 * @param reduction the {@code @Reduce} variable's operator, or null
 * @param reductionKind its kind
 * @param reductionInitial its value before the loop, from the arguments
 * @param refusal why there is no kernel, or null
 * @param dependence whether the refusal is a loop-carried dependence (warned about always, once)
 * @param innerNotParallel why a marked inner loop runs sequentially in each work-item, or null
 * @param firstArgument where the declared arguments start in a call's argument array: 1 for an
 *            instance method, whose receiver comes first
 * @param receiverFields an instance method's receiver's fields the kernel may read: its captured
 *            values after the declared arguments'
 * @param indexExitLengths the captured arrays whose lengths the 1-D index from 0 is checked against,
 *            the kernel's only exits, or null when it may exit otherwise ({@code IndexExits})
 * @param uncheckedKernel the kernel without those checks ({@code ParallelLoopCompiler}'s
 *            {@code trustIndexChecks}), for calls whose extent is within all those lengths; null when
 *            the kernel has no such checks
 */
record CompiledLoop(KernelSource kernel, List<LoopBound> firsts, List<LoopBound> limits, ReductionOperator reduction, JavaKind reductionKind, LoopBound reductionInitial, String refusal,
                boolean dependence, String innerNotParallel, int firstArgument, List<CapturedValue> receiverFields, List<Integer> indexExitLengths, KernelSource uncheckedKernel) {

    static CompiledLoop refused(String refusal, boolean dependence) {
        return new CompiledLoop(null, null, null, null, null, null, refusal, dependence, null, 0, List.of(), null, null);
    }

    /**
     * {@code fromGraph}, the lengths {@code IndexExits} found the only exits to check against, as
     * far as the kernels the backend wrote agree: the backend adds exits of its own that are no
     * guard in the graph (a division whose divisor has no zero check there, a negative array size),
     * so when the kernel that should have no exit left still has a status to write ({@code unchecked},
     * or {@code kernel} itself when the graph had no check), the loop may exit otherwise: null.
     */
    static List<Integer> confirmedIndexExits(List<Integer> fromGraph, KernelSource kernel, KernelSource unchecked) {
        if (fromGraph == null) {
            return null;
        }
        KernelSource exitFree = fromGraph.isEmpty() ? kernel : unchecked;
        return exitFree.declares(KernelParameter.Role.STATUS) ? null : fromGraph;
    }

    /**
     * The kernel for a call whose extent is within every length in {@link #indexExitLengths}: the
     * unchecked one when there is one (same parameters, no index checks, no exit), else {@link #kernel}.
     */
    KernelSource kernelFor(boolean indexChecksHold) {
        return indexChecksHold && uncheckedKernel != null ? uncheckedKernel : kernel;
    }

    /** How many dimensions the kernel's index space has: 1 to 3. */
    int dimensions() {
        return firsts.size();
    }
}
