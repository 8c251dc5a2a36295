package jpai.test.setup;

import jpai.AF;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * The tiny program the set-up tests start in a JVM of its own: one map with a captured value,
 * checked against the same loop in Java, and where it ran. It prints {@code matches=},
 * {@code kernels=} and {@code fellBack=} on standard output; JPAI's own lines go to standard error.
 * With the argument {@code foreign-context-loader} it runs on a thread whose context class loader
 * does not delegate to the system class loader (as Spark SQL's task threads have), so that JPAI's
 * first use of JVMCI happens there.
 */
public final class SetupProbe {

    private SetupProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("foreign-context-loader")) {
            Thread thread = new Thread(() -> run());
            thread.setContextClassLoader(new java.net.URLClassLoader(new java.net.URL[0], null)); // delegates to the bootstrap loader only, as Spark's ExecutorClassLoader does
            thread.start();
            thread.join();
            return;
        }
        run();
    }

    private static void run() {
        float scale = 3.0f;
        float[] values = new float[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i * 0.5f;
        }
        float[] result;
        try (PArray<Float> in = PArray.of(values); PArray<Float> out = AF.map((Float x) -> x * scale + 1.0f).apply(in)) {
            result = out.toFloatArray();
        }
        ApplyProfile profile = AF.lastProfile();
        boolean matches = true;
        for (int i = 0; i < values.length; i++) {
            matches &= result[i] == values[i] * scale + 1.0f;
        }
        System.out.println("matches=" + matches);
        System.out.println("kernels=" + profile.kernelCount());
        System.out.println("fellBack=" + profile.fellBack());
    }
}
