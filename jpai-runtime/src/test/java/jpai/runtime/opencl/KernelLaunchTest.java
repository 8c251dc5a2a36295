package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import jdk.vm.ci.meta.JavaKind;
import jpai.PArray;
import jpai.ocl.KernelSource;
import jpai.runtime.memory.PArrayStorage;
import jpai.runtime.profile.Profiler;

/**
 * The launch API with hand-written kernels: every kind of binding, the status words, and the
 * residency rules (inputs sent once, results brought back lazily, intermediates never).
 */
@EnabledIfEnvironmentVariable(named = "JPAI_EXPECT_OPENCL", matches = "1")
class KernelLaunchTest {

    private static final KernelSource ALL_BINDINGS = new KernelSource("all_bindings", """
            #pragma OPENCL EXTENSION cl_khr_fp64 : enable
            __kernel void all_bindings(__global const float *in, __global float *out, __global const int *captured, const long n,
                                       const int i, const float f, const double d, const short s, const uchar b, const ushort c,
                                       const char y, __local float *scratch, __global int *status) {
                long g = get_global_id(0);
                scratch[get_local_id(0)] = 1.0f;
                barrier(CLK_LOCAL_MEM_FENCE);
                if (g < n) {
                    out[g] = in[g] * f + (float) captured[g % 3] + (float) i + (float) d + (float) s + (float) b + (float) c + (float) y;
                }
                if (g == 0) {
                    status[0] = 7;
                    status[1] = (int) scratch[0] + 41;
                }
            }
            """, "", List.of());

