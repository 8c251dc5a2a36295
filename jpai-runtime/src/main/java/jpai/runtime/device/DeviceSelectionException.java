package jpai.runtime.device;

import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A device spec names no device that exists. It is the user's mistake, not JPAI's, so the message is
 * one line that says what was asked and what is available, ready to print without a stack trace:
 * {@code jpai.device=foo matches no device; available: [0] pthread-haswell (CPU, Portable Computing Language), java}.
 *
 * <p>JPAI does not quietly fall back to another device here: someone who asked for a device by name
 * wants to know that it is not there.
 */
public final class DeviceSelectionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String spec;

    private DeviceSelectionException(String spec, String message) {
        super(message);
        this.spec = spec;
    }

    /** {@code spec} matched nothing in {@code discovery}. */
    static DeviceSelectionException noMatch(String spec, Discovery discovery) {
        return new DeviceSelectionException(spec,
                DeviceSelector.PROPERTY + "=" + Discovery.oneLine(spec) + " matches no device; available: " + available(discovery));
    }

    /** Every device's label, then "java", which is always available. */
    private static String available(Discovery discovery) {
        if (discovery.isEmpty()) {
            return "java (" + discovery.reason() + ")";
        }
        return Stream.concat(discovery.devices().stream().map(OpenCLDeviceInfo::label), Stream.of("java"))
                .collect(Collectors.joining(", "));
    }

    /** The spec as the user gave it, without surrounding spaces. */
    public String spec() {
        return spec;
    }
}
