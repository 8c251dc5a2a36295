package jpai.bench;

import java.util.List;
import java.util.Locale;

import com.aparapi.Kernel;
import com.aparapi.ProfileInfo;
import com.aparapi.Range;
import com.aparapi.device.Device;
import com.aparapi.device.OpenCLDevice;

import jpai.runtime.device.OpenCLDeviceInfo;

/**
 * Runs Aparapi kernels on the same OpenCL device as JPAI and proves that they ran there. Aparapi 3.0.2
 * silently falls back to a Java thread pool when it cannot build a kernel; after every
 * {@code execute} this checks {@link Kernel#getTargetDevice()} and throws {@link NotRunException}
 * ("fell back") otherwise, so a fallback is never timed as the device.
 *
 * <p>Kernels use Aparapi's explicit buffer mode: inputs are {@code put} before and outputs {@code get}
 * after each execute, exactly the transfers the other device versions make (Aparapi's default mode
 * would copy every array both ways). Kernel-only time comes from Aparapi's own OpenCL event
 * profile ({@code -Dcom.aparapi.enableProfiling=true}, which {@link BenchmarkMain} sets before
 * Aparapi loads).
 */
public final class AparapiSupport {

    private final OpenCLDevice device;
    private final String unavailable;

    private AparapiSupport(OpenCLDevice device, String unavailable) {
        this.device = device;
        this.unavailable = unavailable;
    }

    /** Aparapi's device that is {@code target}, or a support object that says why there is none. */
    public static AparapiSupport forDevice(OpenCLDeviceInfo target) {
        if (target == null) {
            return new AparapiSupport(null, "no OpenCL device in use");
        }
        Device.TYPE type = switch (target.kind()) {
            case GPU -> Device.TYPE.GPU;
            case CPU -> Device.TYPE.CPU;
            default -> Device.TYPE.ACC;
        };
        try {
            List<OpenCLDevice> devices = OpenCLDevice.listDevices(type);
            for (OpenCLDevice candidate : devices) {
                if (candidate.getName().strip().equals(target.name().strip())
                        && candidate.getOpenCLPlatform().getName().strip().equals(target.platformName().strip())) {
                    return new AparapiSupport(candidate, null);
                }
            }
            return new AparapiSupport(null, "Aparapi lists no " + type + " device named " + target.name() + " (it lists " + devices + ")");
        } catch (RuntimeException | LinkageError e) {
            return new AparapiSupport(null, "Aparapi could not list OpenCL devices: " + e);
        }
    }

    /** The device, or {@link NotRunException} when there is none for Aparapi. */
    public OpenCLDevice device() {
        if (device == null) {
            throw new NotRunException("not run", unavailable);
        }
        return device;
    }

    public Range range(int globalSize) {
        // Aparapi picks the device's maximum work-group size (1024 on NVIDIA), which its kernels'
        // resources often do not allow (256 there); a human would ask for 256.
        return globalSize % 256 == 0 ? Range.create(device(), globalSize, 256) : Range.create(device(), globalSize);
    }

    public Range range(int globalSize, int localSize) {
        return Range.create(device(), globalSize, localSize);
    }

    public Range range2D(int width, int height) {
        return width % 16 == 0 && height % 16 == 0 ? Range.create2D(device(), width, height, 16, 16) : Range.create2D(device(), width, height);
    }

    public Range range2D(int width, int height, int localWidth, int localHeight) {
        return Range.create2D(device(), width, height, localWidth, localHeight);
    }

    /**
     * Runs {@code kernel} over {@code range}; returns the OpenCL event time of its kernel execution in
     * nanoseconds, or {@link Run#NO_KERNEL_TIME} when Aparapi gave no profile.
     *
     * @throws NotRunException "fell back" when the kernel did not run on the OpenCL device
     */
    public long execute(Kernel kernel, Range range) {
        try {
            kernel.execute(range);
        } catch (RuntimeException | AssertionError e) {
            // Aparapi gives up on a device for good after a failure and then asserts on the next call.
            throw new NotRunException("failed", "Aparapi failed to run " + kernel.getClass().getSimpleName() + ": " + e);
        }
        Device ran = kernel.getTargetDevice();
        if (!(ran instanceof OpenCLDevice openCL) || openCL.getDeviceId() != device().getDeviceId() || !kernel.isRunningCL()) {
            throw new NotRunException("fell back",
                    "Aparapi ran " + kernel.getClass().getSimpleName() + " on " + (ran == null ? "no device" : ran.getShortDescription())
                            + " instead of " + device.getShortDescription() + " (its Java thread pool fallback; see its log for why)");
        }
        List<ProfileInfo> profile = kernel.getProfileInfo();
        if (profile == null || profile.isEmpty()) {
            return Run.NO_KERNEL_TIME;
        }
        long total = 0;
        for (ProfileInfo info : profile) {
            // ProfileInfo.TYPE is private: R (read), X (execute), W (write); its name is all one may compare.
            Object type = info.getType();
            if ("X".equals(String.valueOf(type))) {
                total += info.getEnd() - info.getStart();
            }
        }
        return total;
    }

    public String ranOn() {
        return "OpenCL: " + device().getName().strip();
    }

    @Override
    public String toString() {
        return device == null ? "Aparapi: " + unavailable : String.format(Locale.ROOT, "Aparapi on %s", device.getName());
    }
}
