package jpai.compiler;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The speculations a compilation may make: all of them at first, fewer after the runtime saw one
 * fail ({@link #without}). Immutable; equal sets are equal, so a set can key compiled kernels.
 */
public final class Speculations {

    /** Every speculation, those read from HotSpot's profile included: what the runtime allows a function until one fails. */
    public static final Speculations ALL = new Speculations(EnumSet.allOf(Speculation.class));
    /** No speculation: a kernel whose exits are all Java's own exception paths. */
    public static final Speculations NONE = new Speculations(EnumSet.noneOf(Speculation.class));
    /**
     * Every speculation but those read from HotSpot's profile: what a compilation makes when nothing
     * is known of the function's runs in Java (deterministic: it does not depend on what the JVM ran).
     */
    public static final Speculations WITHOUT_PROFILE = ALL.without(Speculation.UNTAKEN_BRANCHES);

    private final Set<Speculation> allowed;
    /**
     * {@link #without} each speculation, by ordinal, made on first use: the runtime's cache asks on
     * every apply. A race makes two equal sets, either of which does (they are immutable).
     */
    private final Speculations[] withoutOne = new Speculations[Speculation.values().length];

    private Speculations(Set<Speculation> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    /** Whether a compilation may make {@code speculation}. */
    public boolean allows(Speculation speculation) {
        return allowed.contains(speculation);
    }

    /** These speculations but {@code failed}. */
    public Speculations without(Speculation failed) {
        if (!allows(failed)) {
            return this;
        }
        Speculations known = withoutOne[failed.ordinal()];
        if (known != null) {
            return known;
        }
        EnumSet<Speculation> rest = EnumSet.noneOf(Speculation.class);
        rest.addAll(allowed);
        rest.remove(failed);
        Speculations made = rest.isEmpty() ? NONE : new Speculations(rest);
        withoutOne[failed.ordinal()] = made;
        return made;
    }

    /** Whether every speculation these allow, {@code other} allows too (none of them was left out since). */
    public boolean isWithin(Speculations other) {
        return other.allowed.containsAll(allowed);
    }

    /** Whether no speculation is allowed. */
    public boolean isEmpty() {
        return allowed.isEmpty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Speculations that && allowed.equals(that.allowed);
    }

    @Override
    public int hashCode() {
        return allowed.hashCode();
    }

    @Override
    public String toString() {
        return allowed.isEmpty() ? "no speculation" : allowed.stream().sorted().map(Speculation::description).collect(Collectors.joining(", "));
    }
}
