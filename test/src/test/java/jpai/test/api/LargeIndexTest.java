package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Function;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.Tuple2;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.device.DeviceKind;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * Maps split into several enqueues, and arrays past 2^31 elements (issue 11: on the H100, element 2^31
 * of a 3·2^30-byte map came back unchanged, with no fallback). A split launch now passes each
 * enqueue's first index as a kernel argument instead of a global work offset, whose width past 2^31 is
 * the driver's choice.
 */
class LargeIndexTest {

    /** Small maps split into enqueues of 1024 work-items: every element, each piece's first and last included. */
    @Test
    void aMapSplitIntoManyEnqueuesCoversEveryElement() {
        String previous = System.getProperty("jpai.map.maxWorkItemsPerEnqueue");
        System.setProperty("jpai.map.maxWorkItemsPerEnqueue", "1024");
        try {
            int n = 10 * 1024 + 3;
            byte[] bytes = new byte[n];
            int[] ints = new int[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = (byte) (i * 31);
                ints[i] = i * 7 - 5000;
            }
            Function<Byte, Byte> plusOne = x -> (byte) (x + 1);
            Function<Tuple2<Byte, Integer>, Integer> combine = t -> t._1() * 3 + t._2();
            try (PArray<Byte> b = PArray.of(bytes); PArray<Integer> i = PArray.of(ints); PArray<Tuple2<Byte, Integer>> zipped = PArray.zip(b, i);
                            PArray<Byte> mapped = ExecutorCase.apply(AF.map(plusOne), Executor.ACCELERATOR, b);
                            PArray<Integer> zippedMapped = ExecutorCase.apply(AF.map(combine), Executor.ACCELERATOR, zipped)) {
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(plusOne, b), mapped, "byte map in pieces of 1024");
                ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(combine, zipped), zippedMapped, "zip map in pieces of 1024");
            }
        } finally {
            if (previous == null) {
                System.clearProperty("jpai.map.maxWorkItemsPerEnqueue");
            } else {
                System.setProperty("jpai.map.maxWorkItemsPerEnqueue", previous);
            }
        }
    }

    /**
     * 3·2^30 bytes: a map, a zip and a reduce, checked around every 2^30 boundary (the enqueue pieces
     * and transfer slices) and 2^31, and at sampled elements everywhere. Runs on a GPU with room for
     * it (the H100: {@code bin/gpu-check tests}), or anywhere with {@code JPAI_LARGE_TESTS=1}.
     */
    @Test
    void mapZipAndReducePast2To31Elements() {
        Assumptions.assumeTrue("1".equals(System.getenv("JPAI_LARGE_TESTS")) || gpuWithMemory(14L << 30),
                        "needs a GPU with 14 GiB or JPAI_LARGE_TESTS=1");
        long n = 3L << 30;
        Function<Byte, Byte> plusOne = x -> (byte) (x + 1);
        Function<Tuple2<Byte, Byte>, Byte> difference = t -> (byte) (t._1() - t._2());
        try (PArray<Byte> input = PArray.allocate(Byte.class, n)) {
            for (long k = 0; k < n; k += 1L << 20) { // a pattern that differs per megabyte and per byte
                input.put(k, (byte) (k >>> 20));
            }
            long[] probes = probes(n);
            for (long p : probes) {
                input.put(p, (byte) (p * 13));
            }
            try (PArray<Byte> plus = ExecutorCase.apply(AF.map(plusOne), Executor.ACCELERATOR, input);
                            PArray<Tuple2<Byte, Byte>> zipped = PArray.zip(plus, input);
                            PArray<Byte> diff = ExecutorCase.apply(AF.map(difference), Executor.ACCELERATOR, zipped)) {
                for (long p : probes) {
                    assertEquals((byte) (input.get(p) + 1), plus.get(p), "map element " + p);
                    assertEquals((byte) 1, diff.get(p), "zip element " + p);
                }
                for (long k = 0; k < n; k += (1L << 20) + 7) {
                    assertEquals((byte) (input.get(k) + 1), plus.get(k), "map element " + k);
                }
                ArrayFunction<Byte, Long> sum = AF.map((Byte x) -> (long) x).reduce((a, b) -> a + b, 0L);
                try (PArray<Long> total = ExecutorCase.apply(sum, Executor.ACCELERATOR, diff)) {
                    assertEquals(n, total.get(0), "the sum of 3·2^30 ones");
                }
            }
        }
    }

    private static boolean gpuWithMemory(long bytes) {
        return OpenCLRuntime.choice() instanceof DeviceChoice.OpenCL device && device.device().kind() == DeviceKind.GPU && device.device().globalMemoryBytes() >= bytes;
    }

    private static long[] probes(long n) {
        java.util.List<Long> list = new java.util.ArrayList<>();
        for (long boundary = 0; boundary <= n; boundary += 1L << 30) {
            for (long d = -64; d <= 64; d++) {
                long p = boundary + d;
                if (p >= 0 && p < n) {
                    list.add(p);
                }
            }
        }
        list.add(n - 1);
        return list.stream().mapToLong(Long::longValue).toArray();
    }
}
