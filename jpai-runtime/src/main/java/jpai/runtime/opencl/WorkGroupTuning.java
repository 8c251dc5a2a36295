package jpai.runtime.opencl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The work-group size of one built kernel on its device, for launches whose group size is only a
 * speed choice ({@link KernelLaunch#localSizeTuned()}: maps, index spaces, accelerated loops; never
 * a reduction, whose passes the runtime sizes itself). Which size is fastest depends on the kernel
 * (its registers, its memory pattern) and the device, so it is measured: during the first applies
 * of each size class (the launch's work-items to the nearest power of two, and the largest group
 * it allows), the launches try a handful of candidate sizes in turn, each {@value #TRIALS} times,
 * timed by the kernel's OpenCL events that every launch collects anyway; then the fastest is kept
 * for that size class as long as the program stays in the {@link ProgramCache} (this object lives in
 * its {@link BuiltProgram}).
 *
 * <p>Candidates are powers of two from the kernel's preferred multiple
 * ({@code CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE}, rounded up to a power of two) to the
 * launch's ceiling, which the launcher has already fitted to {@code CL_KERNEL_WORK_GROUP_SIZE} and
 * the device's limits, so no candidate can make a launch fail; the default ({@value #DEFAULT_GROUP}
 * or the ceiling, if smaller) is tried first, then its neighbours, at most {@value #MAX_CANDIDATES}.
 * Tuning is bounded: a size class is settled after every candidate has its trials, or after
 * {@value #MAX_TUNING_LAUNCHES_PER_CANDIDATE} launches per candidate whatever their fate (a launch
 * abandoned or failed records nothing).
 *
 * <p>A kernel compiled with {@code reqd_work_group_size} (a kernel spec that needs its local size)
 * is never tuned: its launches keep the local size they give. {@code -Djpai.workgroup=N} forces a
 * size for measurement: the largest power of two at most N and the launch's ceiling (read at each
 * launch).
 *
 * <p>Thread-safe: the state of each size class is guarded by this object's monitor, taken twice
 * per launch.
 */
final class WorkGroupTuning {

    /** The size a launch uses before any measurement: the runtime's long-standing 256. */
    static final long DEFAULT_GROUP = 256;
    /** How many sizes are tried at most per size class. */
    static final int MAX_CANDIDATES = 5;
    /** Timed launches per candidate; the fastest of them counts (the first may pay one-time costs). */
    static final int TRIALS = 2;
    /** Launches per candidate after which a size class is settled even if some recorded nothing. */
    static final int MAX_TUNING_LAUNCHES_PER_CANDIDATE = 2 * TRIALS;

    /** The property that forces a work-group size (work-items per group) for measurement. */
    static final String FORCE_PROPERTY = "jpai.workgroup";

    /** What a launch of {@code launchWorkItems} uses: {@code groupSize} work-items per group; {@code trials} non-null while it is a measurement. */
    record Choice(long groupSize, SizeClassTrials trials, long launchWorkItems) {
    }

    /** The launches of one size class, by work-items to a power of two and the group ceiling. */
    private record SizeClass(int log2WorkItems, long ceiling) {
    }

    private final long preferredMultiple;
    private final boolean fixedByKernel;
    private final Map<SizeClass, SizeClassTrials> sizeClasses = new HashMap<>();
    /**
     * The size class a launch last found settled, and its choice: a launch like the one before (a
     * function applied again to arrays of the same size) takes it with no lock, look-up or
     * allocation. A size class never unsettles, so a stale one is still right for its class.
     */
    private volatile Settled lastSettled;
    /** Whether a size class is still being measured: its launches need their kernel times ({@link BuiltProgram#timesNextLaunch}). */
    private volatile boolean measuring;

    private record Settled(int log2WorkItems, long ceiling, Choice choice) {
    }

    /**
     * @param preferredMultiple {@code CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE} (0 or 1 if the
     *            driver says nothing useful)
     * @param fixedByKernel     whether the kernel declares {@code reqd_work_group_size}
     */
    WorkGroupTuning(long preferredMultiple, boolean fixedByKernel) {
        this.preferredMultiple = WorkGroupShape.powerOfTwoAtLeast(Math.max(1, preferredMultiple));
        this.fixedByKernel = fixedByKernel;
    }

    /** Whether the kernel fixes its own local size ({@code reqd_work_group_size}): then nothing is tuned. */
    boolean fixedByKernel() {
        return fixedByKernel;
    }

    /**
     * The group size for a launch of {@code workItems} work-items in all whose groups may have at
     * most {@code ceiling} work-items (a power of two that fits the kernel and the device).
     */
    Choice choose(long workItems, long ceiling) {
        if (ceiling < 1 || Long.bitCount(ceiling) != 1) {
            throw new IllegalArgumentException("a tuned launch's largest work-group must be a power of two, not " + ceiling);
        }
        Long forced = Long.getLong(FORCE_PROPERTY);
        if (forced != null && forced > 0) {
            return new Choice(Math.min(Long.highestOneBit(forced), ceiling), null, workItems);
        }
        int log2WorkItems = 64 - Long.numberOfLeadingZeros(Math.max(1, workItems - 1));
        Settled last = lastSettled;
        if (last != null && last.log2WorkItems() == log2WorkItems && last.ceiling() == ceiling) {
            return last.choice(); // its launchWorkItems may be another launch's of the class: only a measurement's are read
        }
        SizeClassTrials trials;
        synchronized (this) {
            trials = sizeClasses.computeIfAbsent(new SizeClass(log2WorkItems, ceiling), c -> new SizeClassTrials(candidates(c.ceiling())));
            long settled = trials.settled;
            if (settled > 0) {
                Choice choice = new Choice(settled, null, workItems);
                lastSettled = new Settled(log2WorkItems, ceiling, choice);
                return choice;
            }
            measuring = true;
            return new Choice(trials.next(), trials, workItems);
        }
    }

    /** Whether some size class still wants measured launches. */
    boolean measuring() {
        return measuring;
    }

    /**
     * Records what a measured launch's kernels took on the device (0 or less: unknown).
     *
     * @return when this measurement settled its size class, what was chosen and why, in words; else null
     */
    String record(Choice choice, long kernelNanos) {
        if (choice.trials() == null) {
            return null;
        }
        synchronized (this) {
            SizeClassTrials trials = choice.trials();
            if (trials.settled > 0) {
                return null;
            }
            trials.record(choice.groupSize(), kernelNanos);
            if (trials.settled == 0) {
                return null;
            }
            measuring = sizeClasses.values().stream().anyMatch(t -> t.settled == 0);
            StringBuilder times = new StringBuilder();
            for (int i = 0; i < trials.candidates.size(); i++) {
                times.append(i == 0 ? "" : ", ").append(trials.candidates.get(i)).append(": ")
                        .append(trials.fastest[i] > 0 ? String.format(java.util.Locale.ROOT, "%.1f us", trials.fastest[i] / 1e3) : "no time");
            }
            return "work-groups of " + trials.settled + " work-items for launches of " + choice.launchWorkItems() + " work-items (fastest kernel time per size: " + times + ")";
        }
    }

    /** The settled size of each size class so far, by ceiling and then work-items' power of two (for tests and explanations). */
    synchronized Map<String, Long> settledSizes() {
        Map<String, Long> settled = new HashMap<>();
        sizeClasses.forEach((c, t) -> {
            if (t.settled > 0) {
                settled.put("2^" + c.log2WorkItems() + " work-items, groups up to " + c.ceiling(), t.settled);
            }
        });
        return settled;
    }

    /**
     * The sizes to try under {@code ceiling}, the default first, then alternately the next smaller
     * and the next larger power of two, none below the preferred multiple (unless the ceiling is).
     */
    List<Long> candidates(long ceiling) {
        long first = Math.min(DEFAULT_GROUP, ceiling);
        long floor = Math.min(preferredMultiple, ceiling);
        List<Long> sizes = new ArrayList<>();
        sizes.add(first);
        long smaller = first / 2;
        long larger = first * 2;
        while (sizes.size() < MAX_CANDIDATES && (smaller >= floor || larger <= ceiling)) {
            if (smaller >= floor) {
                sizes.add(smaller);
                smaller /= 2;
            }
            if (sizes.size() < MAX_CANDIDATES && larger <= ceiling) {
                sizes.add(larger);
                larger *= 2;
            }
        }
        return sizes;
    }

    /** The measurements of one size class; guarded by the {@link WorkGroupTuning}'s monitor. */
    static final class SizeClassTrials {
        private final List<Long> candidates;
        private final long[] fastest;
        private final int[] recorded;
        private long launches;
        /** The size chosen once the trials are over; 0 before. */
        private long settled;

        SizeClassTrials(List<Long> candidates) {
            this.candidates = List.copyOf(candidates);
            this.fastest = new long[candidates.size()];
            this.recorded = new int[candidates.size()];
            if (candidates.size() == 1) {
                settled = candidates.get(0);
            }
        }

        /** The candidate the next launch tries: round robin, so slow drifts of the device affect all alike. */
        private long next() {
            long size = candidates.get((int) (launches % candidates.size()));
            launches++;
            if (launches >= (long) MAX_TUNING_LAUNCHES_PER_CANDIDATE * candidates.size()) {
                settle(); // bounded: launches that recorded nothing do not prolong the trials
            }
            return size;
        }

        private void record(long size, long kernelNanos) {
            int i = candidates.indexOf(size);
            if (i < 0 || settled > 0) {
                return;
            }
            if (kernelNanos > 0 && (recorded[i] == 0 || kernelNanos < fastest[i])) {
                fastest[i] = kernelNanos;
            }
            recorded[i]++;
            for (int count : recorded) {
                if (count < TRIALS) {
                    return;
                }
            }
            settle();
        }

        /** Keeps the fastest candidate measured, or the default when no launch gave a time. */
        private void settle() {
            int best = 0;
            for (int i = 0; i < candidates.size(); i++) {
                if (fastest[i] > 0 && (fastest[best] <= 0 || fastest[i] < fastest[best])) {
                    best = i;
                }
            }
            settled = candidates.get(best);
        }
    }
}
