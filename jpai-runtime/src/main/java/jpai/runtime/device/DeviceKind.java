package jpai.runtime.device;

import org.jocl.CL;

/**
 * What sort of processor an OpenCL device is. The default device rule prefers GPUs, then
 * accelerators, then CPUs, so the kind is the one property that decides where JPAI runs when the
 * user says nothing.
 *
 * <p>OpenCL reports the type as a bit field ({@code CL_DEVICE_TYPE}) in which a device may set
 * several bits (PoCL reports {@code CPU | DEFAULT}); {@link #fromDeviceType(long)} reduces it to the
 * most capable kind the device claims.
 */
public enum DeviceKind {
    GPU,
    ACCELERATOR,
    CPU,
    /** A custom device or one that reports none of the bits above. */
    OTHER;

    /** The kind of a device whose {@code CL_DEVICE_TYPE} is {@code deviceType}. */
    public static DeviceKind fromDeviceType(long deviceType) {
        if ((deviceType & CL.CL_DEVICE_TYPE_GPU) != 0) {
            return GPU;
        }
        if ((deviceType & CL.CL_DEVICE_TYPE_ACCELERATOR) != 0) {
            return ACCELERATOR;
        }
        if ((deviceType & CL.CL_DEVICE_TYPE_CPU) != 0) {
            return CPU;
        }
        return OTHER;
    }
}
