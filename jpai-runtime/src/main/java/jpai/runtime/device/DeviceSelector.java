package jpai.runtime.device;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a device spec, from {@code -Djpai.device=...} or an API call, into a {@link DeviceChoice}.
 *
 * <p>The spec language, tried in this order:
 * <ul>
 * <li>{@code null}, empty or {@code default}: the {@linkplain #defaultChoice(Discovery) default rule};</li>
 * <li>{@code gpu}, {@code accelerator}, {@code cpu}: the first device of that kind;</li>
 * <li>{@code java}: Java threads, no OpenCL;</li>
 * <li>an integer {@code N}: the device with flat index N, as {@code jpai-devices} lists it;</li>
 * <li>{@code P:D}: device D of platform P;</li>
 * <li>anything else: the first device whose name contains the spec, ignoring case, else the first
 * whose platform name does, else the first whose platform vendor does ({@code h100}, {@code cuda},
 * {@code pocl}: PoCL's platform is named "Portable Computing Language", its vendor "The pocl project").</li>
 * </ul>
 * Keywords ignore case. A spec that matches nothing throws {@link DeviceSelectionException} rather
 * than falling back: the user asked for something specific and must learn that it is not there.
 */
public final class DeviceSelector {

    /** The system property that holds the spec. */
    public static final String PROPERTY = "jpai.device";

    private static final Pattern FLAT_INDEX = Pattern.compile("\\d{1,9}");
    private static final Pattern PLATFORM_AND_DEVICE = Pattern.compile("(\\d{1,9}):(\\d{1,9})");

    private DeviceSelector() {
    }

    /** The choice that {@code -Djpai.device} asks for, or the default when it is not set. */
    public static DeviceChoice fromSystemProperty(Discovery discovery) {
        return select(System.getProperty(PROPERTY), discovery);
    }

    /**
     * The choice {@code spec} names among {@code discovery}'s devices.
     *
     * @throws DeviceSelectionException if {@code spec} names a device that is not there
     */
    public static DeviceChoice select(String spec, Discovery discovery) {
        String given = spec == null ? "" : spec.strip();
        String keyword = given.toLowerCase(Locale.ROOT);
        String prefix = PROPERTY + "=" + given + ": ";
        return switch (keyword) {
            case "", "default" -> defaultChoice(discovery);
            case "java" -> new DeviceChoice.JavaThreads(prefix + "Java threads requested");
            case "gpu" -> firstOfKind(DeviceKind.GPU, discovery, prefix + "first GPU", given);
            case "accelerator" -> firstOfKind(DeviceKind.ACCELERATOR, discovery, prefix + "first accelerator", given);
            case "cpu" -> firstOfKind(DeviceKind.CPU, discovery, prefix + "first CPU", given);
            default -> selectByPositionOrName(given, discovery, prefix);
        };
    }

    /**
     * The default rule: the first GPU, else the first accelerator, else the first CPU, else Java
     * threads. GPUs come first because they are what JPAI exists for; a CPU OpenCL driver still
     * vectorises better than plain Java threads.
     */
    public static DeviceChoice defaultChoice(Discovery discovery) {
        if (discovery.isEmpty()) {
            return new DeviceChoice.JavaThreads("default: Java threads (" + discovery.reason() + ")");
        }
        Optional<DeviceChoice> choice = first(discovery, ofKind(DeviceKind.GPU), "default: first GPU")
                .or(() -> first(discovery, ofKind(DeviceKind.ACCELERATOR), "default: no GPU, first accelerator"))
                .or(() -> first(discovery, ofKind(DeviceKind.CPU), "default: no GPU or accelerator, first CPU"));
        return choice.orElseGet(() -> new DeviceChoice.JavaThreads(
                "default: Java threads (no OpenCL device is a GPU, accelerator or CPU)"));
    }

    private static DeviceChoice firstOfKind(DeviceKind kind, Discovery discovery, String why, String spec) {
        return first(discovery, ofKind(kind), why).orElseThrow(() -> DeviceSelectionException.noMatch(spec, discovery));
    }

    private static DeviceChoice selectByPositionOrName(String spec, Discovery discovery, String prefix) {
        Optional<DeviceChoice> choice;
        Matcher platformAndDevice = PLATFORM_AND_DEVICE.matcher(spec);
        if (FLAT_INDEX.matcher(spec).matches()) {
            int index = Integer.parseInt(spec);
            choice = first(discovery, device -> device.globalIndex() == index, prefix + "device index " + index);
        } else if (platformAndDevice.matches()) {
            int platform = Integer.parseInt(platformAndDevice.group(1));
            int device = Integer.parseInt(platformAndDevice.group(2));
            choice = first(discovery, d -> d.platformIndex() == platform && d.deviceIndex() == device,
                    prefix + "platform " + platform + " device " + device);
        } else {
            String needle = spec.toLowerCase(Locale.ROOT);
            choice = first(discovery, device -> contains(device.name(), needle),
                    prefix + "first device whose name contains \"" + spec + "\"")
                    .or(() -> first(discovery, device -> contains(device.platformName(), needle),
                            prefix + "first device whose platform name contains \"" + spec + "\""))
                    .or(() -> first(discovery, device -> contains(device.platformVendor(), needle),
                            prefix + "first device whose platform vendor contains \"" + spec + "\""));
        }
        return choice.orElseThrow(() -> DeviceSelectionException.noMatch(spec, discovery));
    }

    private static Optional<DeviceChoice> first(Discovery discovery, Predicate<OpenCLDeviceInfo> matches, String why) {
        return discovery.devices().stream().filter(matches).findFirst().map(device -> new DeviceChoice.OpenCL(device, why));
    }

    private static Predicate<OpenCLDeviceInfo> ofKind(DeviceKind kind) {
        return device -> device.kind() == kind;
    }

    private static boolean contains(String haystack, String lowerCaseNeedle) {
        return haystack.toLowerCase(Locale.ROOT).contains(lowerCaseNeedle);
    }
}
