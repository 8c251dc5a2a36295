package jpai.ocl;

import jdk.vm.ci.meta.JavaKind;

/**
 * One argument of a generated kernel, in the order {@code clSetKernelArg} takes them.
 *
 * @param index the argument index
 * @param name the name in the OpenCL source
 * @param role what the runtime binds to it
 * @param elementKind the Java kind of a buffer's elements, or of a scalar
 */
public record KernelParameter(int index, String name, Role role, JavaKind elementKind) {

    /** What the runtime passes. */
    public enum Role {
        /** A buffer the kernel reads: the component of an input array. */
        INPUT_BUFFER,
        /** A buffer the kernel writes: the component of the output array. */
        OUTPUT_BUFFER,
        /** The number of elements, a {@code long}. */
        LENGTH
    }
}
