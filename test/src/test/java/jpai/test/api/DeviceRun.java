package jpai.test.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import org.junit.jupiter.api.function.Executable;

import jpai.AF;
import jpai.ArrayFunction;
import jpai.Executor;
import jpai.PArray;
import jpai.runtime.opencl.KernelLaunches;
import jpai.ApplyProfile;

/**
 * Evidence, for the capture tests, of where an apply ran: on the device ({@link #onDevice}: the
 * apply launched kernels and did not fall back), or in Java for a stated reason ({@link #inJava}).
 * Where the environment promises an OpenCL device ({@code JPAI_EXPECT_OPENCL=1}, which
 * {@code bin/jpai test} sets whenever one exists) the evidence is demanded.
 */
final class DeviceRun {

    private DeviceRun() {
    }

    /** Applies {@code function} on the device and checks that it ran there and gave Java's result, element for element. */
    static <T, R> void assertOnDeviceAsJava(Function<T, R> lambda, ArrayFunction<T, R> function, PArray<T> input, String what) {
        long launches = KernelLaunches.count();
        try (PArray<R> out = ExecutorCase.apply(function, Executor.ACCELERATOR, input)) {
            ApplyProfile profile = AF.lastProfile();
            if (ExecutorCase.openCLExpected()) {
                assertTrue(!profile.fellBack() && profile.kernelCount() > 0 && KernelLaunches.count() > launches, what + ": the device ran: " + profile);
            }
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(lambda, input), out, what);
        }
    }

    /**
     * Applies {@code function} on the accelerator and checks that it gave Java's result but ran in
     * Java, for a reason that contains {@code reason}.
     */
    static <T, R> void assertInJavaAsJava(Function<T, R> lambda, ArrayFunction<T, R> function, PArray<T> input, String reason, String what) {
        try (PArray<R> out = function.on(Executor.ACCELERATOR).apply(input)) {
            ApplyProfile profile = AF.lastProfile();
            if (ExecutorCase.openCLExpected()) {
                assertTrue(profile.fellBack() && profile.fallbackReason() != null && profile.fallbackReason().contains(reason), what + ": ran in Java because " + reason + ": " + profile);
            }
            ExecutorCase.assertSameAsJava(ExecutorCase.javaLoop(lambda, input), out, what);
        }
    }

    /**
     * Checks that Java's loop over {@code input} throws {@code type} and that the apply on the
     * accelerator throws the same exception with the same message; {@code kernelFirst}: the kernel
     * ran first and left at the element (else the apply went to Java before any kernel).
     */
    static <T, R, E extends Throwable> E assertThrowsAsJava(Class<E> type, Function<T, R> lambda, ArrayFunction<T, R> function, PArray<T> input, boolean kernelFirst, String what) {
        E java = assertThrows(type, (Executable) () -> ExecutorCase.javaLoop(lambda, input), what + ": Java throws");
        long launches = KernelLaunches.count();
        E device = assertThrows(type, () -> ExecutorCase.apply(function, Executor.ACCELERATOR, input).close(), what + ": the apply throws");
        assertEquals(java.getMessage(), device.getMessage(), what + ": Java's message");
        if (ExecutorCase.openCLExpected()) {
            assertEquals(kernelFirst, KernelLaunches.count() > launches, what + ": a kernel ran first: " + kernelFirst);
        }
        return device;
    }
}
