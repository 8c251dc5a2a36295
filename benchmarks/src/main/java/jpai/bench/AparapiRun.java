package jpai.bench;

import java.util.function.Supplier;

import com.aparapi.Kernel;
import com.aparapi.Range;

/**
 * An Aparapi version: a kernel in explicit buffer mode; each call puts the inputs, executes (one or
 * more passes), gets the outputs. Every execute is checked to have run on the OpenCL device.
 */
final class AparapiRun implements Run {

    private final AparapiSupport aparapi;
    private final Kernel kernel;
    private final Range[] passes;
    private final Runnable putInputs;
    private final Runnable getOutputs;
    private final Supplier<Output> output;
    private final Runnable beforePass;

    /**
     * @param passes     one range per execute in a call (e.g. two for a two-kernel step)
     * @param beforePass run before each execute (e.g. to advance the kernel's pass field), or null
     */
    AparapiRun(AparapiSupport aparapi, Kernel kernel, Runnable putInputs, Runnable getOutputs, Supplier<Output> output, Runnable beforePass, Range... passes) {
        this.aparapi = aparapi;
        this.kernel = kernel;
        this.passes = passes;
        this.putInputs = putInputs;
        this.getOutputs = getOutputs;
        this.output = output;
        this.beforePass = beforePass;
        kernel.setExplicit(true);
    }

    AparapiRun(AparapiSupport aparapi, Kernel kernel, Runnable putInputs, Runnable getOutputs, Supplier<Output> output, Range range) {
        this(aparapi, kernel, putInputs, getOutputs, output, null, range);
    }

    @Override
    public long run() {
        putInputs.run();
        long kernelNanos = 0;
        for (Range range : passes) {
            if (beforePass != null) {
                beforePass.run();
            }
            long nanos = aparapi.execute(kernel, range);
            kernelNanos = nanos < 0 || kernelNanos < 0 ? NO_KERNEL_TIME : kernelNanos + nanos;
        }
        getOutputs.run();
        return kernelNanos;
    }

    @Override
    public Output output() {
        return output.get();
    }

    @Override
    public String ranOn() {
        return aparapi.ranOn();
    }

    @Override
    public void close() {
        kernel.dispose();
    }
}
