package jpai.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.function.LongSupplier;

import org.jocl.cl_mem;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.KernelLaunches;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Issue 12's question for captured Java arrays: is it cheaper to find out that a captured
 * {@code float[]} did not change since the last apply than to send it again? For arrays of 1 KiB to
 * 32 MiB it times, on the host, the two cheap detections an automatic scheme could use (a 64-bit
 * hash over the contents, 8 independent lanes so that the loop pipelines; and an exact comparison
 * with a snapshot kept from the last send, {@code Arrays.mismatch}, which the JVM vectorises, plus
 * the snapshot's refresh when it did change), against sending the array (a blocking write from the
 * Java heap, as the runtime sends a captured array today, and from pinned memory, as it sends a
 * {@code PArray}), and the end-to-end apply of a small map that captures the array as a
 * {@code float[]} and as a {@code PArray<Float>} (resident: nothing sent when unchanged). The JPAI
 * results are checked against Java's before timing, a fallback is an error and the kernels are
 * counted.
 *
 * <p>Prints CSV, medians in microseconds. Here: {@code bin/jpai run jpai.bench.CapturedArrayCost};
 * on the GPU machine, after {@code bin/gpu-bundle --tests}: {@code bin/gpu-check captured}.
 */
public final class CapturedArrayCost {

    /** Array sizes in bytes: 1 KiB to 32 MiB. */
    private static final long[] SIZES = {1L << 10, 1L << 14, 1L << 18, 1L << 20, 1L << 22, 1L << 25};
    /** Elements of the map that reads the captured array (its kernel is trivial next to a transfer). */
    private static final int MAP_ELEMENTS = 1024;

    private CapturedArrayCost() {
    }

    public static void main(String[] args) {
        if (!(OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device)) {
            System.err.println("CapturedArrayCost: no OpenCL device in use (" + OpenCLRuntime.choice().why() + ")");
            System.exit(2);
            return;
        }
        System.setProperty("jpai.fallback", "error");
        try (Jocl jocl = Jocl.open(device.device())) {
            System.out.println("device: " + device.device().name().strip() + "; medians in us");
            System.out.println("bytes,hash64,compare_unchanged,refresh_snapshot,send_from_heap,send_from_pinned,apply_capturing_float_array,apply_capturing_parray");
            for (long bytes : SIZES) {
                measure(jocl, (int) (bytes / 4));
                jocl.releaseAll();
            }
        }
    }

    private static void measure(Jocl jocl, int n) {
        float[] array = new float[n];
        for (int i = 0; i < n; i++) {
            array[i] = i * 0.37f - 11f;
        }
        float[] snapshot = array.clone();
        long bytes = 4L * n;
        int reps = (int) Math.max(7, Math.min(200, (256L << 20) / bytes));
        long[] sink = new long[1];

        long hash = median(reps, () -> {
            sink[0] += hash64(array);
            return 0;
        });
        long compare = median(reps, () -> {
            if (Arrays.mismatch(array, snapshot) >= 0) {
                throw new AssertionError("the snapshot differs");
            }
            return 0;
        });
        long refresh = median(reps, () -> {
            System.arraycopy(array, 0, snapshot, 0, n);
            return 0;
        });
        cl_mem device = jocl.deviceBuffer(bytes);
        Jocl.Pinned pinned = jocl.pinned(bytes);
        pinned.host().asFloatBuffer().put(array);
        long fromHeap = median(reps, () -> {
            jocl.writeNow(device, array);
            return 0;
        });
        long fromPinned = median(reps, () -> {
            jocl.writeNow(device, pinned);
            return 0;
        });
        long applyArray;
        long applyPArray;
        try (PArray<Integer> indices = PArray.range(MAP_ELEMENTS); PArray<Float> resident = PArray.of(array)) {
            int mask = n - 1; // n is a power of two
            ArrayFunction<Integer, Float> readsArray = AF.map((Integer i) -> array[i & mask] + 1f);
            ArrayFunction<Integer, Float> readsPArray = AF.map((Integer i) -> resident.get(i & mask) + 1f);
            validate(readsArray, indices, array, mask, "capturing the float[]");
            validate(readsPArray, indices, array, mask, "capturing the PArray");
            applyArray = timedApplies(readsArray, indices, reps);
            applyPArray = timedApplies(readsPArray, indices, reps);
        }
        System.out.printf("%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f%n", bytes, hash / 1e3, compare / 1e3, refresh / 1e3, fromHeap / 1e3, fromPinned / 1e3, applyArray / 1e3,
                applyPArray / 1e3);
        if (sink[0] == 42) {
            System.out.println(); // keeps the hash from being optimised away
        }
    }

