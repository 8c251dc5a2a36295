package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BinaryOperator;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.opencl.DriverCalls;
import jpai.runtime.opencl.DriverCalls.Call;

/**
 * Reading results ahead (docs/runtime.md) and the first reduction pass that maps one element per
 * work-item keep Java's results where kernels exit: after a result read ahead, a kernel that leaves
 * at an element keeps its elements before it and Java computes the rest; a fused pipeline reads
 * ahead like a single map; a compute-bound mapper that throws inside a reduction gives Java's
 * exception with Java's message.
 */
class ReadAheadTest {

    @Test
    void aKernelThatExitsAfterItsResultWasReadAheadKeepsJavasBits() {
        int n = 4096;
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (i - 2000) * 0.37f;
        }
        values[3000] = 1.0e9f; // an angle whose reduction kernels leave to Java: the kernel exits there
        Function<Float, Float> sine = x -> (float) Math.sin(x);
        ArrayFunction<Float, Float> f = AF.map(sine);
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            expected[i] = (float) StrictMath.sin(values[i]);
        }
        try (PArray<Float> input = PArray.of(values)) {
            for (int round = 0; round < 3; round++) { // the first result is read lazily, the later ones ahead
                try (PArray<Float> out = ExecutorCase.apply(f, Executor.ACCELERATOR, input)) {
                    ApplyProfile profile = AF.lastProfile();
                    if (ExecutorCase.openCLExpected()) {
                        assertTrue(profile.kernelCount() > 0 && profile.kernelExits() > 0, "round " + round + ": the kernel ran and exited: " + profile);
                    }
                    assertArrayEquals(expected, out.toFloatArray(), "round " + round);
                }
            }
        }
    }

    @Test
    void aFusedPipelineWhoseResultsAreReadReadsThemAhead() {
        int n = 10_000;
        float[] values = new float[n];
        float[] expected = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.25f - 300f;
            expected[i] = ((values[i] * 2f) + 1f) * 0.5f;
        }
        ArrayFunction<Float, Float> pipeline = AF.<Float, Float> map(x -> x * 2f).andThen(AF.map(x -> x + 1f)).andThen(AF.map(x -> x * 0.5f));
        try (PArray<Float> input = PArray.of(values)) {
            for (int round = 0; round < 3; round++) {
                try (PArray<Float> out = pipeline.apply(input)) {
                    assertArrayEquals(expected, out.toFloatArray(), "round " + round);
                }
            }
            try (PArray<Float> out = pipeline.apply(input)) {
                long[] before = DriverCalls.snapshot();
                float[] read = out.toFloatArray();
                long[] after = DriverCalls.snapshot();
                assertArrayEquals(expected, read);
                if (ExecutorCase.openCLExpected()) {
                    assertTrue(AF.lastProfile().kernelCount() > 0, "the pipeline ran on the device: " + AF.lastProfile());
                    assertEquals(0, DriverCalls.between(before, after, Call.ENQUEUE_TRANSFER), "the read found the data on the host: " + DriverCalls.describe(before, after));
                }
            }
        }
    }

    @Test
    void aMapperWithALoopThatThrowsInsideAReductionThrowsJavasException() {
        int n = 100_003;
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i % 97 + 1;
        }
        values[77_777] = 0; // the mapper divides by it after its loop
        Function<Integer, Integer> mapper = v -> {
            int digits = 0;
            for (int left = v; left > 0; left /= 10) {
                digits++;
            }
            return 1000 / v + digits;
        };
        BinaryOperator<Integer> firstNonZero = (p, q) -> p != 0 ? p : q;
        ArithmeticException java = assertThrows(ArithmeticException.class, () -> {
            int result = 0;
            for (int v : values) {
                result = firstNonZero.apply(result, mapper.apply(v));
            }
        });
        try (PArray<Integer> input = PArray.of(values)) {
            ArithmeticException device = assertThrows(ArithmeticException.class, () -> ExecutorCase.apply(AF.map(mapper).reduce(firstNonZero, 0), Executor.ACCELERATOR, input).close());
            assertEquals(java.getMessage(), device.getMessage(), "Java's message");
        }
    }
}
