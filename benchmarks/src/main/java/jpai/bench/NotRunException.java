package jpai.bench;

/**
 * A version that is not run, with the reason recorded in the results instead of a time: not
 * expressible with today's JPAI API, no OpenCL device, an Aparapi kernel that fell back to its
 * thread pool. Never a validation failure.
 */
public final class NotRunException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String ranOn;

    /**
     * @param ranOn what goes in the results' "ran on" column ("not expressible", "fell back", ...)
     * @param reason a sentence for the note column
     */
    public NotRunException(String ranOn, String reason) {
        super(reason);
        this.ranOn = ranOn;
    }

    public String ranOn() {
        return ranOn;
    }

    /** A JPAI version the current public API cannot express as the same algorithm. */
    public static NotRunException notExpressible(String needs) {
        return new NotRunException("not expressible yet", needs);
    }
}
