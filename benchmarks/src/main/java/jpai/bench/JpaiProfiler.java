package jpai.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The seam for JPAI's profiler split of one {@code apply}: Graal compilation, driver build,
 * host→device, kernel, device→host, and the rest. JPAI has no profiler API yet, so {@link #current()}
 * is {@link #NONE}: the reports then say so and print no split. When the API lands, implement
 * {@link #lastSplit()} over it here; the harness and the reports already carry the columns.
 */
public interface JpaiProfiler {

    /** The phases, in report order (CSV figure names are {@code "jpai:" + phase}). */
    List<String> PHASES = List.of("graal", "driver-build", "h2d", "kernel", "d2h", "rest");

    /** Nanoseconds per phase of the last apply on this thread, or empty when none is available. */
    Optional<Map<String, Long>> lastSplit();

    /** Why there is no split (for the reports), or null when there is one. */
    String unavailableReason();

    /** No profiler: JPAI has no profiler API yet. */
    JpaiProfiler NONE = new JpaiProfiler() {
        @Override
        public Optional<Map<String, Long>> lastSplit() {
            return Optional.empty();
        }

        @Override
        public String unavailableReason() {
            return "JPAI has no profiler API yet (seam: jpai.bench.JpaiProfiler); no split is printed rather than an estimate";
        }
    };

    static JpaiProfiler current() {
        return NONE;
    }
}
