package jpai;

import java.util.List;
import java.util.Objects;

/**
 * OpenCL devices that one function splits its work across: {@code f.on(Devices.of("0", "1"))} runs
 * each apply of the map or reduction {@code f} as parts, one per device, by shares that follow the
 * parts' measured times, every part's data kept on its own device between applies. Each spec names
 * one device as {@code -Djpai.device} does (a flat index as {@code jpai-devices} lists it,
 * {@code P:D}, part of a device or platform name); {@link #allGpus()} names every GPU.
 *
 * <p>Maps (of a buffer or of a 1-D, 2-D or 3-D index space, split by rows of the outermost index),
 * reductions and fused maps then reductions split; {@code on(Devices)} of a scan, filter or keyed
 * reduction throws. Results and exceptions are the JVM's, as on one device: a split reduction
 * combines its parts by the one combining tree, so its bits are one device's and Java's; a map's
 * part that meets a Java exception path exits, and Java runs the map from the lowest such element
 * on. {@code -Djpai.explain=true} says how each apply was split.
 */
public final class Devices {

    /** The spec of {@link #allGpus()}. */
    private static final String ALL_GPUS = "all gpus";

    private final List<String> specs;

    private Devices(List<String> specs) {
        this.specs = specs;
    }

    /**
     * The devices these specs name, in this order (the first gets the first part).
     *
     * @throws IllegalArgumentException if no spec is given, or one is blank
     */
    public static Devices of(String... specs) {
        Objects.requireNonNull(specs, "Devices.of: the specs are null");
        if (specs.length == 0) {
            throw new IllegalArgumentException("Devices.of: name at least one device");
        }
        for (int i = 0; i < specs.length; i++) {
            if (specs[i] == null || specs[i].isBlank()) {
                throw new IllegalArgumentException("Devices.of: device spec " + i + " is " + (specs[i] == null ? "null" : "blank"));
            }
        }
        return new Devices(List.of(specs));
    }

    /** Every GPU the OpenCL platforms list, found when a function is applied. */
    public static Devices allGpus() {
        return new Devices(List.of(ALL_GPUS));
    }

    /** The specs as given ({@code ["all gpus"]} for {@link #allGpus()}). */
    public List<String> specs() {
        return specs;
    }

    /** Whether this is {@link #allGpus()}. */
    public boolean isAllGpus() {
        return specs.size() == 1 && specs.get(0).equals(ALL_GPUS);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Devices devices && devices.specs.equals(specs);
    }

    @Override
    public int hashCode() {
        return specs.hashCode();
    }

    @Override
    public String toString() {
        return isAllGpus() ? "every GPU" : "devices " + String.join(", ", specs);
    }
}
