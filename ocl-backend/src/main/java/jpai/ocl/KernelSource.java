package jpai.ocl;

import java.util.List;

/**
 * A generated OpenCL program, ready for the runtime to build and launch.
 *
 * @param kernelName the {@code __kernel} entry point
 * @param text the whole OpenCL C source
 * @param buildOptions the options {@code clBuildProgram} needs for Java's semantics
 * @param parameters the kernel's arguments, in order
 */
public record KernelSource(String kernelName, String text, String buildOptions, List<KernelParameter> parameters) {

    public KernelSource {
        parameters = List.copyOf(parameters);
    }
}
