package jpai.bench;

import java.util.Random;

/**
 * One benchmark program in its six versions, all computing the same algorithm in the same precision.
 * A program makes its data (random, fixed seed), and from it each version's {@link Run}; the
 * {@link Harness} validates, warms up and times them.
 *
 * @param <D> the program's data set: inputs as Java arrays, from which each version makes its own
 *            inputs (PArrays, pinned buffers) before timing
 */
public abstract class Program<D> {

    /** Short name, as used by {@code --only}: "saxpy", "nbody". */
    public abstract String name();

    /** "float", "double" or "int" (the precision of the computation and of the output). */
    public abstract String precision();

    /** What one run computes, one sentence for the report. */
    public abstract String description();

    /** The problem size of a size class: elements, bodies, points, or the side of a square. */
    public abstract int size(SizeClass size);

    /** How the size reads in the report ("2^20 floats", "4096 bodies", "1024^2 pixels"). */
    public abstract String sizeLabel(int n);

    /** How close the other versions must be to the sequential one. */
    public abstract Tolerance tolerance(int n);

    /** Why this tolerance (one sentence for the report), or "" for exact outputs. */
    public String toleranceReason() {
        return "";
    }

    /** Random inputs of size {@code n}; never all zero. */
    public abstract D createData(int n, Random random);

    public abstract Run sequential(D data);

    /** The sequential version's output for {@code data}: the reference the other versions are validated against. */
    public Output reference(D data) {
        try (Run sequential = sequential(data)) {
            sequential.run();
            return sequential.output();
        }
    }

    public abstract Run streams(D data);

    /**
     * The JPAI version, on whichever executor {@link JpaiExecution} selects: the same code is timed as
     * "JPAI on Java threads" and "JPAI on OpenCL". Public API only, as a user writes it.
     *
     * @throws NotRunException when today's API cannot express the same algorithm
     */
    public abstract Run jpai(D data);

    public abstract Run openCL(D data, Jocl jocl);

    /** Whether {@link #openCLExact} exists: the program's exact results cost its kernels something that {@link #openCL} does not pay. */
    public boolean hasExactOpenCL() {
        return false;
    }

    /**
     * The hand-written kernel in Java's precision ({@link VersionKind#OPENCL_EXACT}): where
     * {@link #hasExactOpenCL()}; held to {@link #validate} and reported with how many of its
     * outputs differ from sequential Java's bits.
     */
    public Run openCLExact(D data, Jocl jocl) {
        throw new NotRunException("not run", name() + " has no exact hand-written version: its hand-written kernel is compared as it is");
    }

    public abstract Run aparapi(D data, AparapiSupport aparapi);

    /**
     * Null when {@code candidate} matches {@code reference} within {@link #tolerance}, else what
     * differs. Programs whose outputs need more than elementwise comparison override it.
     */
    public String validate(D data, int n, Output reference, Output candidate) {
        return tolerance(n).check(reference, candidate);
    }

    /**
     * As {@link #validate}, for the JPAI fast-math version ({@link VersionKind#JPAI_FAST_MATH}): what
     * passes {@link #validate} passes; else the elements must be within
     * {@link Tolerance#relaxedForFastMath()} of the program's tolerance.
     */
    public String validateFastMath(D data, int n, Output reference, Output candidate) {
        if (validate(data, n, reference, candidate) == null) {
            return null;
        }
        return tolerance(n).relaxedForFastMath().check(reference, candidate);
    }

    /** "2^20" for powers of two, else the number. */
    protected static String pow2(long n) {
        if (Long.bitCount(n) == 1) {
            return "2^" + Long.numberOfTrailingZeros(n);
        }
        return Long.toString(n);
    }
}
