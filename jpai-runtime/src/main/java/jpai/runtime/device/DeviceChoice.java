package jpai.runtime.device;

import java.util.Objects;

/**
 * Where JPAI runs kernels: on one OpenCL device, or on Java threads. Each choice carries {@code why},
 * a sentence naming the rule that made it ("default: first GPU", "jpai.device=1: device index 1"),
 * because "why did it not use my GPU?" is the first question a user asks.
 */
public sealed interface DeviceChoice {

    /** The sentence naming the rule that made this choice. */
    String why();

    /** What was chosen, for people: the device's {@link OpenCLDeviceInfo#describe()} or "Java threads". */
    String describe();

    /** Run on {@code device}. */
    record OpenCL(OpenCLDeviceInfo device, String why) implements DeviceChoice {
        public OpenCL {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(why, "why");
        }

        @Override
        public String describe() {
            return device.describe();
        }
    }

    /** Run on the JVM's own threads, with no OpenCL. */
    record JavaThreads(String why) implements DeviceChoice {
        public JavaThreads {
            Objects.requireNonNull(why, "why");
        }

        @Override
        public String describe() {
            return "Java threads";
        }
    }
}
