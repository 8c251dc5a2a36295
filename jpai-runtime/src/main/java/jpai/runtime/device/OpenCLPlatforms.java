package jpai.runtime.device;

import static jpai.runtime.device.OpenCLInfoQueries.deviceIds;
import static jpai.runtime.device.OpenCLInfoQueries.deviceSizeT;
import static jpai.runtime.device.OpenCLInfoQueries.deviceString;
import static jpai.runtime.device.OpenCLInfoQueries.deviceUint;
import static jpai.runtime.device.OpenCLInfoQueries.deviceUlong;
import static jpai.runtime.device.OpenCLInfoQueries.platformIds;
import static jpai.runtime.device.OpenCLInfoQueries.platformString;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * Finds the OpenCL devices of this machine, once per JVM.
 *
 * <p>Discovery must never fail the program: a machine without OpenCL is a normal place for JPAI to
 * run (on Java threads). So every way OpenCL can be absent or broken becomes a {@link Discovery}
 * with a one-sentence reason instead of an exception: JOCL's native library or the ICD loader
 * missing, no platform installed, or a driver that fails a query. A platform or device that fails is
 * skipped and recorded, and the others are still used.
 */
public final class OpenCLPlatforms {

    /** The fix when the OpenCL library itself is missing. */
    private static final String INSTALL_LOADER_HINT = "install an OpenCL ICD loader and a driver, e.g. `apt-get install pocl-opencl-icd`";
    /** The fix when the loader is there but no driver registered with it. */
    private static final String INSTALL_DRIVER_HINT = "install an OpenCL driver, e.g. `apt-get install pocl-opencl-icd`";

    /** Part of the message of the UnsatisfiedLinkError JOCL throws when no OpenCL library can be opened. */
    private static final String JOCL_NO_ICD_LOADER = "Implementation library could not be loaded";

    private OpenCLPlatforms() {
    }

    /**
     * The devices of this machine. The first call queries OpenCL; later calls, from any thread,
     * return the same result. Never throws.
     */
    public static Discovery discover() {
        return Cached.DISCOVERY;
    }

    /** Lazy, thread-safe, once: the JVM initialises this class on first use, under its class-init lock. */
    private static final class Cached {
        static final Discovery DISCOVERY = scanAndCheckSignals();
    }

    /** Loading the platforms loads their drivers, which may take over SIGFPE: checked right after. */
    private static Discovery scanAndCheckSignals() {
        Discovery discovery = scan();
        SignalChaining.checkAfterDriverLoad();
        return discovery;
    }

