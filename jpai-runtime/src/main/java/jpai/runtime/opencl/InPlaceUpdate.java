package jpai.runtime.opencl;

import org.jocl.CLException;
import org.jocl.cl_command_queue;

import jpai.runtime.memory.ComponentBuffer;

/**
 * What undoes a kernel's in-place writes to one buffer's device copy ({@link KernelLaunch#updateBuffer}),
 * for a call that must leave the buffer as it was when an iteration exits on a Java exception path
 * (an accelerated method's {@code PArray} parameter: the original body then runs in Java on the
 * pre-call contents). Made before the launch by {@link DeviceContext#inPlaceUpdate}:
 *
 * <ul>
 * <li>when the host copy is current (the buffer was last written on the host, or brought back),
 * nothing is copied: {@link #undo()} forgets the device copy, and the host's is the pre-call one;</li>
 * <li>when the device copy is the newer one (a previous kernel wrote it and the host has not read
 * it), it is copied on the device first (one device-to-device copy of the buffer, much cheaper on a
 * GPU than bringing it to the host), and {@link #undo()} copies it back.</li>
 * </ul>
 *
 * {@link #close()} gives the saved copy back to the pool; call it in every case.
 */
public final class InPlaceUpdate implements AutoCloseable {

    private final DeviceContext context;
    private final ComponentBuffer host;
    private final DeviceResidency residency;
    /** The device copy's contents before the launch, or null when the host copy is current. */
    private DeviceBuffer saved;

    InPlaceUpdate(DeviceContext context, ComponentBuffer host, DeviceResidency residency, DeviceBuffer saved) {
        this.context = context;
        this.host = host;
        this.residency = residency;
        this.saved = saved;
    }

    /** Whether the device copy was saved (it was the newer one): what {@link #undo()} costs a copy. */
    public boolean savedDeviceCopy() {
        return saved != null;
    }

    /**
     * The pre-call contents could not be put back: the array's only current copy was on the device,
     * and what it holds now is unknown. The caller must not run the method in Java on it (it would
     * compute from wrong data) but tell the user.
     */
    public static final class UndoFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UndoFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Makes the buffer's contents those before the launch again.
     *
     * @throws UndoFailedException if the copy back fails (the device copy stays the newer one, as it
     *             was: reading it shows what the driver left, or says that the device was lost)
     */
    public void undo() {
        if (saved == null) {
            residency.discardAfterFailure(false);
            return;
        }
        cl_command_queue queue;
        try {
            queue = context.queues().take("restoring an array's device copy");
        } catch (RuntimeException e) {
            throw new UndoFailedException("a PArray's contents from before the call could not be restored on " + context.device().name() + " (" + e.getMessage() + ")", e);
        }
        try {
            residency.restore(host, saved, queue);
        } catch (CLException e) {
            RuntimeException failure = context.failure("restoring the device copy of a buffer of " + host.byteSize() + " bytes", e);
            throw new UndoFailedException("a PArray's contents from before the call could not be restored on " + context.device().name() + " (" + failure.getMessage() + ")", failure);
        } finally {
            context.queues().giveBack(queue);
        }
    }

    @Override
    public void close() {
        if (saved != null) {
            context.bufferPool().release(saved);
            saved = null;
        }
    }
}
