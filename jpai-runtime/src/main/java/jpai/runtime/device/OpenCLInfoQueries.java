package jpai.runtime.device;

import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clGetPlatformIDs;
import static org.jocl.CL.clGetPlatformInfo;

import java.nio.charset.StandardCharsets;

import org.jocl.CL;
import org.jocl.CLException;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * Typed wrappers around JOCL's {@code clGet*Info} and {@code clGet*IDs} calls. The raw calls take a
 * size and an untyped pointer per parameter; each OpenCL type (string, {@code cl_uint},
 * {@code cl_ulong}, {@code size_t}) needs its own buffer handling, written here once.
 *
 * <p>All methods expect {@link CL#setExceptionsEnabled(boolean) JOCL exceptions} to be on, so an
 * OpenCL error arrives as a {@link CLException} carrying its status.
 */
final class OpenCLInfoQueries {

    private OpenCLInfoQueries() {
    }

    /** All platforms, in the ICD loader's order. */
    static cl_platform_id[] platformIds() {
        int[] count = new int[1];
        clGetPlatformIDs(0, null, count);
        cl_platform_id[] platforms = new cl_platform_id[count[0]];
        if (platforms.length > 0) {
            clGetPlatformIDs(platforms.length, platforms, null);
        }
        return platforms;
    }

    /** All devices of {@code platform}, of every type; throws with {@code CL_DEVICE_NOT_FOUND} when it has none. */
    static cl_device_id[] deviceIds(cl_platform_id platform) {
        int[] count = new int[1];
        clGetDeviceIDs(platform, CL.CL_DEVICE_TYPE_ALL, 0, null, count);
        cl_device_id[] devices = new cl_device_id[count[0]];
        if (devices.length > 0) {
            clGetDeviceIDs(platform, CL.CL_DEVICE_TYPE_ALL, devices.length, devices, null);
        }
        return devices;
    }

    static String platformString(cl_platform_id platform, int param) {
        long[] size = new long[1];
        clGetPlatformInfo(platform, param, 0, null, size);
        if (size[0] == 0) {
            return "";
        }
        byte[] bytes = new byte[(int) size[0]];
        clGetPlatformInfo(platform, param, bytes.length, Pointer.to(bytes), null);
        return decode(bytes);
    }

    static String deviceString(cl_device_id device, int param) {
        long[] size = new long[1];
        clGetDeviceInfo(device, param, 0, null, size);
        if (size[0] == 0) {
            return "";
        }
        byte[] bytes = new byte[(int) size[0]];
        clGetDeviceInfo(device, param, bytes.length, Pointer.to(bytes), null);
        return decode(bytes);
    }

    /** A {@code cl_uint} parameter. */
    static int deviceUint(cl_device_id device, int param) {
        int[] value = new int[1];
        clGetDeviceInfo(device, param, Sizeof.cl_uint, Pointer.to(value), null);
        return value[0];
    }

    /** A {@code cl_ulong} or {@code cl_bitfield} parameter. */
    static long deviceUlong(cl_device_id device, int param) {
        long[] value = new long[1];
        clGetDeviceInfo(device, param, Sizeof.cl_ulong, Pointer.to(value), null);
        return value[0];
    }

    /**
     * A {@code size_t} parameter. The value is read into a zeroed {@code long}, which is right for a
     * 64-bit {@code size_t} and, on a little-endian host, for a 32-bit one.
     */
    static long deviceSizeT(cl_device_id device, int param) {
        long[] value = new long[1];
        clGetDeviceInfo(device, param, Sizeof.size_t, Pointer.to(value), null);
        return value[0];
    }

    /** OpenCL strings are NUL-terminated and drivers pad some of them with spaces. */
    private static String decode(byte[] bytes) {
        int length = 0;
        while (length < bytes.length && bytes[length] != 0) {
            length++;
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8).strip();
    }
}
