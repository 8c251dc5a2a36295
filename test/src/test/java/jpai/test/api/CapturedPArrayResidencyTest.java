package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.AF;
import jpai.ApplyProfile;
import jpai.ArrayFunction;
import jpai.PArray;
import jpai.Tuple2;

/**
 * Issue 12's resident captured data: a lambda that captures a {@code PArray} reads it where it
 * lives, so applying the function again sends nothing when the array is unchanged, and a write
 * through the API ({@code put}, {@code copyFrom}, a write scope) makes the next apply send it again
 * and see the new values. Counted through the apply's profile; every result compared with Java's.
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class CapturedPArrayResidencyTest {

    /** The two status ints a launch may send when it needs a new, zeroed status buffer. */
    private static final long STATUS_BYTES = 8;
    private static final int N = 40;
    private static final long MATRIX_BYTES = 4L * N * N;

    @Test
    void aCapturedPArrayIsSentOnceAndAgainOnlyAfterAWrite() {
        Random random = new Random(12);
        try (PArray<Float> a = PArray.of(randomFloats(random, N * N)); PArray<Float> b = PArray.of(randomFloats(random, N * N));
                        PArray<Tuple2<Integer, Integer>> elements = PArray.range(N, N)) {
            Function<Tuple2<Integer, Integer>, Float> dot = ij -> {
                float sum = 0;
                for (int k = 0; k < N; k++) {
                    sum += a.get(ij._1() * N + k) * b.get(k * N + ij._2());
                }
                return sum;
            };
            ArrayFunction<Tuple2<Integer, Integer>, Float> multiply = AF.map(dot);

            ApplyProfile first = applyAsJava(dot, multiply, elements, "first apply");
            assertSent(2 * MATRIX_BYTES, first, "the first apply sends both captured matrices");

            ApplyProfile again = applyAsJava(dot, multiply, elements, "second apply, nothing changed");
            assertTrue(again.hostToDeviceBytes() <= STATUS_BYTES, "unchanged captured PArrays are not sent again: " + again);

            a.put(N + 3, 100f);
            ApplyProfile afterPut = applyAsJava(dot, multiply, elements, "after a put into A");
            assertSent(MATRIX_BYTES, afterPut, "a put makes A, and only A, go again");

            b.copyFrom(randomFloats(random, N), 5L * N);
            ApplyProfile afterCopy = applyAsJava(dot, multiply, elements, "after a copyFrom into B");
            assertSent(MATRIX_BYTES, afterCopy, "a copyFrom makes B, and only B, go again");

            try (PArray.WriteScope scope = a.writeScope()) {
                MemorySegment memory = scope.segment();
                memory.setAtIndex(ValueLayout.JAVA_FLOAT, 0, -7.5f);
                memory.setAtIndex(ValueLayout.JAVA_FLOAT, (long) N * N - 1, Float.MIN_VALUE);
            }
            ApplyProfile afterScope = applyAsJava(dot, multiply, elements, "after a write scope on A");
            assertSent(MATRIX_BYTES, afterScope, "a closed write scope makes A go again");

            ApplyProfile last = applyAsJava(dot, multiply, elements, "again, nothing changed");
            assertTrue(last.hostToDeviceBytes() <= STATUS_BYTES, "nothing is sent once both are current again: " + last);
        }
    }

    @Test
    void aCapturedResultOfAnotherApplyNeverCrossesTheBus() {
        Random random = new Random(13);
        int length = 4096;
        try (PArray<Float> values = PArray.of(randomFloats(random, length)); PArray<Integer> indices = PArray.range(length)) {
            try (PArray<Float> table = AF.map((Float x) -> x * 0.5f + 1f).apply(values)) {
                Function<Integer, Float> lookup = i -> table.get((i * 7) % table.length()) - table.get(i);
                ArrayFunction<Integer, Float> map = AF.map(lookup);
                ApplyProfile profile = applyAsJava(lookup, map, indices, "a map capturing a map's result");
                assertTrue(profile.hostToDeviceBytes() <= STATUS_BYTES, "the captured result was on the device already: " + profile);
            }
        }
    }

    @Test
    void aCapturedJavaArrayIsSentAtEveryApplyUnlikeAPArray() {
        float[] table = randomFloats(new Random(14), 1024);
        try (PArray<Integer> indices = PArray.range(2048)) {
            Function<Integer, Float> lookup = i -> table[i & 1023] * 3f;
            ArrayFunction<Integer, Float> map = AF.map(lookup);
            applyAsJava(lookup, map, indices, "a captured float[]");
            ApplyProfile again = applyAsJava(lookup, map, indices, "a captured float[], applied again");
            assertSent(4L * table.length, again, "a captured Java array goes at every apply (it may have changed)");
        }
    }

    /** Applies {@code function} on the device, checks that it ran there and gave Java's result, and returns its profile. */
    private static <T> ApplyProfile applyAsJava(Function<T, Float> lambda, ArrayFunction<T, Float> function, PArray<T> input, String what) {
        DeviceRun.assertOnDeviceAsJava(lambda, function, input, what);
        return AF.lastProfile();
    }

    private static void assertSent(long bytes, ApplyProfile profile, String what) {
        assertTrue(profile.hostToDeviceBytes() >= bytes && profile.hostToDeviceBytes() <= bytes + STATUS_BYTES, what + " (" + bytes + " bytes): " + profile);
    }

    private static float[] randomFloats(Random random, int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextFloat() * 2 - 1;
        }
        return values;
    }
}
