package jpai.bench;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import jpai.PArray;

/**
 * A JPAI version: inputs already in PArrays (where a JPAI user keeps data), a body that applies the
 * built {@code ArrayFunction}s and returns the result PArrays, and the conversion of those to an
 * {@link Output} for validation. Where it ran is decided and reported by the {@link Harness}.
 */
final class JpaiRun implements Run {

    private final List<? extends PArray<?>> inputs;
    private final Supplier<List<PArray<?>>> body;
    private final Function<List<PArray<?>>, Output> toOutput;
    private final String note;
    private List<PArray<?>> last = List.of();

    /**
     * @param inputs   closed with the run
     * @param body     one call: applies the functions; returns the results, which the caller owns
     * @param toOutput copies the results into Java arrays
     * @param note     what the report should know about how this version is written, or null
     */
    JpaiRun(List<? extends PArray<?>> inputs, Supplier<List<PArray<?>>> body, Function<List<PArray<?>>, Output> toOutput, String note) {
        this.inputs = inputs;
        this.body = body;
        this.toOutput = toOutput;
        this.note = note;
    }

    @Override
    public long run() {
        last = body.get();
        return NO_KERNEL_TIME;
    }

    @Override
    public Output output() {
        return toOutput.apply(last);
    }

    @Override
    public String ranOn() {
        return JpaiExecution.where();
    }

    @Override
    public String note() {
        return note;
    }

    @Override
    public void discard() {
        last.forEach(PArray::close);
        last = List.of();
    }

    @Override
    public void close() {
        discard();
        inputs.forEach(PArray::close);
    }

    /** 0, 1, ..., n-1: the input of a map over indices. */
    static PArray<Integer> indices(int n) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i;
        }
        return PArray.of(values);
    }
}
