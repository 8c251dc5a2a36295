package jpai.test.plugins;

import jpai.AF;
import jpai.PArray;
import jpai.ApplyProfile;

/**
 * The program {@code PhasePluginJarTest} starts in a JVM of its own, with the example plugin's jar
 * on the class path: one map with a remainder by a power of two, checked against Java. Prints
 * {@code matches=}, {@code kernels=} and {@code fellBack=}.
 */
public final class PluginProbe {

    private PluginProbe() {
    }

    public static void main(String[] args) {
        int[] values = new int[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i - 500) * 40_503;
        }
        int[] result;
        try (PArray<Integer> in = PArray.of(values); PArray<Integer> out = AF.map((Integer x) -> x % -32).apply(in)) {
            result = out.toIntArray();
        }
        ApplyProfile profile = AF.lastProfile();
        boolean matches = true;
        for (int i = 0; i < values.length; i++) {
            matches &= result[i] == values[i] % -32;
        }
        System.out.println("matches=" + matches);
        System.out.println("kernels=" + profile.kernelCount());
        System.out.println("fellBack=" + profile.fellBack());
    }
}
