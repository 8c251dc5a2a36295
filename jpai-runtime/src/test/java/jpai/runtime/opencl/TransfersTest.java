package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jpai.PArray;
import jpai.runtime.memory.PArrayStorage;

/**
 * Transfers in slices (arrays over 2 GiB move in slices of at most 1 GiB), shown with slices of a
 * few hundred bytes, in both directions; and the size rules of pooled and pinned memory.
 */
class TransfersTest {

    @Test
    void sizeClassesRoundUpByAtMostAQuarter() {
        assertEquals(256, SizeClasses.classOf(0));
        assertEquals(256, SizeClasses.classOf(256));
        assertEquals(320, SizeClasses.classOf(257));
        assertEquals(1024, SizeClasses.classOf(1024));
        assertEquals(1280, SizeClasses.classOf(1025));
        assertEquals(1L << 30, SizeClasses.classOf(1L << 30));
        for (long bytes = 257; bytes < 1_000_000; bytes = bytes * 3 / 2 + 7) {
            long size = SizeClasses.classOf(bytes);
            assertTrue(size >= bytes && size <= bytes * 1.25 + 1, bytes + " -> " + size);
        }
    }

    @Test
    void onlyBlocksUpTo2GiBArePinned() {
        assertTrue(PinnedHostMemory.isPinnable(1L << 30));
        assertTrue(PinnedHostMemory.isPinnable((1L << 31) - (1L << 28)));
        assertFalse(PinnedHostMemory.isPinnable(1L << 31));
        assertFalse(PinnedHostMemory.isPinnable(3L << 30));
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void movesDataInSlicesBothWays() {
        DeviceContext context = OpenCLTestSupport.context();
        Transfers transfers = new Transfers(1000);
        long bytes = 10_007;
        assertEquals(11, transfers.sliceCount(bytes));
        DeviceBuffer buffer = context.bufferPool().acquire(bytes);
        org.jocl.cl_command_queue queue = context.queues().take("the test");
        LaunchEvents events = LaunchEvents.take(queue);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(bytes);
            MemorySegment target = arena.allocate(bytes);
            for (long i = 0; i < bytes; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            transfers.toDevice(source, buffer.memory(), events, null);
            transfers.toHost(buffer.memory(), target, events, true);
            events.await();
            assertEquals(11, events.count(LaunchEvents.Kind.HOST_TO_DEVICE));
            assertEquals(11, events.count(LaunchEvents.Kind.DEVICE_TO_HOST));
            assertEquals(bytes, events.bytes(LaunchEvents.Kind.DEVICE_TO_HOST));
            assertEquals(-1, source.mismatch(target), "every slice arrived where it belongs");
        } finally {
            events.release();
            context.queues().giveBack(queue);
            context.bufferPool().release(buffer);
        }
    }

    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void aContextWithSmallSlicesRunsKernelsOnSlicedData() {
        DeviceContext sliced = new DeviceContext(OpenCLTestSupport.context().device(), (Path) null, 4096);
        try {
            int n = 10_000; // 40,000 bytes: 10 slices each way
            float[] values = new float[n];
            for (int k = 0; k < n; k++) {
                values[k] = k - 5000.5f;
            }
            try (PArray<Float> in = PArray.of(values); PArray<Float> out = PArray.allocate(Float.class, n)) {
                LaunchProfile profile = sliced.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, -2f)
                        .keepResultOnDevice(false)).profile();
                assertEquals(10, profile.hostToDeviceCount());
                assertEquals(10, profile.deviceToHostCount());
                float[] result = out.toFloatArray();
                for (int k = 0; k < n; k++) {
                    assertEquals(values[k] * -2f, result[k], "element " + k);
                }
            }
        } finally {
            sliced.close();
        }
    }

    /**
     * Reads and writes go to JOCL's native entry points, skipping the thread-pool hand-off of its
     * non-blocking calls (BufferCommands): a JOCL whose entry points differ is noticed here.
     */
    @Test
    void bufferCommandsReachJoclsNativeEntryPoints() {
        assertTrue(BufferCommands.direct(), "JOCL's clEnqueueReadBufferNative/clEnqueueWriteBufferNative were not found");
    }

    /** A failed enqueue through the native entry points throws what JOCL's own call throws. */
    @Test
    @EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
    void aFailedBufferCommandThrowsJoclsException() {
        DeviceContext context = OpenCLTestSupport.context();
        DeviceBuffer buffer = context.bufferPool().acquire(256);
        org.jocl.cl_command_queue queue = context.queues().take("the test");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(1024);
            org.jocl.Pointer into = Transfers.pointerTo(target);
            long past = buffer.capacity() + 1; // from past the buffer's end: CL_INVALID_VALUE
            org.jocl.CLException read = org.junit.jupiter.api.Assertions.assertThrows(org.jocl.CLException.class,
                    () -> BufferCommands.read(queue, buffer.memory(), true, past, 16, into, 0, null, null));
            assertEquals(org.jocl.CL.CL_INVALID_VALUE, read.getStatus());
            assertEquals("CL_INVALID_VALUE", read.getMessage());
            org.jocl.CLException write = org.junit.jupiter.api.Assertions.assertThrows(org.jocl.CLException.class,
                    () -> BufferCommands.write(queue, buffer.memory(), false, past, 16, into, 0, null, null));
            assertEquals(org.jocl.CL.CL_INVALID_VALUE, write.getStatus());
        } finally {
            context.queues().giveBack(queue);
            context.bufferPool().release(buffer);
        }
    }

    /** A Java array's memory never reaches an enqueue that may outlive the call: refused before the driver sees it. */
    @Test
    void aJavaArraysMemoryIsRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Transfers.pointerTo(MemorySegment.ofArray(new float[4])));
        try (Arena arena = Arena.ofConfined()) {
            org.junit.jupiter.api.Assertions.assertNotNull(Transfers.pointerTo(arena.allocate(16)));
        }
    }
}
