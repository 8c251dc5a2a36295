package jpai.runtime.device;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * One OpenCL device as discovery found it: where it sits (platform, device, flat index), what it is,
 * the limits the code generator and the executors must respect, and the JOCL handles the runtime
 * needs to create a context on it.
 *
 * <p>Everything but the handles is plain data, read once, so that device selection, messages and
 * tests never call into OpenCL. The handles may be {@code null}: tests build synthetic devices
 * without a driver, and such a device can be selected but not run on.
 *
 * @param platformIndex      index of the platform in {@code clGetPlatformIDs} order
 * @param deviceIndex        index of the device within its platform, in {@code clGetDeviceIDs} order
 * @param globalIndex        index over all devices of all platforms, what {@code -Djpai.device=N} names
 * @param platformName       {@code CL_PLATFORM_NAME}, e.g. "NVIDIA CUDA"
 * @param platformVendor     {@code CL_PLATFORM_VENDOR}
 * @param platformVersion    {@code CL_PLATFORM_VERSION}
 * @param name               {@code CL_DEVICE_NAME}
 * @param vendor             {@code CL_DEVICE_VENDOR}
 * @param kind               the device type reduced to one kind
 * @param maxComputeUnits    {@code CL_DEVICE_MAX_COMPUTE_UNITS}
 * @param globalMemoryBytes  {@code CL_DEVICE_GLOBAL_MEM_SIZE}
 * @param localMemoryBytes   {@code CL_DEVICE_LOCAL_MEM_SIZE}
 * @param maxWorkGroupSize   {@code CL_DEVICE_MAX_WORK_GROUP_SIZE}
 * @param maxAllocationBytes {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}, the largest single buffer
 * @param deviceVersion      {@code CL_DEVICE_VERSION}
 * @param openclCVersion     {@code CL_DEVICE_OPENCL_C_VERSION}, the kernel language the compiler may target
 * @param driverVersion      {@code CL_DRIVER_VERSION}
 * @param singleFpConfig     {@code CL_DEVICE_SINGLE_FP_CONFIG}: the {@code float} arithmetic's bits ({@code CL_FP_DENORM}, ...)
 * @param doubleFpConfig     {@code CL_DEVICE_DOUBLE_FP_CONFIG}, 0 where the device has no {@code double}
 * @param platformId         JOCL handle of the platform, or {@code null} for a synthetic device
 * @param deviceId           JOCL handle of the device, or {@code null} for a synthetic device
 */
public record OpenCLDeviceInfo(
        int platformIndex,
        int deviceIndex,
        int globalIndex,
        String platformName,
        String platformVendor,
        String platformVersion,
        String name,
        String vendor,
        DeviceKind kind,
        int maxComputeUnits,
        long globalMemoryBytes,
        long localMemoryBytes,
        long maxWorkGroupSize,
        long maxAllocationBytes,
        String deviceVersion,
        String openclCVersion,
        String driverVersion,
        long singleFpConfig,
        long doubleFpConfig,
        cl_platform_id platformId,
        cl_device_id deviceId) {

    /** Whether kernels may use {@code double}. */
    public boolean fp64() {
        return doubleFpConfig != 0;
    }

    private static final Pattern OPENCL_C_VERSION = Pattern.compile("OpenCL C \\d+\\.\\d+");
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    public OpenCLDeviceInfo {
        requireIndex(platformIndex, "platformIndex");
        requireIndex(deviceIndex, "deviceIndex");
        requireIndex(globalIndex, "globalIndex");
        Objects.requireNonNull(platformName, "platformName");
        Objects.requireNonNull(platformVendor, "platformVendor");
        Objects.requireNonNull(platformVersion, "platformVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(deviceVersion, "deviceVersion");
        Objects.requireNonNull(openclCVersion, "openclCVersion");
        Objects.requireNonNull(driverVersion, "driverVersion");
    }

    private static void requireIndex(int index, String what) {
        if (index < 0) {
            throw new IllegalArgumentException(what + " must not be negative: " + index);
        }
    }

    /** Whether this device carries real JOCL handles, i.e. came from a driver and not from a test. */
    public boolean hasHandles() {
        return platformId != null && deviceId != null;
    }

    /**
     * One line for people, e.g.
     * {@code [0] NVIDIA H100 80GB HBM3 (GPU, NVIDIA CUDA, OpenCL C 1.2, 132 CUs, 79.1 GiB, fp64)}.
     */
    public String describe() {
        return "[" + globalIndex + "] " + name + " (" + kind + ", " + platformName + ", " + openclCLanguage() + ", "
                + maxComputeUnits + " CUs, " + formatBytes(globalMemoryBytes) + ", " + (fp64() ? "fp64" : "no fp64") + ")";
    }

    /**
     * The short form used where many devices are listed in one line, e.g. in an error message:
     * {@code [0] pthread-haswell (CPU, Portable Computing Language)}.
     */
    public String label() {
        return "[" + globalIndex + "] " + name + " (" + kind + ", " + platformName + ")";
    }

    @Override
    public String toString() {
        return describe();
    }

    /**
     * "OpenCL C 1.2" without the vendor's suffix: drivers append free text ("OpenCL C 1.2 PoCL"), which
     * says nothing about the language the compiler may use.
     */
    private String openclCLanguage() {
        Matcher matcher = OPENCL_C_VERSION.matcher(openclCVersion);
        return matcher.find() ? matcher.group() : openclCVersion.strip();
    }

    /** Binary units with one decimal, as GPU memory is usually quoted: 79.1 GiB, 512.0 MiB. */
    static String formatBytes(long bytes) {
        if (bytes >= GIB) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) GIB);
        }
        if (bytes >= MIB) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) MIB);
        }
        return bytes + " bytes";
    }
}
