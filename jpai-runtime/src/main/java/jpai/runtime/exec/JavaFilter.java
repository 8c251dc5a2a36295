package jpai.runtime.exec;

import java.util.function.Predicate;

import jpai.DataType;
import jpai.PArray;
import jpai.runtime.memory.BufferLeases;

/**
 * Runs a filter on the JVM: the elements for which the predicate holds, in their order. The
 * predicate is called once per element, in order within each chunk; the kept elements' count is
 * known only after every chunk has run, so each chunk first marks its kept elements and counts
 * them, and the output, allocated then, is filled at each chunk's offset. An exception of the
 * predicate is the first chunk's that threw ({@link Chunks#forEach}), there at the first element.
 */
public final class JavaFilter {

    private JavaFilter() {
    }

    /** The kept elements of {@code input}, on the fork/join pool or, with {@code parallel} false, on the calling thread. */
    @SuppressWarnings("unchecked")
    public static <T> PArray<T> run(Predicate<T> predicate, PArray<T> input, boolean parallel) {
        long length = input.length();
        long chunk = parallel ? Chunks.chunkSize(length) : Math.max(1, length);
        int chunks = Chunks.count(length, chunk);
        long[] counts = new long[chunks];
        try (PArray<Boolean> kept = PArray.allocate(Boolean.class, length)) {
            try (BufferLeases leases = BufferLeases.of(input, kept)) {
                ElementReader reader = ElementReader.ofLeased(input);
                ElementWriter marks = ElementWriter.ofLeased(kept);
                Chunks.forEach(length, chunk, (from, to) -> {
                    long count = 0;
                    for (long i = from; i < to; i++) {
                        boolean keep = predicate.test((T) reader.read(i));
                        marks.write(i, keep);
                        count += keep ? 1 : 0;
                    }
                    counts[(int) (from / chunk)] = count;
                });
            }
            return compact(input, kept, chunk, counts);
        }
    }

    /**
     * The elements of {@code input} whose flag in {@code kept} is true, in order, on the fork/join
     * pool: the flags computed elsewhere (a tiered filter's Java threads and device).
     */
    public static <T> PArray<T> keptElements(PArray<T> input, PArray<Boolean> kept) {
        long length = input.length();
        long chunk = Chunks.chunkSize(length);
        int chunks = Chunks.count(length, chunk);
        long[] counts = new long[chunks];
        try (BufferLeases leases = BufferLeases.of(kept)) {
            ElementReader marks = ElementReader.ofLeased(kept);
            Chunks.forEach(length, chunk, (from, to) -> {
                long count = 0;
                for (long i = from; i < to; i++) {
                    count += (Boolean) marks.read(i) ? 1 : 0;
                }
                counts[(int) (from / chunk)] = count;
            });
        }
        return compact(input, kept, chunk, counts);
    }

    /** The elements of {@code input} marked in {@code kept}, {@code counts[c]} of them in chunk {@code c}. */
    private static <T> PArray<T> compact(PArray<T> input, PArray<Boolean> kept, long chunk, long[] counts) {
        long[] offsets = new long[counts.length];
        long total = 0;
        for (int c = 0; c < counts.length; c++) {
            offsets[c] = total;
            total += counts[c];
        }
        return compact(input, kept, total, chunk, offsets);
    }

    /** The elements of {@code input} marked in {@code kept}, {@code total} of them, chunk {@code c}'s from {@code offsets[c]}. */
    @SuppressWarnings("unchecked")
    private static <T> PArray<T> compact(PArray<T> input, PArray<Boolean> kept, long total, long chunk, long[] offsets) {
        DataType type = input.type();
        PArray<T> output = (PArray<T>) PArray.allocateUninitialized(type, total);
        try (BufferLeases leases = BufferLeases.of(input, kept, output)) {
            ElementReader reader = ElementReader.ofLeased(input);
            ElementReader marks = ElementReader.ofLeased(kept);
            ElementWriter writer = ElementWriter.ofLeased(output);
            Chunks.forEach(input.length(), chunk, (from, to) -> {
                long at = offsets[(int) (from / chunk)];
                for (long i = from; i < to; i++) {
                    if ((Boolean) marks.read(i)) {
                        writer.write(at++, reader.read(i));
                    }
                }
            });
        } catch (RuntimeException | Error e) {
            output.close();
            throw e;
        }
        return output;
    }
}
