package jpai.runtime.opencl;

/**
 * The timings of one kernel launch, from OpenCL event profiling for device work and the host clock
 * for the rest. Immutable. (The same numbers are added to the {@code Profiler} collection open on
 * the launching thread, if any.)
 *
 * @param buildNanos         driver build or disk-cache load of the program, if this launch made it
 * @param hostToDeviceNanos  device time of the transfers to the device (a status buffer's zeroing is counted, not timed)
 * @param hostToDeviceBytes  bytes sent
 * @param hostToDeviceCount  transfer commands to the device
 * @param kernelNanos        device time of the kernel
 * @param deviceToHostNanos  device time of the transfers back of results (when not kept on the device) and written arrays;
 *                           not of the 8-byte status words, whose timing would cost two driver calls for nothing to report
 * @param deviceToHostBytes  bytes brought back, status words included
 * @param deviceToHostCount  transfer commands to the host, status reads included
 * @param wallNanos          host wall time of the whole launch
 */
public record LaunchProfile(
        long buildNanos,
        long hostToDeviceNanos,
        long hostToDeviceBytes,
        int hostToDeviceCount,
        long kernelNanos,
        long deviceToHostNanos,
        long deviceToHostBytes,
        int deviceToHostCount,
        long wallNanos) {
}
