package jpai.runtime.device;

import java.util.List;
import java.util.Objects;

/**
 * What looking for OpenCL devices found: the usable devices in a stable order (platform order, then
 * device order within each platform, which is what flat indices count), the platforms or devices
 * that had to be skipped, and, when no device was found at all, the reason in one sentence.
 *
 * <p>The reason exists because "no device" has very different fixes: a missing ICD loader, no
 * driver installed, or a driver that fails. JPAI then runs on Java threads, and the reason is what
 * it tells the user.
 *
 * @param devices the usable devices; their {@link OpenCLDeviceInfo#globalIndex() global indices}
 *                are 0, 1, 2, ... in list order
 * @param skipped platforms or devices that exist but could not be queried, each with its reason
 * @param reason  why {@code devices} is empty, as one line; the empty string when it is not
 */
public record Discovery(List<OpenCLDeviceInfo> devices, List<Skipped> skipped, String reason) {

    public Discovery {
        devices = List.copyOf(devices);
        skipped = List.copyOf(skipped);
        reason = oneLine(Objects.requireNonNull(reason, "reason"));
        for (int i = 0; i < devices.size(); i++) {
            if (devices.get(i).globalIndex() != i) {
                throw new IllegalArgumentException("device " + i + " has global index " + devices.get(i).globalIndex());
            }
        }
        if (devices.isEmpty() == reason.isEmpty()) {
            throw new IllegalArgumentException(devices.isEmpty()
                    ? "a discovery without devices needs a reason"
                    : "a discovery with devices has no reason to be empty: " + reason);
        }
    }

    /** Devices were found; {@code skipped} lists what could not be queried besides them. */
    public static Discovery found(List<OpenCLDeviceInfo> devices, List<Skipped> skipped) {
        return new Discovery(devices, skipped, "");
    }

    /** No device was found, for {@code reason}. */
    public static Discovery none(String reason, List<Skipped> skipped) {
        return new Discovery(List.of(), skipped, reason);
    }

    /** No device was found, for {@code reason}, and nothing was skipped. */
    public static Discovery none(String reason) {
        return none(reason, List.of());
    }

    public boolean isEmpty() {
        return devices.isEmpty();
    }

    /** Messages end up in single-line logs and exception messages; driver strings may hold newlines. */
    static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    /**
     * A platform, or one device of a platform, that discovery had to leave out. It is not fatal: other
     * platforms may still offer devices, and the record keeps the reason for {@code jpai-devices}.
     *
     * @param platformIndex the platform's index in {@code clGetPlatformIDs} order
     * @param deviceIndex   the device's index within the platform, or {@link #WHOLE_PLATFORM}
     * @param platformName  the platform's name, or "?" when even that could not be read
     * @param reason        what went wrong, e.g. "clGetDeviceIDs failed: CL_OUT_OF_HOST_MEMORY"
     */
    public record Skipped(int platformIndex, int deviceIndex, String platformName, String reason) {

        /** {@link #deviceIndex()} of an entry that stands for all devices of its platform. */
        public static final int WHOLE_PLATFORM = -1;

        public Skipped {
            Objects.requireNonNull(platformName, "platformName");
            reason = oneLine(Objects.requireNonNull(reason, "reason"));
        }

        public static Skipped platform(int platformIndex, String platformName, String reason) {
            return new Skipped(platformIndex, WHOLE_PLATFORM, platformName, reason);
        }

        public static Skipped device(int platformIndex, int deviceIndex, String platformName, String reason) {
            return new Skipped(platformIndex, deviceIndex, platformName, reason);
        }

        public boolean isWholePlatform() {
            return deviceIndex == WHOLE_PLATFORM;
        }

        /** E.g. "platform 1 (NVIDIA CUDA): clGetDeviceIDs failed: CL_OUT_OF_RESOURCES". */
        public String describe() {
            String where = isWholePlatform()
                    ? "platform " + platformIndex + " (" + platformName + ")"
                    : "platform " + platformIndex + " (" + platformName + ") device " + deviceIndex;
            return where + ": " + reason;
        }
    }
}
