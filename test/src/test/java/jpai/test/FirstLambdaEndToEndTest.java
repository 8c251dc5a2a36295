package jpai.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.FallbackException;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The Foundation issue's path, whole: {@code AF.map((Float x) -> x * 2.0f + 1.0f)} on a million
 * random floats, compiled by Graal and our phases, emitted as OpenCL C, run on the OpenCL device
 * (PoCL in CI), and compared bit for bit with the JVM.
 */
class FirstLambdaEndToEndTest {

    private static final int SIZE = 1 << 20;

    @AfterEach
    void resetProperties() {
        System.clearProperty("jpai.device");
        System.clearProperty("jpai.fallback");
        System.clearProperty("jpai.dump.opencl");
    }

    static float[] randomFloats(int size, long seed) {
        Random random = new Random(seed);
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = (random.nextFloat() - 0.5f) * 2e6f;
        }
        // Edge values Java defines exactly: signed zeros, NaN, infinities, extremes.
        float[] edges = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, Float.MIN_NORMAL};
        System.arraycopy(edges, 0, values, 0, edges.length);
        return values;
    }

    static void assertSameAsJava(Function<Float, Float> f, float[] input, PArray<Float> result) {
        assertEquals(input.length, result.length());
        float[] actual = result.toFloatArray();
        for (int i = 0; i < input.length; i++) {
            float expected = f.apply(input[i]);
            if (Float.floatToRawIntBits(expected) != Float.floatToRawIntBits(actual[i]) && !(Float.isNaN(expected) && Float.isNaN(actual[i]))) {
                throw new AssertionError("element " + i + ": f(" + input[i] + ") is " + expected + " in Java but " + actual[i] + " from JPAI");
            }
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void runsOnOpenCLAndEqualsJava() {
        assertInstanceOf(DeviceChoice.OpenCL.class, OpenCLRuntime.choice(), "CI has an OpenCL device (PoCL)");
        System.setProperty("jpai.fallback", "error"); // a fallback to Java would fail the test
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        ArrayFunction<Float, Float> map = AF.map(f);
        float[] values = randomFloats(SIZE, 42);
        try (PArray<Float> input = PArray.of(values); PArray<Float> result = map.apply(input)) {
            assertSameAsJava(f, values, result);
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void oneFunctionAppliesToManyInputsOfDifferentSizes() {
        System.setProperty("jpai.fallback", "error");
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        ArrayFunction<Float, Float> map = AF.map(f);
        for (int size : new int[] {1, 1000, 300_001}) {
            float[] values = randomFloats(Math.max(size, 9), size);
            try (PArray<Float> input = PArray.of(values); PArray<Float> result = map.apply(input)) {
                assertSameAsJava(f, values, result);
            }
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void dumpsTheGeneratedKernel(@TempDir Path dir) throws IOException {
        System.setProperty("jpai.dump.opencl", dir.toString());
        System.setProperty("jpai.fallback", "error");
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        try (PArray<Float> input = PArray.of(randomFloats(100, 7)); PArray<Float> result = AF.map(f).apply(input)) {
            assertEquals(100, result.length());
        }
        List<Path> kernels;
        try (Stream<Path> files = Files.list(dir)) {
            kernels = files.filter(p -> p.toString().endsWith(".cl")).toList();
        }
        assertEquals(1, kernels.size(), "one kernel written: " + kernels);
        String text = Files.readString(kernels.get(0));
        assertTrue(text.contains("__kernel void jpai_map(__global const float *restrict in0, __global float *restrict out0, const long base, const long n, __global int *jpai_status)"), text);
        assertTrue(text.contains("(float x0, __private float *r0)"), "the function takes a bare float: " + text);
        assertTrue(text.contains("#pragma OPENCL FP_CONTRACT OFF"), text);
        assertFalse(text.contains("Float"), "no trace of the wrapper type: " + text);
    }

    @Test
    void javaThreadsGiveTheSameResultWhenAskedFor() {
        System.setProperty("jpai.device", "java");
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        float[] values = randomFloats(SIZE, 43);
        try (PArray<Float> input = PArray.of(values); PArray<Float> result = AF.map(f).apply(input)) {
            assertInstanceOf(DeviceChoice.JavaThreads.class, OpenCLRuntime.choice());
            assertSameAsJava(f, values, result);
        }
    }

    @Test
    void aDeviceThatMatchesNothingFallsBackToJavaThreads() {
        System.setProperty("jpai.device", "no-such-device-anywhere");
        DeviceChoice choice = OpenCLRuntime.choice();
        assertInstanceOf(DeviceChoice.JavaThreads.class, choice);
        assertTrue(choice.why().contains("no-such-device-anywhere"), choice.why());
        Function<Float, Float> f = x -> x * 2.0f + 1.0f;
        float[] values = randomFloats(1000, 44);
        try (PArray<Float> input = PArray.of(values); PArray<Float> result = AF.map(f).apply(input)) {
            assertSameAsJava(f, values, result);
        }
    }

    static int bits(int x) {
        return x <= 0 ? 0 : 1 + bits(x >>> 1);
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void unsupportedCodeFallsBackAndCanSayWhy() {
        Function<Integer, Integer> recursive = x -> bits(x & 0xffff); // recursion is not compiled to OpenCL
        int[] values = new Random(5).ints(5000).toArray();
        try (PArray<Integer> input = PArray.of(values); PArray<Integer> result = AF.map(recursive).apply(input)) {
            for (int i = 0; i < values.length; i++) {
                assertEquals(recursive.apply(values[i]), result.get(i));
            }
        }
        System.setProperty("jpai.fallback", "error");
        try (PArray<Integer> input = PArray.of(values)) {
            FallbackException e = assertThrows(FallbackException.class, () -> AF.map(recursive).apply(input));
            assertTrue(e.getMessage().contains("FirstLambdaEndToEndTest.java:"), "names the source line: " + e.getMessage());
        }
    }
}
