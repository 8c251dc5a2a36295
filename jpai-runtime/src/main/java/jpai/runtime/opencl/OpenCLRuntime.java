package jpai.runtime.opencl;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jpai.runtime.Explain;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.Discovery;
import jpai.runtime.device.OpenCLPlatforms;

/**
 * Where operations run: the device that {@code -Djpai.device} (or the default rule) chooses, and its
 * {@link DeviceContext}, created once per device. A {@code jpai.device} that matches nothing is said
 * once and the operations run on Java threads.
 */
public final class OpenCLRuntime {

    private static final Map<Integer, DeviceContext> CONTEXTS = new ConcurrentHashMap<>();
    /** The choice and the {@code jpai.device} value it was made for, read and written together. */
    private record Choice(String spec, DeviceChoice device) {
    }

    private static volatile Choice chosen;

    private OpenCLRuntime() {
    }

    /** The current choice, re-made when the {@code jpai.device} property changes. */
    public static DeviceChoice choice() {
        String spec = System.getProperty(DeviceSelector.PROPERTY, "");
        Choice last = chosen;
        if (last != null && last.spec().equals(spec)) {
            return last.device();
        }
        synchronized (OpenCLRuntime.class) {
            DeviceChoice current;
            Discovery discovery = OpenCLPlatforms.discover();
            try {
                current = DeviceSelector.select(spec, discovery);
            } catch (DeviceSelectionException e) {
                current = new DeviceChoice.JavaThreads(e.getMessage());
            }
            if (current instanceof DeviceChoice.JavaThreads javaThreads && !"java".equalsIgnoreCase(spec.strip())) {
                Explain.notice("no OpenCL device in use, operations run on Java threads: " + javaThreads.why());
            }
            chosen = new Choice(spec, current);
            return current;
        }
    }

    /** The context of the chosen OpenCL device, created on first use. */
    public static DeviceContext context(DeviceChoice.OpenCL choice) {
        return CONTEXTS.computeIfAbsent(choice.device().globalIndex(), i -> new DeviceContext(choice.device()));
    }
}
