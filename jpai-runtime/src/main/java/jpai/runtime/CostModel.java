package jpai.runtime;

/**
 * {@code AUTO}'s choice, for each apply of one map, between the device and Java threads
 * ({@code -Djpai.costModel=true}): the side whose measured times predict that it finishes first, as
 * Parakeet chose per operation, but from measurements of this function rather than from a formula.
 *
 * <ul>
 * <li>The device's time for {@code n} elements is an apply's host time (launch, waits, everything but
 * device work and compilation) plus its device work (kernels and transfers) scaled to {@code n}, from
 * the fastest of its last {@link #DEVICE_MEASURES} applies (trusted from the second on, as a kernel's
 * first launches also make kernel objects and try work-group sizes, which PoCL compiles): transfers
 * of inputs already on the device cost nothing again, as they did not then.</li>
 * <li>Java threads' time is their last measured pace times {@code n}. The first measure is tiering's
 * first apply (the cost model implies tiering), whose code still ran in the interpreter and C1, so
 * the pace is measured again every {@link #REMEASURE_EVERY} applies on the device: with a whole apply
 * on Java threads while their prediction is within {@link #FULL_REMEASURE_WITHIN} of the device's (a
 * close call), else, for a kernel whose bits are the JVM's (only those may share an array), Java
 * threads run the first elements of an apply for the time the device is predicted to need and the
 * device takes over the rest; else with a whole apply once it costs less than
 * {@link #AMORTIZED_REMEASURE_SHARE} of the device's time since the last measure. So a re-measure
 * costs a few percent at most.</li>
 * <li>The device is measured again every {@link #REMEASURE_EVERY} applies on Java threads, while its
 * prediction is within {@link #DEVICE_REMEASURE_WITHIN} of Java's.</li>
 * </ul>
 *
 * <p>Thread-safe: its state changes under its monitor; applies of one function from several threads
 * share it.
 */
final class CostModel {

    /** The device's measures the prediction chooses from. */
    static final int DEVICE_MEASURES = 4;
    /** Applies on one side between two measures of the other. */
    static final int REMEASURE_EVERY = 32;
    /** A whole apply on Java threads to re-measure their pace, only when predicted within this factor of the device. */
    static final double FULL_REMEASURE_WITHIN = 2;
    /**
     * Otherwise a whole apply on Java threads re-measures their pace once it costs less than this
     * share of the device's time since the last measure (a cold first measure of a kernel that
     * cannot be shared is corrected so, at an amortised cost of 5 % at most).
     */
    static final double AMORTIZED_REMEASURE_SHARE = 0.05;
    /**
     * Java threads never measured (the first apply ran on the device) and no share possible: one
     * whole apply measures them once the device has run this long.
     */
    static final double UNMEASURED_JAVA_AFTER_NANOS = 1e9;
    /** The device re-measured only when predicted within this factor of Java threads. */
    static final double DEVICE_REMEASURE_WITHIN = 8;

    /**
     * Where one apply runs, why, whether it is there to measure that side again, and whether the side
     * differs from the previous apply's (explain says such changes).
     */
    record Choice(boolean onJava, boolean measuring, long javaBudgetNanos, String why, boolean sideChanged) {

        /** Runs on Java threads for {@link #javaBudgetNanos}, then the device takes over (a re-measure that shares the apply). */
        boolean sharesWithDevice() {
            return onJava && javaBudgetNanos > 0;
        }
    }

    private double javaNanosPerElement = Double.NaN;
    /**
     * The device's last {@link #DEVICE_MEASURES} measures, host nanoseconds and nanoseconds per
     * element each: the prediction takes the fastest of them, since the first launches of a kernel
     * also try work-group sizes (and PoCL compiles a kernel for each), and a collection may stall one.
     */
    private final double[] deviceHostNanos = new double[DEVICE_MEASURES];
    private final double[] deviceNanosPerElement = new double[DEVICE_MEASURES];
    private int deviceMeasures;
    private int appliesSinceJava;
    /** The device's predicted time of the applies since Java's pace was last measured. */
    private double deviceNanosSinceJava;
    private int appliesSinceDevice;
    private Boolean lastOnJava;

