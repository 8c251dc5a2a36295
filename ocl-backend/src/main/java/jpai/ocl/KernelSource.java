package jpai.ocl;

import java.util.List;

import jpai.compiler.CapturedValue;

/**
 * A generated OpenCL program, ready for the runtime to build and launch.
 *
 * @param kernelName the {@code __kernel} entry point
 * @param text the whole OpenCL C source
 * @param buildOptions the options {@code clBuildProgram} needs for Java's semantics
 * @param parameters the kernel's arguments, in order
 * @param captures the values the kernel's functions captured, in slot order (the slot of a
 *            {@link KernelParameter.Role#CAPTURED_SCALAR}, {@link KernelParameter.Role#CAPTURED_ARRAY}
 *            or {@link KernelParameter.Role#CAPTURED_ARRAY_LENGTH} parameter indexes this list); the
 *            runtime reads each field from the functional object it belongs to (for a reduction
 *            with a mapper: the mapper's captures first, then the combiner's)
 */
public record KernelSource(String kernelName, String text, String buildOptions, List<KernelParameter> parameters, List<CapturedValue> captures, List<Long> requiredLocalSize,
                List<String> notes) {

    public KernelSource {
        parameters = List.copyOf(parameters);
        captures = List.copyOf(captures);
        requiredLocalSize = List.copyOf(requiredLocalSize);
        notes = List.copyOf(notes);
    }

    /** A kernel that runs with any work-group size and has nothing to say. */
    public KernelSource(String kernelName, String text, String buildOptions, List<KernelParameter> parameters, List<CapturedValue> captures) {
        this(kernelName, text, buildOptions, parameters, captures, List.of(), List.of());
    }

    /** Whether the kernel declares a parameter of {@code role} (a {@link KernelParameter.Role#STATUS}: it may exit). */
    public boolean declares(KernelParameter.Role role) {
        for (KernelParameter parameter : parameters) {
            if (parameter.role() == role) {
                return true;
            }
        }
        return false;
    }

    /**
     * The work-group size per NDRange dimension (dimension 0 first) the kernel was written for and
     * declares with {@code reqd_work_group_size} (a kernel with {@code __local} tiles: docs/backend.md,
     * "Tiling"): the launch must use exactly it, never a smaller one. Empty: any size.
     */
    @Override
    public List<Long> requiredLocalSize() {
        return requiredLocalSize;
    }

    /**
     * The text's hash, which {@link String} computes once and keeps: the runtime looks programs up
     * by their source on every launch, and a record's own hash would walk the parameter and capture
     * lists each time. Equal sources have equal texts, so this agrees with {@code equals}.
     */
    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** A program whose kernel captures nothing (hand-written kernels, tests). */
    public KernelSource(String kernelName, String text, String buildOptions, List<KernelParameter> parameters) {
        this(kernelName, text, buildOptions, parameters, List.of());
    }
}
