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
