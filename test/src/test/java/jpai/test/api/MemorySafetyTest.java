package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.ElementType;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.opencl.FaultInjection;
import jpai.runtime.opencl.FaultInjection.Fault;

/**
 * Issue 19's crashes and silent losses, one test each: lengths whose byte size overflows, segments
 * kept past {@code close()}, writes through a kept segment that later applies ignored, and null
 * arguments without a message. On a machine with OpenCL the arrays live in pinned driver memory
 * (checked), where the old code's segments outlived their arrays.
 */
class MemorySafetyTest {

    private static final ArrayFunction<Float, Float> TWICE_PLUS_ONE = AF.map((Float x) -> x * 2f + 1f);

    @Test
    void aLengthWhoseByteSizeOverflowsIsRefusedBeforeAnythingIsAllocated() {
        // (2^62 + 1) * 4 bytes wraps to 4: the old code reserved 4 bytes and a map then wrote far past them.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Float.class, (1L << 62) + 1));
        assertTrue(e.getMessage().contains("18446744073709551620 bytes"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PArray.allocateUninitialized(ElementType.DOUBLE, Long.MAX_VALUE / 4));
        assertThrows(IllegalArgumentException.class, () -> PArray.allocateTuples(Long.MAX_VALUE / 2, Byte.class, Long.class));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Integer.class, -1));
        assertTrue(negative.getMessage().contains("negative"), negative.getMessage());
    }

    @Test
    void aLengthBeyondTheHostsMemoryIsRefused() {
        // 2^60 bytes: no host has that much RAM and swap.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PArray.allocate(Double.class, 1L << 57));
        assertTrue(e.getMessage().contains("host's memory"), e.getMessage());
    }

    @Test
    void aSegmentKeptPastCloseThrowsAndCannotReachTheNextArray() {
        PArray<Float> a = PArray.allocate(Float.class, 16);
        expectPinnedMemoryWithOpenCL(a);
        MemorySegment kept = a.segment();
        a.close();
        try (PArray<Float> b = PArray.allocate(Float.class, 16)) {
            // The old code gave b the block a had (the pinned pool) and the kept segment still reached it.
            assertThrows(IllegalStateException.class, () -> kept.get(ValueLayout.JAVA_FLOAT, 24));
            assertThrows(RuntimeException.class, () -> kept.set(ValueLayout.JAVA_FLOAT, 24, 99f));
            assertEquals(0f, b.get(6));
        }
    }

    @Test
    void aWriteScopesSegmentDiesWithTheScopeAndWithTheArray() {
        try (PArray<Float> a = PArray.of(1f, 2f, 3f)) {
            MemorySegment kept;
            try (PArray.WriteScope scope = a.writeScope()) {
                kept = scope.segment();
                kept.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 20f);
            }
            assertEquals(20f, a.get(1));
            assertThrows(IllegalStateException.class, () -> kept.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 30f));
            assertEquals(20f, a.get(1));
        }
        PArray<Float> b = PArray.of(1f, 2f, 3f);
        PArray.WriteScope open = b.writeScope();
        b.close();
        assertThrows(IllegalStateException.class, () -> open.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 0, 5f));
        open.close(); // after the array: does nothing more
    }

    /**
     * The old code's {@code segment()} was writable, and the device copy was marked stale only when
     * it was called: a write through the segment after an apply was never sent. Now a segment is
     * read-only, and a write scope's close marks the array written.
     */
    @Test
    void aWriteThroughASegmentIsNeverIgnoredByTheNextApply() {
        try (PArray<Float> input = PArray.of(1f, 2f, 3f)) {
            MemorySegment kept = input.segment();
            ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, input).close();
            RuntimeException refused = assertThrows(RuntimeException.class, () -> kept.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 100f));
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            try (PArray.WriteScope scope = input.writeScope()) {
                scope.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 0, 100f);
            }
            try (PArray<Float> result = ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, input)) {
                if (ExecutorCase.openCLExpected()) {
                    long sent = AF.lastProfile().hostToDeviceBytes(); // the input's 12 bytes, and 8 status bytes when a fresh status buffer was needed
                    assertTrue(sent == 12 || sent == 20, "the written input is sent again: " + AF.lastProfile());
                }
                assertEquals(201f, result.get(0));
                assertEquals(100f, kept.getAtIndex(ValueLayout.JAVA_FLOAT, 0), "the read-only segment sees the write");
            }
        }
    }

    @Test
    void aDeviceResidentOutputWrittenThroughAWriteScopeIsSentAgain() {
        try (PArray<Float> input = PArray.of(1f, 2f, 3f); PArray<Float> output = ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, input)) {
            ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, output).close(); // output is an input on the device now
            try (PArray.WriteScope scope = output.writeScope()) {
                assertEquals(5f, scope.segment().getAtIndex(ValueLayout.JAVA_FLOAT, 1), "the device's result came back before the write");
                scope.segment().setAtIndex(ValueLayout.JAVA_FLOAT, 2, -4f);
            }
            try (PArray<Float> again = ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, output)) {
                assertEquals(7f, again.get(0));
                assertEquals(11f, again.get(1));
                assertEquals(-7f, again.get(2));
            }
        }
    }

    /**
     * An array closed while its data is being sent (here: from inside the launch, just before the
     * transfer, where another thread's close may land) keeps its memory until the launch is done.
     * Without the launch's lease the close would give the block back at once, the new array made
     * next would take it and overwrite it, and the kernel would compute on that.
     */
    @Test
    void anArrayClosedWhileItIsBeingSentKeepsItsMemoryUntilTheLaunchIsDone() {
        assumeTrue(ExecutorCase.openCLExpected(), "needs an OpenCL device");
        float[] values = values(70_000);
        PArray<Float> input = PArray.of(values);
        List<PArray<Float>> scribblers = new ArrayList<>();
        FaultInjection.runBeforeNext(Fault.TRANSFER, () -> {
            input.close();
            scribblers.add(PArray.of(filled(values.length, -7.5f)));
        });
        try (PArray<Float> result = ExecutorCase.apply(TWICE_PLUS_ONE, Executor.ACCELERATOR, input)) {
            assertEquals(1, scribblers.size(), "the input was closed during the launch");
            float[] actual = result.toFloatArray();
            for (int i = 0; i < values.length; i++) {
                assertEquals(values[i] * 2f + 1f, actual[i], "element " + i);
            }
            assertEquals(-7.5f, scribblers.get(0).get(values.length - 1), "the new array kept its own data");
        } finally {
            FaultInjection.clear();
            scribblers.forEach(PArray::close);
        }
        assertTrue(input.isClosed());
    }

    /** The same for a result closed while it is being brought back to the host: the copy lands in memory the result still owns. */
    @Test
    void anArrayClosedWhileItIsBeingBroughtBackKeepsItsMemoryUntilTheCopyIsDone() {
        assumeTrue(ExecutorCase.openCLExpected(), "needs an OpenCL device");
        float[] values = values(70_000);
        List<PArray<Float>> scribblers = new ArrayList<>();
        try (PArray<Float> input = PArray.of(values)) {
            // a function applied for the first time: its result stays on the device (no read ahead) until the get
            PArray<Float> result = ExecutorCase.apply(AF.map((Float x) -> x * 2f + 1f), Executor.ACCELERATOR, input);
            FaultInjection.runBeforeNext(Fault.TRANSFER, () -> {
                result.close();
                scribblers.add(PArray.of(filled(values.length, -7.5f)));
            });
            try {
                assertEquals(values[3] * 2f + 1f, result.get(3), "the read that was under way when the result was closed");
            } catch (IllegalStateException e) {
                // also right: the get saw the close before it read the element
            }
            assertEquals(1, scribblers.size(), "the result was closed during the copy back");
            float[] scribbled = scribblers.get(0).toFloatArray();
            for (int i = 0; i < scribbled.length; i++) {
                assertEquals(-7.5f, scribbled[i], "the copy back did not land in the new array: element " + i);
            }
            assertThrows(IllegalStateException.class, () -> result.get(3));
        } finally {
            FaultInjection.clear();
            scribblers.forEach(PArray::close);
        }
    }

    private static float[] values(int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.25f - 1000f;
        }
        return values;
    }

    private static float[] filled(int n, float value) {
        float[] values = new float[n];
        java.util.Arrays.fill(values, value);
        return values;
    }

    /** Every public method of the data API names the argument that is null. */
    @Test
    void everyNullArgumentGetsAMessage() {
        List<Executable> calls = new ArrayList<>();
        try (PArray<Float> a = PArray.of(1f, 2f)) {
            calls.add(() -> PArray.of((byte[]) null));
            calls.add(() -> PArray.of((short[]) null));
            calls.add(() -> PArray.of((char[]) null));
            calls.add(() -> PArray.of((int[]) null));
            calls.add(() -> PArray.of((long[]) null));
            calls.add(() -> PArray.of((float[]) null));
            calls.add(() -> PArray.of((double[]) null));
            calls.add(() -> PArray.of((boolean[]) null));
            calls.add(() -> PArray.allocate((Class<Float>) null, 3));
            calls.add(() -> PArray.allocate((jpai.DataType) null, 3));
            calls.add(() -> PArray.allocateTuples(3, (Class<?>[]) null));
            calls.add(() -> PArray.allocateTuples(3, Float.class, null));
            calls.add(() -> PArray.copyOf(null, MemorySegment.ofArray(new float[1])));
            calls.add(() -> PArray.copyOf(Float.class, null));
            calls.add(() -> PArray.zip(a, null));
            calls.add(() -> a.put(0, null));
            calls.add(() -> a.copyFrom((MemorySegment) null, 0));
            calls.add(() -> a.copyFrom((Object) null, 0));
            calls.add(() -> a.copyTo(0, 1, null));
            calls.add(() -> a.copyTo(0, (Object) null));
            calls.add(() -> AF.map((Function<Float, Float>) null));
            calls.add(() -> AF.map((Float x) -> x, (Class<Float>) null));
            calls.add(() -> AF.reduce(null, 0f));
            calls.add(() -> TWICE_PLUS_ONE.apply(null));
            calls.add(() -> TWICE_PLUS_ONE.andThen(null));
            calls.add(() -> TWICE_PLUS_ONE.on((jpai.Executor) null));
            calls.add(() -> TWICE_PLUS_ONE.on((jpai.Devices) null));
            calls.add(() -> jpai.Devices.of((String[]) null));
            for (int i = 0; i < calls.size(); i++) {
                NullPointerException e = assertThrows(NullPointerException.class, calls.get(i), "call " + i);
                assertNotNull(e.getMessage(), "call " + i + " throws a NullPointerException with no message");
                assertTrue(e.getMessage().contains("null"), "call " + i + ": " + e.getMessage());
            }
        }
    }

    /** With OpenCL, new arrays live in the device's pinned memory: the memory the old segments outlived. */
    static void expectPinnedMemoryWithOpenCL(PArray<?> array) {
        if (ExecutorCase.openCLExpected()) {
            assertNotNull(PArrayStorage.buffer(array, 0).allocation().deviceHandle(), "arrays are in pinned driver memory when OpenCL is in use");
        }
    }
}
