package jpai;

import java.util.Locale;

import jpai.runtime.profile.Json;

/**
 * Where the time of one {@code apply} went, and what it moved. Immutable.
 *
 * <p>Device-side times (transfers, kernel) come from OpenCL event profiling
 * ({@code CL_PROFILING_COMMAND_START} to {@code END}); compile and build times from the host clock;
 * {@link #otherNanos()} is the wall time minus all of them: the host's own overhead (argument
 * setting, waiting, allocation, the Java fallback when there was one).
 *
 * @param operation           what was applied ("map of lambda at Saxpy.java:42")
 * @param device              where it ran: a device name, or "Java threads"
 * @param wallNanos           wall-clock time of the whole apply
 * @param graalNanos          Graal graph building and phases (first apply of a function only)
 * @param codeGenerationNanos OpenCL C generation
 * @param driverBuildNanos    the driver's build from source, or the load of a cached binary
 * @param driverBuilds        programs built from source during the apply
 * @param diskCacheLoads      programs loaded from the disk cache during the apply
 * @param hostToDeviceNanos   device time of the host→device transfers
 * @param hostToDeviceBytes   bytes sent to the device
 * @param hostToDeviceCount   transfer commands to the device
 * @param kernelNanos         device time of the kernels
 * @param kernelCount         kernels launched
 * @param deviceToHostNanos   device time of device→host transfers made during the apply
 * @param deviceToHostBytes   bytes brought back during the apply
 * @param deviceToHostCount   transfer commands to the host during the apply
 * @param fellBack            whether the apply ran on Java threads instead of the device, in
 *                            whole or in part (elements re-run after a kernel exit)
 * @param fallbackReason      why it fell back, or null
 * @param kernelExits         kernels that exited because an element left the device's path
 *                            (a Java exception path, or a failed speculation)
 * @param failedSpeculations  of those exits, the failed speculations (the data was fine, the
 *                            kernel's assumption was not: docs/java-semantics.md, "Speculation")
 * @param recompiles          kernels compiled during the apply to replace one whose speculation failed
 * @param reexecutedElements  elements Java ran after a kernel exit (all of them when the whole
 *                            operation re-ran, those from the first exiting element on for a map)
 * @param tiered              whether the apply ran on Java threads by choice while its kernel compiles
 *                            in the background ({@code -Djpai.tiering=true} under {@code AUTO}): not a
 *                            fallback, so {@code fellBack} is false
 * @param costChoice          {@code AUTO}'s cost model's choice for this apply, with its reason
 *                            ({@code -Djpai.costModel=true}: "Java threads: predicted 0.21 ms, the
 *                            device 1.10 ms"), or null when it made none; running on Java threads by
 *                            this choice is not a fallback either
 * @param deviceTimed         whether every launch of the apply measured its device times: true unless
 *                            {@code -Djpai.deviceTimes=sampled} ran some on queues without profiling,
 *                            or the driver had no times yet for a launch whose queue finished before
 *                            its events said so (NVIDIA's, while other threads' kernels run);
 *                            such launches' transfers and kernels count 0 here (their time is in
 *                            {@link #otherNanos()})
 */
public record ApplyProfile(
        String operation,
        String device,
        long wallNanos,
        long graalNanos,
        long codeGenerationNanos,
        long driverBuildNanos,
        int driverBuilds,
        int diskCacheLoads,
        long hostToDeviceNanos,
        long hostToDeviceBytes,
        int hostToDeviceCount,
        long kernelNanos,
        int kernelCount,
        long deviceToHostNanos,
        long deviceToHostBytes,
        int deviceToHostCount,
        boolean fellBack,
        String fallbackReason,
        int kernelExits,
        int failedSpeculations,
        int recompiles,
        long reexecutedElements,
        boolean tiered,
        String costChoice,
        boolean deviceTimed) {

    /** Wall time not accounted for by the other parts: the host's overhead. Never negative. */
    public long otherNanos() {
        return Math.max(0, wallNanos - graalNanos - codeGenerationNanos - driverBuildNanos - hostToDeviceNanos - kernelNanos - deviceToHostNanos);
    }

    /** The header of {@link #toTableRow()}'s table. */
    public static String tableHeader() {
        return String.format(Locale.ROOT, "%-40s %-24s %10s %9s %9s %9s %9s %9s %9s %9s %12s %12s %5s %6s %10s %s",
                "operation", "device", "wall_us", "graal_us", "cgen_us", "build_us", "h2d_us", "kernel_us", "d2h_us", "other_us",
                "h2d_bytes", "d2h_bytes", "exits", "recomp", "reexecuted", "fallback");
    }

    /** One line of microseconds and bytes, aligned under {@link #tableHeader()}. */
    public String toTableRow() {
        return String.format(Locale.ROOT, "%-40s %-24s %10.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %12d %12d %5d %6d %10d %s",
                clip(operation, 40), clip(device, 24), micros(wallNanos), micros(graalNanos), micros(codeGenerationNanos),
                micros(driverBuildNanos), micros(hostToDeviceNanos), micros(kernelNanos), micros(deviceToHostNanos),
                micros(otherNanos()), hostToDeviceBytes, deviceToHostBytes, kernelExits, recompiles, reexecutedElements, fellBack ? "yes: " + fallbackReason : "no");
    }

    /** The profile as one JSON object, times in nanoseconds. */
    public String toJson() {
        return new Json()
                .field("operation", operation)
                .field("device", device)
                .field("wallNanos", wallNanos)
                .field("graalNanos", graalNanos)
                .field("codeGenerationNanos", codeGenerationNanos)
                .field("driverBuildNanos", driverBuildNanos)
                .field("driverBuilds", driverBuilds)
                .field("diskCacheLoads", diskCacheLoads)
                .field("hostToDeviceNanos", hostToDeviceNanos)
                .field("hostToDeviceBytes", hostToDeviceBytes)
                .field("hostToDeviceCount", hostToDeviceCount)
                .field("kernelNanos", kernelNanos)
                .field("kernelCount", kernelCount)
                .field("deviceToHostNanos", deviceToHostNanos)
                .field("deviceToHostBytes", deviceToHostBytes)
                .field("deviceToHostCount", deviceToHostCount)
                .field("otherNanos", otherNanos())
                .field("fellBack", fellBack)
                .field("fallbackReason", fallbackReason)
                .field("kernelExits", kernelExits)
                .field("failedSpeculations", failedSpeculations)
                .field("recompiles", recompiles)
                .field("reexecutedElements", reexecutedElements)
                .field("tiered", tiered)
                .field("costChoice", costChoice)
                .field("deviceTimed", deviceTimed)
                .toString();
    }

    @Override
    public String toString() {
        return toJson();
    }

    private static double micros(long nanos) {
        return nanos / 1000.0;
    }

    private static String clip(String text, int width) {
        String value = text == null ? "-" : text;
        return value.length() <= width ? value : value.substring(0, width - 1) + "…";
    }
}