    /**
     * Where the next apply of {@code n} elements runs.
     *
     * @param mayShare whether the function's kernel gives the JVM's bits, so that an apply may be
     *            shared between Java threads and the device
     */
    synchronized Choice choose(long n, boolean mayShare) {
        if (deviceMeasures < 2) {
            // the first launch of a kernel also makes its kernel object (PoCL compiles it for the work-group size then): measured again
            return choice(false, false, 0, "device: not measured yet");
        }
        double device = Double.MAX_VALUE;
        for (int m = 0; m < Math.min(deviceMeasures, DEVICE_MEASURES); m++) {
            device = Math.min(device, deviceHostNanos[m] + deviceNanosPerElement[m] * n);
        }
        if (Double.isNaN(javaNanosPerElement)) {
            // the device ran the first apply (its kernel was ready then): Java's pace is measured by
            // a share, or, where none can be made, by a whole apply once the device has run a second
            if (mayShare) {
                return choice(true, true, (long) device, "Java threads for " + millis(device) + " ms, then the device: measuring Java's pace");
            }
            deviceNanosSinceJava += device;
            return deviceNanosSinceJava > UNMEASURED_JAVA_AFTER_NANOS ? choice(true, true, 0, "Java threads, measuring their pace for the first time")
                            : choice(false, false, 0, "device: Java threads not measured yet");
        }
        double java = javaNanosPerElement * n;
        String predicted = "predicted Java threads " + millis(java) + " ms, the device " + millis(device) + " ms";
        if (java < device) {
            if (++appliesSinceDevice >= REMEASURE_EVERY && device < DEVICE_REMEASURE_WITHIN * java) {
                return choice(false, true, 0, "device, measuring it again: " + predicted);
            }
            return choice(true, false, 0, "Java threads: " + predicted);
        }
        deviceNanosSinceJava += device;
        if (++appliesSinceJava >= REMEASURE_EVERY) {
            // A close call is measured with a whole apply (a short share would time mostly the
            // threads' start); a distant one only for the device's time, then the device takes over.
            if (java < FULL_REMEASURE_WITHIN * device) {
                return choice(true, true, 0, "Java threads, measuring their pace again: " + predicted);
            }
            if (mayShare) {
                return choice(true, true, (long) device, "Java threads for " + millis(device) + " ms, then the device, measuring Java's pace again: " + predicted);
            }
        }
        if (java < AMORTIZED_REMEASURE_SHARE * deviceNanosSinceJava) {
            // an apply that cannot be shared, far from a close call: a whole Java apply, once it
            // costs less than a few percent of the device's time since Java's pace was last measured
            return choice(true, true, 0, "Java threads, measuring their pace again (" + millis(deviceNanosSinceJava) + " ms on the device since): " + predicted);
        }
        return choice(false, false, 0, "device: " + predicted);
    }

    private Choice choice(boolean onJava, boolean measuring, long budget, String why) {
        if (measuring) {
            if (onJava) {
                appliesSinceJava = 0;
                deviceNanosSinceJava = 0;
            } else {
                appliesSinceDevice = 0;
            }
        }
        boolean changed = lastOnJava == null || lastOnJava != onJava;
        lastOnJava = onJava;
        return new Choice(onJava, measuring, budget, why, changed);
    }

    /** Java threads ran {@code elements} in {@code nanos} (a whole apply, or the share before a takeover). */
    synchronized void javaRan(long elements, long nanos) {
        if (elements > 0 && nanos > 0) {
            javaNanosPerElement = (double) nanos / elements;
        }
    }

    /**
     * Java threads' first pace, from a tiered first apply's {@code outcome} (its elements before a
     * takeover and their time), when the cost model is in use for {@code executor}; null: the apply
     * ran again as Java runs it after an exception, and measured nothing.
     */
    void javaRanTiered(jpai.Executor executor, jpai.runtime.exec.ClaimedChunks.Outcome outcome) {
        if (outcome != null && Offload.mayRouteByCost(executor)) {
            javaRan(outcome.takenOverFrom(), outcome.javaNanos());
        }
    }

    /**
     * A run of either side being timed: started when made; {@link #deviceRan(long, Run)} or
     * {@link #javaRan(long, Run)} ends it.
     */
    static final class Run {
        private final long start = System.nanoTime();
        private final jpai.runtime.profile.Profiler.Spent before = jpai.runtime.profile.Profiler.spent();

        /**
         * A timer for a run of {@code executor}'s, or null when the cost model is not in use: then
         * an apply, on either side, neither reads the clock nor allocates for it.
         */
        static Run startIfModelled(jpai.Executor executor) {
            return Offload.mayRouteByCost(executor) ? new Run() : null;
        }
    }

    /** Java threads ran {@code elements}, timed by {@code run} (null: not timed). */
    void javaRan(long elements, Run run) {
        if (run != null) {
            javaRan(elements, System.nanoTime() - run.start);
        }
    }

    /**
     * The device ran an apply of {@code n} elements, timed by {@code run} (null: not timed): its wall
     * time less the compilation in it, and its kernels and transfers from the apply's profile.
     */
    void deviceRan(long n, Run run) {
        if (run == null) {
            return;
        }
        jpai.runtime.profile.Profiler.Spent after = jpai.runtime.profile.Profiler.spent();
        deviceRan(n, System.nanoTime() - run.start - (after.compilationNanos() - run.before.compilationNanos()), after.deviceWorkNanos() - run.before.deviceWorkNanos());
    }

    /**
     * The device ran an apply of {@code n} elements in {@code wallNanos} (compilation excluded), of
     * which {@code deviceWorkNanos} were kernels and transfers.
     */
    synchronized void deviceRan(long n, long wallNanos, long deviceWorkNanos) {
        if (n > 0 && wallNanos > 0) {
            int slot = deviceMeasures++ % DEVICE_MEASURES;
            deviceHostNanos[slot] = Math.max(0, wallNanos - deviceWorkNanos);
            deviceNanosPerElement[slot] = (double) Math.min(deviceWorkNanos, wallNanos) / n;
        }
    }

    /** Milliseconds with three decimals, without {@code String.format} (this runs on every apply). */
    static String millis(double nanos) {
        long micros = Math.round(nanos / 1e3);
        long fraction = micros % 1000;
        return micros / 1000 + (fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".") + fraction;
    }
}
