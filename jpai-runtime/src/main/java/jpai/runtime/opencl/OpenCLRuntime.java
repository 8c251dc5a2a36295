package jpai.runtime.opencl;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jocl.CLException;

import jpai.runtime.Explain;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceSelectionException;
import jpai.runtime.device.DeviceSelector;
import jpai.runtime.device.Discovery;
import jpai.runtime.device.OpenCLPlatforms;
import jpai.runtime.memory.HostMemory;
import jpai.runtime.memory.PlainHostMemory;

/**
 * Where operations run: the device that {@code -Djpai.device} (or the default rule) chooses, and its
 * {@link DeviceContext}, created once per device. A {@code jpai.device} that matches nothing is said
 * once and the operations run on Java threads; so does a device that is lost.
 *
 * <p>The choice is made on first need: the first {@code PArray} allocation ({@link #hostMemory()})
 * or the first apply, whichever comes first, and made again when {@code jpai.device} changes. When
 * it picks an OpenCL device, that device's context is created at once and its pinned memory is
 * {@linkplain HostMemory#install installed}, so every array allocated from then on transfers at the
 * pinned rate; with Java threads ({@code -Djpai.device=java}, no OpenCL, a lost device) plain memory
 * is installed. Arrays keep the memory they were allocated from.
 *
 * <p>Thread-safe: the choice is one volatile record, re-made under the class's monitor.
 */
public final class OpenCLRuntime {

    private static final Map<Integer, DeviceContext> CONTEXTS = new ConcurrentHashMap<>();

    /** The choice, the {@code jpai.device} value it was made for, and the chosen device's context (or null). */
    private record Choice(String spec, DeviceChoice device, DeviceContext context) {
        boolean isCurrent(String currentSpec) {
            return spec.equals(currentSpec) && (context == null || !context.isLost());
        }
    }

    private static volatile Choice chosen;

    private OpenCLRuntime() {
    }

    /** The current choice, made on first use and re-made when {@code jpai.device} changes or the device is lost. */
    public static DeviceChoice choice() {
        String spec = System.getProperty(DeviceSelector.PROPERTY, "");
        Choice last = chosen;
        if (last != null && last.isCurrent(spec)) {
            return last.device();
        }
        synchronized (OpenCLRuntime.class) {
            last = chosen;
            if (last != null && last.isCurrent(spec)) {
                return last.device();
            }
            Choice made = last != null && last.spec().equals(spec) ? afterLoss(last) : choose(spec);
            HostMemory.install(made.context() != null ? made.context().pinnedMemory() : PlainHostMemory.INSTANCE);
            chosen = made;
            return made.device();
        }
    }

    /**
     * The memory new {@code PArray}s come from: makes the device choice if it is not made yet, which
     * installs the chosen device's pinned memory (or plain memory for Java threads).
     */
    public static HostMemory hostMemory() {
        choice();
        return HostMemory.current();
    }

    /** The context of the chosen OpenCL device, created on first use. */
    public static DeviceContext context(DeviceChoice.OpenCL choice) {
        Choice current = chosen;
        if (current != null && current.device() == choice && current.context() != null) {
            return current.context(); // every apply asks for the chosen device's: no map lookup (the map's entry is this context)
        }
        try {
            return CONTEXTS.computeIfAbsent(choice.device().globalIndex(), i -> new DeviceContext(choice.device()));
        } catch (CLException e) {
            throw new OpenCLRuntimeException("could not open the OpenCL device " + choice.device().name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Forgets the choice and any lost device, so the next operation chooses again (a lost device
     * that came back is opened afresh). Healthy contexts are kept: arrays may hold their memory.
     * Lost contexts are dropped, not closed: their driver objects may no longer be usable.
     */
    public static void reset() {
        synchronized (OpenCLRuntime.class) {
            CONTEXTS.values().removeIf(DeviceContext::isLost);
            chosen = null;
        }
    }

    private static Choice choose(String spec) {
        DeviceChoice current;
        Discovery discovery = OpenCLPlatforms.discover();
        try {
            current = DeviceSelector.select(spec, discovery);
        } catch (DeviceSelectionException e) {
            current = new DeviceChoice.JavaThreads(e.getMessage());
        }
        DeviceContext context = null;
        if (current instanceof DeviceChoice.OpenCL device) {
            try {
                context = context(device);
            } catch (OpenCLRuntimeException | IllegalArgumentException e) {
                current = new DeviceChoice.JavaThreads(e.getMessage());
            }
        }
        if (current instanceof DeviceChoice.JavaThreads javaThreads && !"java".equalsIgnoreCase(spec.strip())) {
            Explain.notice("no OpenCL device in use, operations run on Java threads: " + javaThreads.why());
        }
        return new Choice(spec, current, context);
    }

    /** The choice after {@code last}'s device was lost: Java threads, with the reason. */
    private static Choice afterLoss(Choice last) {
        String why = "the OpenCL device " + last.context().device().name() + " was lost (" + last.context().lostReason() + ")";
        return new Choice(last.spec(), new DeviceChoice.JavaThreads(why), null);
    }
}
