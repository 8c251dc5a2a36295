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
     * {@link #allowed} as bits by ordinal: the runtime's cache asks {@link #isWithin} on every apply,
     * and a mask answers without calling into the collections (each compiled method an apply enters
     * costs it an entry barrier after a full collection).
     */
    private final long bits;
    /**
     * {@link #without} each speculation, by ordinal, made on first use: the runtime's cache asks on
     * every apply. A race makes two equal sets, either of which does (they are immutable).
     */
    private final Speculations[] withoutOne = new Speculations[Speculation.values().length];

    private Speculations(Set<Speculation> allowed) {
        this.allowed = Set.copyOf(allowed);
        long mask = 0;
        for (Speculation speculation : allowed) {
            mask |= 1L << speculation.ordinal();
        }
        this.bits = mask;
    }

    /** Whether a compilation may make {@code speculation}. */
    public boolean allows(Speculation speculation) {
        return (bits & (1L << speculation.ordinal())) != 0;
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
        return (bits & ~other.bits) == 0;
    }

    /** Whether no speculation is allowed. */
    public boolean isEmpty() {
        return bits == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Speculations that && bits == that.bits;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bits);
    }

    @Override
    public String toString() {
        return allowed.isEmpty() ? "no speculation" : allowed.stream().sorted().map(Speculation::description).collect(Collectors.joining(", "));
    }
}