    /** Queries OpenCL now, without the cache. */
    static Discovery scan() {
        try {
            CL.setExceptionsEnabled(true);
        } catch (LinkageError e) {
            return Discovery.none(nativeLibraryReason(e));
        }
        try {
            return scanPlatforms();
        } catch (UnsatisfiedLinkError e) {
            return Discovery.none(nativeLibraryReason(e));
        } catch (CLException e) {
            return Discovery.none("querying OpenCL platforms failed with " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return Discovery.none("querying OpenCL failed unexpectedly (" + summary(e) + ")");
        }
    }

    private static Discovery scanPlatforms() {
        cl_platform_id[] platforms;
        try {
            platforms = platformIds();
        } catch (CLException e) {
            if (e.getStatus() == CL.CL_PLATFORM_NOT_FOUND_KHR) {
                return Discovery.none(noPlatformReason());
            }
            throw e;
        }
        if (platforms.length == 0) {
            return Discovery.none(noPlatformReason());
        }
        List<OpenCLDeviceInfo> devices = new ArrayList<>();
        List<Discovery.Skipped> skipped = new ArrayList<>();
        for (int p = 0; p < platforms.length; p++) {
            scanPlatform(p, platforms[p], devices, skipped);
        }
        if (devices.isEmpty()) {
            return Discovery.none(noUsableDeviceReason(skipped), skipped);
        }
        return Discovery.found(devices, skipped);
    }

    /** Adds the devices of one platform to {@code devices}, or what went wrong to {@code skipped}. */
    private static void scanPlatform(int platformIndex, cl_platform_id platform, List<OpenCLDeviceInfo> devices,
            List<Discovery.Skipped> skipped) {
        PlatformStrings strings;
        try {
            strings = PlatformStrings.read(platform);
        } catch (CLException e) {
            skipped.add(Discovery.Skipped.platform(platformIndex, "?", "clGetPlatformInfo failed with " + e.getMessage()));
            return;
        }
        cl_device_id[] ids;
        try {
            ids = deviceIds(platform);
        } catch (CLException e) {
            String reason = e.getStatus() == CL.CL_DEVICE_NOT_FOUND ? "it has no devices" : "clGetDeviceIDs failed with " + e.getMessage();
            skipped.add(Discovery.Skipped.platform(platformIndex, strings.name(), reason));
            return;
        }
        if (ids.length == 0) {
            skipped.add(Discovery.Skipped.platform(platformIndex, strings.name(), "it has no devices"));
        }
        for (int d = 0; d < ids.length; d++) {
            try {
                devices.add(readDevice(platformIndex, d, devices.size(), platform, strings, ids[d]));
            } catch (CLException e) {
                skipped.add(Discovery.Skipped.device(platformIndex, d, strings.name(), "clGetDeviceInfo failed with " + e.getMessage()));
            }
        }
    }

    private static OpenCLDeviceInfo readDevice(int platformIndex, int deviceIndex, int globalIndex, cl_platform_id platform,
            PlatformStrings strings, cl_device_id device) {
        return new OpenCLDeviceInfo(
                platformIndex,
                deviceIndex,
                globalIndex,
                strings.name(),
                strings.vendor(),
                strings.version(),
                deviceString(device, CL.CL_DEVICE_NAME),
                deviceString(device, CL.CL_DEVICE_VENDOR),
                DeviceKind.fromDeviceType(deviceUlong(device, CL.CL_DEVICE_TYPE)),
                deviceUint(device, CL.CL_DEVICE_MAX_COMPUTE_UNITS),
                deviceUlong(device, CL.CL_DEVICE_GLOBAL_MEM_SIZE),
                deviceUlong(device, CL.CL_DEVICE_LOCAL_MEM_SIZE),
                deviceSizeT(device, CL.CL_DEVICE_MAX_WORK_GROUP_SIZE),
                deviceUlong(device, CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE),
                deviceString(device, CL.CL_DEVICE_VERSION),
                deviceString(device, CL.CL_DEVICE_OPENCL_C_VERSION),
                deviceString(device, CL.CL_DRIVER_VERSION),
                deviceUlong(device, CL.CL_DEVICE_SINGLE_FP_CONFIG),
                doubleFpConfig(device),
                platform,
                device);
    }

    /**
     * {@code CL_DEVICE_DOUBLE_FP_CONFIG}: from OpenCL 1.2 on, doubles are core but optional and a
     * non-zero value says so (OpenCL 1.0/1.1 devices announce them with {@code cl_khr_fp64} and may
     * reject the query, which then means "no doubles").
     */
    private static long doubleFpConfig(cl_device_id device) {
        try {
            return deviceUlong(device, CL.CL_DEVICE_DOUBLE_FP_CONFIG);
        } catch (CLException e) {
            return 0;
        }
    }

    /**
     * JOCL's own JNI library is inside its jar; what is usually missing is the ICD loader it opens,
     * which JOCL reports as "Implementation library could not be loaded". That case gets a plain
     * sentence; anything else keeps JOCL's words.
     */
    private static String nativeLibraryReason(LinkageError e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.contains(JOCL_NO_ICD_LOADER)) {
            return "no OpenCL ICD loader: JOCL could not load libOpenCL.so.1; " + INSTALL_LOADER_HINT;
        }
        return "JOCL's native library failed to load (" + summary(e) + "); " + INSTALL_LOADER_HINT;
    }

    /** "UnsatisfiedLinkError: no JOCL in java.library.path": a throwable in a sentence, without its stack. */
    private static String summary(Throwable e) {
        String name = e.getClass().getSimpleName();
        return e.getMessage() == null || e.getMessage().isBlank() ? name : name + ": " + e.getMessage();
    }

    private static String noPlatformReason() {
        return "no OpenCL platform: the ICD loader found no driver; " + INSTALL_DRIVER_HINT;
    }

    private static String noUsableDeviceReason(List<Discovery.Skipped> skipped) {
        return "no usable OpenCL device: "
                + skipped.stream().map(Discovery.Skipped::describe).collect(Collectors.joining("; "));
    }

    /** The three strings every device of a platform repeats. */
    private record PlatformStrings(String name, String vendor, String version) {
        static PlatformStrings read(cl_platform_id platform) {
            return new PlatformStrings(
                    platformString(platform, CL.CL_PLATFORM_NAME),
                    platformString(platform, CL.CL_PLATFORM_VENDOR),
                    platformString(platform, CL.CL_PLATFORM_VERSION));
        }
    }
}
