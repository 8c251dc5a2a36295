package jpai.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import jpai.AF;

/**
 * The seam for JPAI's profiler split of one timed call: Graal compilation, OpenCL C generation,
 * driver build, host→device, kernel, device→host, the host read of the results, and the rest. Wired
 * to JPAI's profiler API: {@link AF#lastProfile()} of each apply ({@code jpai.ApplyProfile}),
 * summed over the applies of one call by {@link JpaiRun}, plus the device→host copies that the read
 * of the (lazy) results caused, from {@code Profiler.lazyDeviceToHost()} deltas.
 */
public interface JpaiProfiler {

    /**
     * The phases, in report order (CSV figure names are {@code "jpai:" + phase}). Device phases (h2d,
     * kernel, d2h) are OpenCL event times; "read" is the wall time of the host read of the results
     * (it contains the lazy d2h); "rest" is the call's wall time minus graal, codegen, driver-build,
     * h2d, kernel and d2h (the host's own overhead and waiting).
     */
    List<String> PHASES = List.of("graal", "codegen", "driver-build", "h2d", "kernel", "d2h", "read", "rest");

    /** Bytes moved per call: keys of {@link #lastSplit()} that are counts, not nanoseconds. */
    List<String> BYTES = List.of("h2d-bytes", "d2h-bytes");

    /** Nanoseconds per phase (and bytes per {@link #BYTES} key) of the last call on this thread, or empty when none is available. */
    Optional<Map<String, Long>> lastSplit();

    /** Why there is no split (for the reports), or null when there is one. */
    String unavailableReason();

    /** JPAI's profiler, through {@link AF#lastProfile()}. */
    JpaiProfiler AF_PROFILE = new JpaiProfiler() {
        @Override
        public Optional<Map<String, Long>> lastSplit() {
            return Optional.ofNullable(JpaiRun.lastSplit());
        }

        @Override
        public String unavailableReason() {
            return null;
        }
    };

    static JpaiProfiler current() {
        return AF_PROFILE;
    }
}
