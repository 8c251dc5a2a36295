package jpai.compiler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Wall-clock nanoseconds per compilation step, in the order they ran; for profiles and tests. */
public final class PhaseTimings {

    /** One step: its name and how long it took. */
    public record Step(String name, long nanos) {
    }

    private final List<Step> steps = new ArrayList<>();

    /** Adds a step; public for front ends and {@code jpai.compiler.plugin}, which run steps of the pipeline too. */
    public void record(String name, long nanos) {
        steps.add(new Step(name, nanos));
    }

    public List<Step> steps() {
        return Collections.unmodifiableList(steps);
    }

    public long totalNanos() {
        long total = 0;
        for (Step step : steps) {
            total += step.nanos();
        }
        return total;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Step step : steps) {
            text.append(String.format("%-40s %8.3f ms%n", step.name(), step.nanos() / 1e6));
        }
        return text.toString();
    }
}
