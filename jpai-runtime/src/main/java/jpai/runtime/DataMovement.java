package jpai.runtime;

import jpai.runtime.device.DeviceChoice;
import jpai.runtime.memory.ComponentBuffer;
import jpai.runtime.opencl.OpenCLRuntime;
import jpai.runtime.opencl.OpenCLRuntimeException;

/** Moves array data between host and device on the API's explicit request. */
final class DataMovement {

    private DataMovement() {
    }

    /**
     * Brings {@code buffer}'s data back to the host now if the device holds a newer copy. Under a
     * lease, not through an arena: an array only brought home and read in bulk then closes without
     * a thread handshake.
     */
    static void toHost(ComponentBuffer buffer) {
        buffer.acquireLease();
        try {
            buffer.leasedForHostRead();
        } finally {
            buffer.releaseLease();
        }
    }

    /**
     * Puts {@code buffer} on the device in use, unless its copy there is current. With no device in
     * use there is nowhere to put it; a failed transfer is said and leaves the data on the host,
     * where the next kernel will send it from.
     */
    static void toDevice(ComponentBuffer buffer) {
        if (OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device) {
            buffer.acquireLease(); // the driver reads the host memory: another thread's close must wait
            try {
                OpenCLRuntime.context(device).makeResident(buffer);
            } catch (OpenCLRuntimeException e) {
                Offload.fallBack("copyToDevice", e.getMessage());
            } finally {
                buffer.releaseLease();
            }
        }
    }
}
