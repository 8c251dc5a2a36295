package jpai.bench;

import jpai.FallbackException;
import jpai.runtime.device.DeviceChoice;
import jpai.runtime.opencl.OpenCLRuntime;

/**
 * The one place that chooses the executor a JPAI version runs on. Today's public API has no
 * per-function executor, so this sets the documented system properties ({@code jpai.device=java}
 * for Java threads; {@code jpai.fallback=error} to learn whether the OpenCL run really stayed on the
 * device) for the whole life of one version (created, validated, warmed up, timed) and restores them
 * after. When {@code AF.map(f).on(Executor.THREADS | OPENCL)} lands, the JPAI versions can take the
 * executor instead and this class shrinks to the fallback detection.
 */
public final class JpaiExecution implements AutoCloseable {

    /** JPAI's executors that the suite times. */
    public enum Executor {
        THREADS, OPENCL
    }

    private static final String DEVICE = "jpai.device";
    private static final String FALLBACK = "jpai.fallback";
    private static final String FAST_MATH = "jpai.fastmath";

    private final String savedDevice;
    private final String savedFallback;
    private final String savedFastMath;

    private JpaiExecution(Executor executor, boolean fallbackIsError, boolean fastMath) {
        savedDevice = System.getProperty(DEVICE);
        savedFallback = System.getProperty(FALLBACK);
        savedFastMath = System.getProperty(FAST_MATH);
        if (fastMath) {
            System.setProperty(FAST_MATH, "true");
        } else {
            System.clearProperty(FAST_MATH);
        }
        if (executor == Executor.THREADS) {
            System.setProperty(DEVICE, "java");
        }
        if (fallbackIsError) {
            System.setProperty(FALLBACK, "error");
        } else {
            System.clearProperty(FALLBACK);
        }
        // The runtime re-makes its device choice when jpai.device changes: do it now, not in a timed run.
        OpenCLRuntime.choice();
    }

    /**
     * Selects {@code executor} until {@link #close()}.
     *
     * @param fallbackIsError make a fallback to Java throw {@link FallbackException} (the OpenCL
     *                        version's first try) instead of running on Java threads
     */
    public static JpaiExecution enter(Executor executor, boolean fallbackIsError) {
        return new JpaiExecution(executor, fallbackIsError, false);
    }

    /**
     * As {@link #enter(Executor, boolean)}, with {@code -Djpai.fastmath=true} when {@code fastMath}
     * (kernels are kept per option, so an exact and a fast-math version never share one).
     */
    public static JpaiExecution enter(Executor executor, boolean fallbackIsError, boolean fastMath) {
        return new JpaiExecution(executor, fallbackIsError, fastMath);
    }

    /** Where JPAI sends operations now: "OpenCL: device name" or "Java threads". */
    public static String where() {
        DeviceChoice choice = OpenCLRuntime.choice();
        if (choice instanceof DeviceChoice.OpenCL openCL) {
            return "OpenCL: " + openCL.device().name().strip();
        }
        return "Java threads";
    }

    @Override
    public void close() {
        restore(DEVICE, savedDevice);
        restore(FALLBACK, savedFallback);
        restore(FAST_MATH, savedFastMath);
        OpenCLRuntime.choice();
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
