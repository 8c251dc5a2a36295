package jpai.runtime.opencl;

import java.util.ArrayList;
import java.util.List;

import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.opencl.KernelLaunch.Binding;
import jpai.runtime.opencl.KernelLaunch.ReadBuffer;
import jpai.runtime.opencl.KernelLaunch.WriteBuffer;

/**
 * The leases a launch holds on the host memory of every array it reads or writes, from before its
 * first command until it has waited for its last: the driver reads and writes that memory while
 * commands are in flight, so an array closed meanwhile by another thread keeps its memory (and
 * its device copy) until the launch is done, instead of freeing it, or giving it to another array,
 * under the driver.
 *
 * <p>Not thread-safe: one per launch, on the launching thread.
 */
final class LaunchLeases implements AutoCloseable {

    private final List<ComponentBuffer> leased = new ArrayList<>();

    /**
     * Leases every buffer {@code launch} reads or writes.
     *
     * @throws IllegalStateException if one of them is closed (then none stays leased)
     */
    static LaunchLeases of(KernelLaunch launch) {
        LaunchLeases leases = new LaunchLeases();
        try {
            for (Binding binding : launch.bindings()) {
                ComponentBuffer buffer = switch (binding) {
                    case ReadBuffer read -> read.buffer();
                    case WriteBuffer write -> write.buffer();
                    default -> null;
                };
                if (buffer != null) {
                    leases.add(buffer, binding.index());
                }
            }
        } catch (RuntimeException e) {
            leases.close();
            throw e;
        }
        return leases;
    }

    private void add(ComponentBuffer buffer, int argument) {
        try {
            buffer.acquireLease();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the array bound to kernel argument " + argument + " was closed before the launch (by another thread?)", e);
        }
        leased.add(buffer);
    }

    /** Releases every lease; the last one of a closed array frees it. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (ComponentBuffer buffer : leased) {
            try {
                buffer.releaseLease();
            } catch (RuntimeException e) {
                failure = e; // release the others all the same
            }
        }
        leased.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
