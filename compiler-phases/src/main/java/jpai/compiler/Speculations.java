package jpai.compiler;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The speculations a compilation may make: all of them at first, fewer after the runtime saw one
 * fail ({@link #without}). Immutable; equal sets are equal, so a set can key compiled kernels.
 */
public final class Speculations {

    /** Every speculation: a function's first compilation. */
    public static final Speculations ALL = new Speculations(EnumSet.allOf(Speculation.class));
    /** No speculation: a kernel whose exits are all Java's own exception paths. */
    public static final Speculations NONE = new Speculations(EnumSet.noneOf(Speculation.class));

    private final Set<Speculation> allowed;

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
        EnumSet<Speculation> rest = EnumSet.noneOf(Speculation.class);
        rest.addAll(allowed);
        rest.remove(failed);
        return rest.isEmpty() ? NONE : new Speculations(rest);
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
