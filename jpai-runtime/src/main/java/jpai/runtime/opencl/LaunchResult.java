package jpai.runtime.opencl;

/**
 * What a launch gives back: the two status ints, if a status buffer was bound, and the profile.
 * Immutable.
 */
public final class LaunchResult {

    private final int[] status;
    private final LaunchProfile profile;

    /** @param status the two words, or null; kept, not copied: the launch that read them hands them over and keeps no reference */
    LaunchResult(int[] status, LaunchProfile profile) {
        this.status = status;
        this.profile = profile;
    }

    /** Whether the launch bound a status buffer. */
    public boolean hasStatus() {
        return status != null;
    }

    /**
     * Status int {@code word} (0 or 1) as the kernel left it (0 if it wrote nothing).
     *
     * @throws IllegalStateException if no status buffer was bound
     */
    public int status(int word) {
        if (status == null) {
            throw new IllegalStateException("this launch bound no status buffer");
        }
        return status[word];
    }

    public LaunchProfile profile() {
        return profile;
    }

    @Override
    public String toString() {
        return (status == null ? "no status" : "status " + status[0] + ", " + status[1]) + "; " + profile;
    }
}
