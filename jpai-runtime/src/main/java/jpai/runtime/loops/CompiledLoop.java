package jpai.runtime.loops;

import jdk.vm.ci.meta.JavaKind;
import jpai.compiler.loops.LoopBound;
import jpai.compiler.loops.ReductionOperator;
import jpai.ocl.KernelSource;

/**
 * What the compiler made of an accelerated method for one argument shape: the kernel of one
 * iteration and how the runtime sizes and finishes a call, or why there is no kernel.
 *
 * @param kernel the program, or null
 * @param first the loop's first index, from the arguments
 * @param limit the loop's limit, from the arguments
 * @param reduction the {@code @Reduce} variable's operator, or null
 * @param reductionKind its kind
 * @param reductionInitial its value before the loop, from the arguments
 * @param refusal why there is no kernel, or null
 * @param dependence whether the refusal is a loop-carried dependence (warned about always, once)
 */
record CompiledLoop(KernelSource kernel, LoopBound first, LoopBound limit, ReductionOperator reduction, JavaKind reductionKind, LoopBound reductionInitial, String refusal,
                boolean dependence) {

    static CompiledLoop refused(String refusal, boolean dependence) {
        return new CompiledLoop(null, null, null, null, null, null, refusal, dependence);
    }
}