    /**
     * A 64-bit hash of the array's bits: 8 lanes of multiply-add over 64-bit words, independent so
     * that the CPU overlaps them, folded at the end. What a change detector would pay at the least;
     * alone it cannot prove an array unchanged (a collision would give a stale result).
     */
    static long hash64(float[] array) {
        MemorySegment memory = MemorySegment.ofArray(array);
        long words = memory.byteSize() / 8;
        long h0 = 1, h1 = 2, h2 = 3, h3 = 4, h4 = 5, h5 = 6, h6 = 7, h7 = 8;
        long i = 0;
        for (; i + 8 <= words; i += 8) {
            h0 = (h0 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i)) * 0x9E3779B97F4A7C15L;
            h1 = (h1 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 1)) * 0x9E3779B97F4A7C15L;
            h2 = (h2 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 2)) * 0x9E3779B97F4A7C15L;
            h3 = (h3 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 3)) * 0x9E3779B97F4A7C15L;
            h4 = (h4 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 4)) * 0x9E3779B97F4A7C15L;
            h5 = (h5 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 5)) * 0x9E3779B97F4A7C15L;
            h6 = (h6 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 6)) * 0x9E3779B97F4A7C15L;
            h7 = (h7 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i + 7)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < words; i++) {
            h0 = (h0 + memory.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i)) * 0x9E3779B97F4A7C15L;
        }
        return h0 ^ Long.rotateLeft(h1, 8) ^ Long.rotateLeft(h2, 16) ^ Long.rotateLeft(h3, 24) ^ Long.rotateLeft(h4, 32) ^ Long.rotateLeft(h5, 40)
                ^ Long.rotateLeft(h6, 48) ^ Long.rotateLeft(h7, 56);
    }

    private static void validate(ArrayFunction<Integer, Float> map, PArray<Integer> indices, float[] array, int mask, String what) {
        long launches = KernelLaunches.count();
        for (int call = 0; call < 5; call++) {
            try (PArray<Float> out = map.apply(indices)) {
                for (int i = 0; i < MAP_ELEMENTS; i++) {
                    float expected = array[i & mask] + 1f;
                    if (Float.floatToRawIntBits(out.get(i)) != Float.floatToRawIntBits(expected)) {
                        throw new AssertionError(what + ": element " + i + " is " + out.get(i) + ", Java gives " + expected);
                    }
                }
            }
        }
        if (KernelLaunches.count() - launches < 5) {
            throw new IllegalStateException(what + ": 5 applies enqueued only " + (KernelLaunches.count() - launches) + " kernels");
        }
    }

    private static long timedApplies(ArrayFunction<Integer, Float> map, PArray<Integer> indices, int reps) {
        long launches = KernelLaunches.count();
        long time = median(reps, () -> {
            map.apply(indices).close();
            return 0;
        });
        if (KernelLaunches.count() - launches < reps) {
            throw new IllegalStateException(reps + " timed applies enqueued only " + (KernelLaunches.count() - launches) + " kernels");
        }
        return time;
    }

    /** The median wall time of {@code reps} runs of {@code work}, after as many untimed ones. */
    private static long median(int reps, LongSupplier work) {
        for (int i = 0; i < reps; i++) {
            work.getAsLong();
        }
        long[] times = new long[reps];
        for (int i = 0; i < reps; i++) {
            long start = System.nanoTime();
            work.getAsLong();
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        return times[reps / 2];
    }
}
