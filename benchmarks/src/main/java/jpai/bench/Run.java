package jpai.bench;

/**
 * One version of one program, prepared on one data set: inputs are in place (Java arrays, PArrays or
 * pinned OpenCL buffers, as that version's user would hold them), kernels are not built yet (the
 * first, untimed, validation run builds them).
 */
public interface Run extends AutoCloseable {

    /** Returned by {@link #run()} when the version has no kernel-only time. */
    long NO_KERNEL_TIME = -1;

    /**
     * Computes the program's result once, everything the caller waits for included (transfers to and
     * from a device, buffer creation the version does per call).
     *
     * @return nanoseconds the device spent in kernels (sum of OpenCL event times), or {@link #NO_KERNEL_TIME}
     */
    long run();

    /** The result of the last {@link #run()}, copied into Java arrays (not timed). */
    Output output();

    /** Where the last run really ran, for people ("OpenCL: NVIDIA H100 ...", "fork/join pool"). */
    String ranOn();

    /** A remark for the report (e.g. "two maps: call and put"), or null. */
    default String note() {
        return null;
    }

    /**
     * Lets go of the last run's result (a JPAI result PArray, say) after it was used; called between
     * runs, outside the timed region: releasing a result is the caller's business, not the call's.
     */
    default void discard() {
    }

    /** Releases what {@link #run()} holds; never throws a checked exception. */
    @Override
    void close();

    /** A Java version: a body, its output, where it runs. */
    static Run java(Runnable body, java.util.function.Supplier<Output> output, String ranOn) {
        return new Run() {
            @Override
            public long run() {
                body.run();
                return NO_KERNEL_TIME;
            }

            @Override
            public Output output() {
                return output.get();
            }

            @Override
            public String ranOn() {
                return ranOn;
            }

            @Override
            public void close() {
            }
        };
    }
}
