package jpai.runtime.opencl;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;

import jpai.ocl.KernelSource;
import jpai.runtime.device.DeviceChoice;

/** The device the OpenCL tests run on (PoCL in CI), and small hand-written kernels. */
final class OpenCLTestSupport {

    /** {@code out[i] = in[i] * factor} for {@code i < n}. Arguments: in, out, n (long), factor (float). */
    static final KernelSource SCALE = new KernelSource("scale",
            "__kernel void scale(__global const float *in, __global float *out, const long n, const float factor) {\n"
                    + "    long i = get_global_id(0);\n"
                    + "    if (i < n) { out[i] = in[i] * factor; }\n"
                    + "}\n",
            "", List.of());

    private OpenCLTestSupport() {
    }

    /** The chosen OpenCL device's context; fails the test if the runtime chose Java threads. */
    static DeviceContext context() {
        DeviceChoice choice = OpenCLRuntime.choice();
        return OpenCLRuntime.context(assertInstanceOf(DeviceChoice.OpenCL.class, choice, "an OpenCL device is expected (JPAI_EXPECT_OPENCL=1)"));
    }

    /** Device buffers held by arrays and launches right now: live ones minus those idle in {@code context}'s pool. */
    static long deviceBuffersInUse(DeviceContext context) {
        // Zeroed status buffers kept for later launches are idle too, wherever the test order first made them.
        return LiveResources.deviceBuffers() - context.bufferPool().idleCount() - context.statusBuffers().idleCount();
    }

    /** A launch of {@link #SCALE} over {@code n} elements. */
    static KernelLaunch scale(jpai.runtime.memory.ComponentBuffer in, jpai.runtime.memory.ComponentBuffer out, long n, float factor) {
        return new KernelLaunch().readBuffer(0, in).writeBuffer(1, out).scalar(2, jdk.vm.ci.meta.JavaKind.Long, n)
                .scalar(3, jdk.vm.ci.meta.JavaKind.Float, factor).globalSize(n);
    }
}
