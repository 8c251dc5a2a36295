package jpai.bench;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A hand-written OpenCL version: {@code call} enqueues the writes, kernels and reads of one call and
 * returns {@link Jocl#finish()} (the kernels' event time). Buffers and kernels belong to the
 * {@link Jocl}, which the harness releases after the version.
 */
final class OpenCLRun implements Run {

    private final Jocl jocl;
    private final LongSupplier call;
    private final Supplier<Output> output;

    OpenCLRun(Jocl jocl, LongSupplier call, Supplier<Output> output) {
        this.jocl = jocl;
        this.call = call;
        this.output = output;
    }

    @Override
    public long run() {
        return call.getAsLong();
    }

    @Override
    public Output output() {
        return output.get();
    }

    @Override
    public String ranOn() {
        return jocl.ranOn();
    }

    @Override
    public void close() {
    }

    static float[] floats(Jocl.Pinned pinned, int n) {
        float[] values = new float[n];
        pinned.host().asFloatBuffer().get(0, values);
        return values;
    }

    static double[] doubles(Jocl.Pinned pinned, int n) {
        double[] values = new double[n];
        pinned.host().asDoubleBuffer().get(0, values);
        return values;
    }

    static int[] ints(Jocl.Pinned pinned, int n) {
        int[] values = new int[n];
        pinned.host().asIntBuffer().get(0, values);
        return values;
    }
}
