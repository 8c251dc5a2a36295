package jpai.test.setup;

import jpai.AF;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * The tiny program the set-up tests start in a JVM of its own: one map with a captured value,
 * checked against the same loop in Java, and where it ran. It prints {@code matches=},
 * {@code kernels=} and {@code fellBack=} on standard output; JPAI's own lines go to standard error.
 */
public final class SetupProbe {

    private SetupProbe() {
    }

    public static void main(String[] args) {
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