    @Test
    void bindsEveryKindOfArgumentAndReadsTheStatusBack() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 1000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k * 0.5f;
        }
        int[] captured = {100, 200, 300};
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = PArray.allocate(Float.class, n)) {
            KernelLaunch launch = new KernelLaunch()
                    .readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(1, PArrayStorage.buffer(out, 0)).readArray(2, captured)
                    .scalar(3, JavaKind.Long, (long) n).scalar(4, JavaKind.Int, 1).scalar(5, JavaKind.Float, 2.0f)
                    .scalar(6, JavaKind.Double, 0.25).scalar(7, JavaKind.Short, (short) -3).scalar(8, JavaKind.Boolean, true)
                    .scalar(9, JavaKind.Char, (char) 4).scalar(10, JavaKind.Byte, (byte) -2)
                    .local(11, 64 * Float.BYTES).status(12)
                    .globalSize(1024).localSize(64);
            LaunchResult result = context.launch(ALL_BINDINGS, launch);
            assertTrue(result.hasStatus());
            assertEquals(7, result.status(0));
            assertEquals(42, result.status(1), "the __local buffer was bound and shared by the work-group");
            float[] actual = out.toFloatArray();
            for (int k = 0; k < n; k++) {
                float expected = values[k] * 2.0f + captured[k % 3] + 1 + 0.25f - 3 + 1 + 4 - 2;
                assertEquals(expected, actual[k], "element " + k);
            }
            LaunchProfile profile = result.profile();
            long sent = n * 4L + captured.length * 4L;
            // The status words are sent (zeroed) only when the context has no zeroed status buffer to reuse.
            assertTrue(profile.hostToDeviceBytes() == sent || profile.hostToDeviceBytes() == sent + 8, "input, captured array and maybe zeroed status words: " + profile);
            assertEquals(8, profile.deviceToHostBytes(), "only the status words come back during the launch");
            assertTrue(profile.kernelNanos() > 0, "the kernel's time comes from event profiling");
        }
    }

    @Test
    void enqueuesALargeRangeInPiecesWithGlobalOffsets() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 1000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k;
        }
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = PArray.allocate(Float.class, n)) {
            // 1024 work-items in pieces of 192 (three work-groups of 64): six pieces, the last one of 64.
            LaunchResult result = context.launch(OpenCLTestSupport.SCALE,
                    OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f).globalSize(1024).localSize(64).perEnqueue(192));
            float[] actual = out.toFloatArray();
            for (int k = 0; k < n; k++) {
                assertEquals(2f * k, actual[k], "element " + k + " was covered by exactly the piece with its offset");
            }
            assertTrue(result.profile().kernelNanos() > 0);
            assertThrows(IllegalArgumentException.class, () -> context.launch(OpenCLTestSupport.SCALE,
                    OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f).globalSize(1024).localSize(64).perEnqueue(100)),
                    "pieces of whole work-groups only");
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().perEnqueue(-1));
        }
    }

    @Test
    void sendsAnUnchangedInputOnceAndAChangedOneAgain() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 4096;
        try (PArray<Float> in = PArray.of(new float[n]); PArray<Float> out = PArray.allocate(Float.class, n)) {
            in.put(1, 3.0f);
            assertEquals(n * 4L, context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f)).profile().hostToDeviceBytes());
            assertEquals(0, context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f)).profile().hostToDeviceBytes(),
                    "the device copy is current: nothing is sent");
            in.put(2, 5.0f); // a host write makes the device copy stale
            assertEquals(n * 4L, context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f)).profile().hostToDeviceBytes());
            assertEquals(6.0f, out.get(1));
            assertEquals(10.0f, out.get(2));
        }
    }

    /**
     * Element reads that found the host copy current skip their checks from then on
     * ({@code ComponentBuffer.get}'s fast path); a kernel that writes the array must end that, so the
     * next read brings the kernel's data back, each time, and a closed array still says so.
     */
    @Test
    void readsAfterAKernelWroteTheArraySeeTheKernelsData() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 4096;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k;
        }
        PArray<Float> out = PArray.allocate(Float.class, n);
        try (PArray<Float> in = PArray.of(values)) {
            for (float factor : new float[] {2f, 3f, 5f}) {
                float sum = 0;
                for (int round = 0; round < 200; round++) { // past the first reads' leases: the fast path is on
                    sum += out.get(round % n);
                }
                assertTrue(sum >= 0);
                context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, factor));
                for (int k = 0; k < n; k += 97) {
                    assertEquals(k * factor, out.get(k), "element " + k + " after the kernel that scaled by " + factor);
                }
            }
        } finally {
            out.close();
        }
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> out.get(0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    @Test
    void bringsResultsBackLazilyOnceAndKeepsIntermediatesOnTheDevice() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 10_000;
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = k;
        }
        try (PArray<Float> in = PArray.of(values); PArray<Float> middle = PArray.allocate(Float.class, n); PArray<Float> out = PArray.allocate(Float.class, n)) {
            context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(middle, 0), n, 2f));
            long lazyBefore = Profiler.lazyDeviceToHost().bytes();
            LaunchProfile second = context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(middle, 0), PArrayStorage.buffer(out, 0), n, 3f)).profile();
            assertEquals(0, second.hostToDeviceBytes(), "the intermediate is read where it was written");
            assertEquals(0, second.deviceToHostBytes());
            assertEquals(lazyBefore, Profiler.lazyDeviceToHost().bytes(), "nothing came back yet");
            float[] result = out.toFloatArray();
            assertEquals(lazyBefore + n * 4L, Profiler.lazyDeviceToHost().bytes(), "the result came back on first host access");
            out.toFloatArray();
            assertEquals(lazyBefore + n * 4L, Profiler.lazyDeviceToHost().bytes(), "and only once");
            for (int k = 0; k < n; k++) {
                assertEquals(k * 6.0f, result[k]);
            }
            assertTrue(((DeviceResidency) PArrayStorage.buffer(middle, 0).mirror()).isDeviceNewer(), "the intermediate never came back");
        }
    }

    @Test
    void bringsResultsBackInTheLaunchWhenAsked() {
        DeviceContext context = OpenCLTestSupport.context();
        int n = 2048;
        try (PArray<Float> in = PArray.of(new float[n]); PArray<Float> out = PArray.allocate(Float.class, n)) {
            in.put(5, 1.5f);
            LaunchProfile profile = context.launch(OpenCLTestSupport.SCALE,
                    OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), n, 2f).keepResultOnDevice(false)).profile();
            assertEquals(n * 4L, profile.deviceToHostBytes());
            assertFalse(((DeviceResidency) PArrayStorage.buffer(out, 0).mirror()).isDeviceNewer());
            long lazyBefore = Profiler.lazyDeviceToHost().bytes();
            assertEquals(3.0f, out.get(5));
            assertEquals(lazyBefore, Profiler.lazyDeviceToHost().bytes());
        }
    }

    @Test
    void closingAnArrayGivesItsDeviceMemoryBack() {
        DeviceContext context = OpenCLTestSupport.context();
        long before = OpenCLTestSupport.deviceBuffersInUse(context);
        PArray<Float> in = PArray.of(new float[777]);
        PArray<Float> out = PArray.allocate(Float.class, 777);
        context.launch(OpenCLTestSupport.SCALE, OpenCLTestSupport.scale(PArrayStorage.buffer(in, 0), PArrayStorage.buffer(out, 0), 777, 2f));
        assertEquals(before + 2, OpenCLTestSupport.deviceBuffersInUse(context));
        in.close();
        out.close();
        assertEquals(before, OpenCLTestSupport.deviceBuffersInUse(context));
    }

    @Test
    void saysWhichArgumentIsMissingOrWrong() {
        DeviceContext context = OpenCLTestSupport.context();
        try (PArray<Float> in = PArray.of(new float[8]); PArray<Float> out = PArray.allocate(Float.class, 8)) {
            long before = OpenCLTestSupport.deviceBuffersInUse(context);
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> context.launch(OpenCLTestSupport.SCALE,
                    new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(1, PArrayStorage.buffer(out, 0)).scalar(3, JavaKind.Float, 1f).globalSize(8)));
            assertEquals("argument 2 of kernel scale is not bound", missing.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().scalar(0, JavaKind.Int, 1L), "a long is not an int");
            assertThrows(IllegalArgumentException.class, () -> new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(0, PArrayStorage.buffer(out, 0)));
            // indices from 64 on are kept apart from the mask of those below: both say twice and too many
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> new KernelLaunch().scalar(70, JavaKind.Int, 1).scalar(63, JavaKind.Int, 1).scalar(70, JavaKind.Int, 2));
            assertEquals("kernel argument 70 is bound twice", twice.getMessage());
            IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class, () -> context.launch(OpenCLTestSupport.SCALE,
                    new KernelLaunch().readBuffer(0, PArrayStorage.buffer(in, 0)).writeBuffer(1, PArrayStorage.buffer(out, 0)).scalar(2, JavaKind.Long, 8L)
                            .scalar(3, JavaKind.Float, 1f).scalar(70, JavaKind.Int, 1).globalSize(8)));
            assertEquals("kernel scale has 4 arguments; argument 70 does not exist", beyond.getMessage());
            assertEquals(before, OpenCLTestSupport.deviceBuffersInUse(context));
        }
    }
}
