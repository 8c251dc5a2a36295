package jpai.ocl;

import static jpai.ocl.KernelTestSupport.assertMapEqualsJava;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import jpai.compiler.KernelBailoutException;

/** Captured values become kernel parameters: scalars by value, arrays as read-only buffers. */
class CapturedValuesOnDeviceTest {

    static final int[] INDICES = {0, 1, 2, 3};

    private int instanceScale = 3;

    @Test
    void capturedScalarsAndBoxes() {
        float scale = 2.5f;
        Integer offset = 7;
        long big = 1L << 40;
        assertMapEqualsJava((Float x) -> x * scale + offset, Float.class, Float.class, new float[] {0f, 1f, -2f, Float.NaN});
        assertMapEqualsJava((Integer x) -> x + big, Integer.class, Long.class, INDICES);
        byte small = -3;
        char letter = 'z';
        boolean flag = true;
        assertMapEqualsJava((Integer x) -> flag ? x * small + letter : 0, Integer.class, Integer.class, INDICES);
    }

    @Test
    void capturedArraysOfEveryKind() {
        float[] weights = {0.5f, -1f, 2f, 4f};
        double[] doubles = {1e-3, 2.0, Double.NaN, -0.0};
        byte[] bytes = {-1, 127, -128, 5};
        short[] shorts = {-1, 32767, -32768, 5};
        char[] chars = {'a', 65535, 0, 'b'};
        boolean[] flags = {true, false, true, false};
        long[] longs = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
        assertMapEqualsJava((Integer i) -> weights[i] * weights.length, Integer.class, Float.class, INDICES);
        assertMapEqualsJava((Integer i) -> doubles[i] + bytes[i] + shorts[i] + chars[i] + (flags[i] ? 1 : 0), Integer.class, Double.class, INDICES);
        assertMapEqualsJava((Integer i) -> longs[i] + longs.length, Integer.class, Long.class, INDICES);
    }

    @Test
    void theKernelTakesCapturesBetweenOutputsAndLength() {
        float[] table = {1f};
        float scale = 2f;
        KernelSource source = KernelTestSupport.map((Integer i) -> table[0] * scale + i, Integer.class, Float.class);
        List<KernelParameter.Role> roles = source.parameters().stream().map(KernelParameter::role).toList();
        assertEquals(List.of(KernelParameter.Role.INPUT_BUFFER, KernelParameter.Role.OUTPUT_BUFFER, KernelParameter.Role.CAPTURED_ARRAY, KernelParameter.Role.CAPTURED_ARRAY_LENGTH,
                        KernelParameter.Role.CAPTURED_SCALAR, KernelParameter.Role.BASE_INDEX, KernelParameter.Role.LENGTH, KernelParameter.Role.STATUS).size(), roles.size(), roles.toString());
        assertEquals(2, source.captures().size());
        assertEquals(KernelParameter.Role.STATUS, roles.get(roles.size() - 1));
        assertEquals(KernelParameter.Role.LENGTH, roles.get(roles.size() - 2));
    }

    @Test
    void capturingThisBailsWithAdvice() {
        Function<Integer, Integer> usesField = x -> x * instanceScale;
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> KernelTestSupport.map(usesField, Integer.class, Integer.class));
        assertTrue(e.getMessage().contains("the lambda captures `this` (uses a field or method of CapturedValuesOnDeviceTest); copy the field into a local variable first"),
                        e.getMessage());
        assertTrue(e.getMessage().contains("(at CapturedValuesOnDeviceTest.java:"), "names the lambda's line: " + e.getMessage());
    }

    private static final int[] STATIC_TABLE = {7, -3, Integer.MIN_VALUE, 40};

    /** A user's static final array is a captured array the compiler found: the kernel takes it as its last captured value. */
    @Test
    void aStaticArrayIsAKernelArgument() {
        assertMapEqualsJava((Integer i) -> STATIC_TABLE[i & 3] + java.util.Arrays.binarySearch(STATIC_TABLE, 2, 4, i), Integer.class, Integer.class, INDICES);
        KernelSource source = KernelTestSupport.map((Integer i) -> STATIC_TABLE[i & 3], Integer.class, Integer.class);
        assertEquals(1, source.captures().size());
        assertTrue(source.captures().get(0).staticArray() == STATIC_TABLE);
        assertTrue(source.parameters().stream().anyMatch(p -> p.role() == KernelParameter.Role.CAPTURED_ARRAY), source.parameters().toString());
    }

    @Test
    void writingACapturedArrayBails() {
        int[] counts = new int[4];
        KernelBailoutException e = assertThrows(KernelBailoutException.class, () -> KernelTestSupport.map((Integer i) -> counts[i]++, Integer.class, Integer.class));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }
}
