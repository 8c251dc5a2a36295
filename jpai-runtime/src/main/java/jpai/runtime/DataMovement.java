package jpai.runtime;

import jpai.runtime.memory.ComponentBuffer;

/** Moves array data between host and device on the API's explicit request. */
final class DataMovement {

    private DataMovement() {
    }

    /** Puts {@code buffer} on the device in use, if any, unless it is there already and current. */
    static void toDevice(ComponentBuffer buffer) {
        // Wired to the OpenCL runtime's residency once device copies exist (issue 5).
    }
}
