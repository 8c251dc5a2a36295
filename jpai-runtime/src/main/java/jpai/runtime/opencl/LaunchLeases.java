package jpai.runtime.opencl;

import jpai.runtime.memory.BufferLeases;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.opencl.KernelLaunch.Binding;
import jpai.runtime.opencl.KernelLaunch.ReadBuffer;
import jpai.runtime.opencl.KernelLaunch.UpdateBuffer;
import jpai.runtime.opencl.KernelLaunch.WriteBuffer;

/**
 * The leases a launch holds on the host memory of every array it reads or writes, from before its
 * first command until it has waited for its last: the driver reads and writes that memory while
 * commands are in flight, so an array closed meanwhile by another thread keeps its memory (and
 * its device copy) until the launch is done, instead of freeing it, or giving it to another array,
 * under the driver.
 */
final class LaunchLeases {

    private LaunchLeases() {
    }

    /**
     * Leases every buffer {@code launch} reads or writes.
     *
     * @throws IllegalStateException if one of them is closed (then none stays leased)
     */
    static BufferLeases of(KernelLaunch launch) {
        BufferLeases leases = BufferLeases.of();
        try {
            for (int b = 0; b < launch.bindings().size(); b++) {
                Binding binding = launch.bindings().get(b);
                ComponentBuffer buffer = switch (binding) {
                    case ReadBuffer read -> read.buffer();
                    case WriteBuffer write -> write.buffer();
                    case UpdateBuffer update -> update.buffer();
                    default -> null;
                };
                if (buffer != null) {
                    add(leases, buffer, binding.index());
                }
            }
        } catch (RuntimeException e) {
            leases.close();
            throw e;
        }
        return leases;
    }

    private static void add(BufferLeases leases, ComponentBuffer buffer, int argument) {
        try {
            leases.add(buffer);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the array bound to kernel argument " + argument + " was closed before the launch (by another thread?)", e);
        }
    }
}
